-- Gives back hits a caller counted for work that never happened: the hosted AI service's daily budget counts a
-- prediction before it is created (so concurrent requests cannot pass the budget together), and a create the
-- service refused (unknown model, invalid input, its own 429) must not use the budget up. Only the current
-- window is touched, and a count never goes below zero.
create or replace function public.refund_rate_limit(p_key text, p_window_seconds integer, p_weight integer default 1)
returns void
language sql
set search_path = public, pg_temp
as $$
  update public.rate_limits
     set count = greatest(0, count - greatest(1, p_weight))
   where key = p_key
     and window_start = to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds);
$$;

revoke execute on function public.refund_rate_limit(text, integer, integer) from public;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke execute on function public.refund_rate_limit(text, integer, integer) from %I', r);
    end if;
  end loop;
end;
$$;
