-- Checkout and mail limits.
--
-- place_order_limited: place_order, then a per-client limit on NEW orders, counted with the site's one rate
-- limiter (hit_rate_limit) in the same transaction. A replayed idempotency key (the cart retrying) is never
-- counted; a refused checkout raises LU429 with the seconds to wait as its DETAIL, which rolls back the
-- order and the hit alike, so nothing is written and a refusal uses up nothing.

create or replace function public.place_order_limited(
  p_items jsonb, p_idempotency_key text, p_method text, p_client text, p_limit integer, p_window_seconds integer
)
returns table (payment_id uuid, replayed boolean)
language plpgsql
set search_path = public, pg_temp
as $$
declare
  v_payment uuid;
  v_replayed boolean;
  v_allowed boolean;
  v_retry integer;
begin
  select o.payment_id, o.replayed into v_payment, v_replayed from place_order(p_items, p_idempotency_key, p_method) o;
  if not v_replayed then
    select h.allowed, h.retry_after into v_allowed, v_retry
      from hit_rate_limit('checkout:' || p_client, p_limit, p_window_seconds) h;
    if not v_allowed then
      raise exception 'Too many checkouts from this client' using errcode = 'LU429', detail = v_retry::text;
    end if;
  end if;
  return query select v_payment, v_replayed;
end;
$$;

-- `limited`: the confirmation was not sent because a daily mail limit (per recipient or site-wide) was reached.
alter table public.payments drop constraint if exists payments_email_status_check;
alter table public.payments add constraint payments_email_status_check
  check (email_status in ('sending', 'sent', 'saved', 'failed', 'limited'));

revoke execute on function public.place_order_limited(jsonb, text, text, text, integer, integer) from public;
do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke execute on function public.place_order_limited(jsonb, text, text, text, integer, integer) from %I', r);
    end if;
  end loop;
end;
$$;
