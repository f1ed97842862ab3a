-- The chat's whole day in one place: besides dollars, the tokens (reserved at the estimate, replaced by the
-- provider's reported usage) and the requests of the site and of each client, so one client can take no more
-- than its share of any budget. Replaces the site-wide token and request windows the chat kept in rate_limits,
-- where a refused request was still counted (a single large request could close the chat for the day).
alter table public.chat_spend
  add column reserved_tokens bigint not null default 0 check (reserved_tokens >= 0),
  add column spent_tokens bigint not null default 0 check (spent_tokens >= 0),
  add column requests integer not null default 0 check (requests >= 0);

drop function if exists public.chat_reserve(text, bigint, bigint, bigint);
drop function if exists public.chat_settle(text, date, bigint, bigint, boolean);

-- Reserves a request's estimate (dollars and tokens) and counts it against the site's day and the client's
-- share of it, in one statement, so concurrent requests on many instances cannot pass a budget together.
-- Answers the day it was booked on and, when refused, which side refused it ('site' or 'client'): a refused
-- request books nothing, on either row.
create or replace function public.chat_reserve(
  p_client text,
  p_micros bigint,
  p_tokens bigint,
  p_site_micros bigint,
  p_client_micros bigint,
  p_site_tokens bigint,
  p_client_tokens bigint,
  p_site_requests integer,
  p_client_requests integer
)
returns table (day date, refused text)
language plpgsql
set search_path = public, pg_temp
as $$
declare
  d date := (now() at time zone 'utc')::date;
  site public.chat_spend;
  mine public.chat_spend;
begin
  insert into public.chat_spend (day, scope) values (d, 'site'), (d, p_client) on conflict do nothing;
  -- Always the site row first, then the client's: one lock order, no deadlock.
  select * into site from public.chat_spend s where s.day = d and s.scope = 'site' for update;
  select * into mine from public.chat_spend s where s.day = d and s.scope = p_client for update;
  if site.reserved_micros + site.spent_micros + p_micros > p_site_micros
     or site.reserved_tokens + site.spent_tokens + p_tokens > p_site_tokens
     or site.requests + 1 > p_site_requests then
    return query select d, 'site'::text;
    return;
  end if;
  if mine.reserved_micros + mine.spent_micros + p_micros > p_client_micros
     or mine.reserved_tokens + mine.spent_tokens + p_tokens > p_client_tokens
     or mine.requests + 1 > p_client_requests then
    return query select d, 'client'::text;
    return;
  end if;
  update public.chat_spend s
     set reserved_micros = s.reserved_micros + p_micros,
         reserved_tokens = s.reserved_tokens + p_tokens,
         requests = s.requests + 1
   where s.day = d and s.scope in ('site', p_client);
  -- Old days are of no use to the budget; about one reservation in a hundred sweeps them.
  if random() < 0.01 then
    delete from public.chat_spend s where s.day < d - 7;
  end if;
  return query select d, null::text;
end;
$$;

-- Replaces a reservation by what the reply really cost and used (0 when nothing was spent: the provider refused).
create or replace function public.chat_settle(
  p_client text,
  p_day date,
  p_estimate_micros bigint,
  p_actual_micros bigint,
  p_estimate_tokens bigint,
  p_actual_tokens bigint,
  p_replied boolean
)
returns void
language sql
set search_path = public, pg_temp
as $$
  update public.chat_spend s
     set reserved_micros = greatest(0, s.reserved_micros - p_estimate_micros),
         spent_micros = s.spent_micros + greatest(0, p_actual_micros),
         reserved_tokens = greatest(0, s.reserved_tokens - p_estimate_tokens),
         spent_tokens = s.spent_tokens + greatest(0, p_actual_tokens),
         replies = s.replies + case when p_replied then 1 else 0 end
   where s.day = p_day and s.scope in ('site', p_client);
$$;

revoke execute on function public.chat_reserve(text, bigint, bigint, bigint, bigint, bigint, bigint, integer, integer) from public;
revoke execute on function public.chat_settle(text, date, bigint, bigint, bigint, bigint, boolean) from public;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke execute on function public.chat_reserve(text, bigint, bigint, bigint, bigint, bigint, bigint, integer, integer) from %I', r);
      execute format('revoke execute on function public.chat_settle(text, date, bigint, bigint, bigint, bigint, boolean) from %I', r);
    end if;
  end loop;
end;
$$;

-- The chat's old daily windows in rate_limits are no longer read.
delete from public.rate_limits where key like 'chat:budget:%';
