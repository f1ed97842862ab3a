-- The chat's model catalogue, shared by every function instance: one row per endpoint (CHAT_API_BASE_URL),
-- the provider's GET /models answer trimmed to what the hub reads, and when it was fetched. A failed
-- refresh leaves the row alone, so the last good copy is served.
create table public.chat_catalogue (
  base_url text primary key,
  entries jsonb not null,
  fetched_at timestamptz not null default now()
);
alter table public.chat_catalogue enable row level security;

-- The chat's spend in dollars, per UTC day: one row for the whole site ('site') and one per client
-- ('chat:<client id>'). Amounts are micro-dollars. `reserved` holds the up-front estimates of replies still
-- streaming; `spent` what the provider reported (usage.cost) once they finished.
create table public.chat_spend (
  day date not null,
  scope text not null,
  reserved_micros bigint not null default 0 check (reserved_micros >= 0),
  spent_micros bigint not null default 0 check (spent_micros >= 0),
  replies integer not null default 0,
  primary key (day, scope)
);
alter table public.chat_spend enable row level security;

-- Reserves a reply's estimate against the site's day and the client's share of it, in one statement, so
-- concurrent requests on many instances cannot pass the budget together. Answers the day the estimate was
-- booked on and, when refused, which budget refused it ('site' or 'client'); nothing is booked then.
create or replace function public.chat_reserve(p_client text, p_estimate bigint, p_site_limit bigint, p_client_limit bigint)
returns table (day date, refused text)
language plpgsql
set search_path = public, pg_temp
as $$
declare
  d date := (now() at time zone 'utc')::date;
  site_used bigint;
  client_used bigint;
begin
  insert into public.chat_spend (day, scope) values (d, 'site'), (d, p_client) on conflict do nothing;
  -- Always the site row first, then the client's: one lock order, no deadlock.
  select s.reserved_micros + s.spent_micros into site_used from public.chat_spend s where s.day = d and s.scope = 'site' for update;
  select s.reserved_micros + s.spent_micros into client_used from public.chat_spend s where s.day = d and s.scope = p_client for update;
  if site_used + p_estimate > p_site_limit then
    return query select d, 'site'::text;
    return;
  end if;
  if client_used + p_estimate > p_client_limit then
    return query select d, 'client'::text;
    return;
  end if;
  update public.chat_spend s set reserved_micros = s.reserved_micros + p_estimate where s.day = d and s.scope in ('site', p_client);
  -- Old days are of no use to the budget; about one reservation in a hundred sweeps them.
  if random() < 0.01 then
    delete from public.chat_spend s where s.day < d - 7;
  end if;
  return query select d, null::text;
end;
$$;

-- Replaces a reservation by what the reply really cost (0 when nothing was spent: the provider refused).
create or replace function public.chat_settle(p_client text, p_day date, p_estimate bigint, p_actual bigint, p_replied boolean)
returns void
language sql
set search_path = public, pg_temp
as $$
  update public.chat_spend s
     set reserved_micros = greatest(0, s.reserved_micros - p_estimate),
         spent_micros = s.spent_micros + greatest(0, p_actual),
         replies = s.replies + case when p_replied then 1 else 0 end
   where s.day = p_day and s.scope in ('site', p_client);
$$;

revoke execute on function public.chat_reserve(text, bigint, bigint, bigint) from public;
revoke execute on function public.chat_settle(text, date, bigint, bigint, boolean) from public;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke all on public.chat_catalogue, public.chat_spend from %I', r);
      execute format('revoke execute on function public.chat_reserve(text, bigint, bigint, bigint) from %I', r);
      execute format('revoke execute on function public.chat_settle(text, date, bigint, bigint, boolean) from %I', r);
    end if;
  end loop;
end;
$$;
