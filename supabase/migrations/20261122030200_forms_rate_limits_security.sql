-- First-party forms, a fixed-window rate limiter, and the lock-down of everything for Supabase's API roles.

create table public.contact_messages (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  email text not null check (length(email) between 3 and 320),
  phone text check (length(phone) <= 50),
  subject text check (length(subject) <= 200),
  message text not null check (length(message) between 1 and 5000),
  source text check (length(source) <= 200),
  created_at timestamptz not null default now()
);

create table public.newsletter_subscribers (
  id uuid primary key default gen_random_uuid(),
  email text not null check (length(email) between 3 and 320),
  name text check (length(name) <= 200),
  source text check (length(source) <= 200),
  created_at timestamptz not null default now()
);
-- One subscription per address, whatever its capitalisation.
create unique index newsletter_subscribers_email_key on public.newsletter_subscribers (lower(email));

create table public.leads (
  id uuid primary key default gen_random_uuid(),
  name text not null check (length(name) between 1 and 200),
  email text not null check (length(email) between 3 and 320),
  phone text check (length(phone) <= 50),
  interest text check (length(interest) <= 200),
  source text check (length(source) <= 200),
  created_at timestamptz not null default now()
);

-- One row per key; the window restarts when a hit lands in a later window.
create table public.rate_limits (
  key text primary key check (length(key) between 1 and 300),
  window_start timestamptz not null,
  count integer not null check (count >= 0)
);

-- Counts a hit and answers in ONE statement (no read-then-write race): allowed, and the seconds until
-- the window ends when refused (0 when allowed).
create or replace function public.hit_rate_limit(p_key text, p_limit integer, p_window_seconds integer)
returns table (allowed boolean, retry_after integer)
language sql
set search_path = public, pg_temp
as $$
  insert into public.rate_limits as r (key, window_start, count)
  values (
    p_key,
    to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds),
    1
  )
  on conflict (key) do update
    set count = case when excluded.window_start > r.window_start then 1 else r.count + 1 end,
        window_start = greatest(r.window_start, excluded.window_start)
  returning
    r.count <= p_limit,
    case when r.count <= p_limit then 0
         else greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => p_window_seconds) - now()))))::integer
    end;
$$;

-- Row-level security on every table with no policy: Supabase's anon and authenticated roles see nothing.
-- The server connects as the owner (DATABASE_URL) and is the only reader and writer.
alter table public.media_transformations enable row level security;
alter table public.catalog_prices enable row level security;
alter table public.payments enable row level security;
alter table public.payment_items enable row level security;
alter table public.contact_messages enable row level security;
alter table public.newsletter_subscribers enable row level security;
alter table public.leads enable row level security;
alter table public.rate_limits enable row level security;

-- Functions are executable by PUBLIC by default and Supabase grants its API roles everything in public:
-- revoke, so nobody can call the checkout through the REST API.
revoke execute on function public.demo_checkout(jsonb, text) from public;
revoke execute on function public.hit_rate_limit(text, integer, integer) from public;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke all on all tables in schema public from %I', r);
      execute format('revoke all on all sequences in schema public from %I', r);
      execute format('revoke execute on function public.demo_checkout(jsonb, text) from %I', r);
      execute format('revoke execute on function public.hit_rate_limit(text, integer, integer) from %I', r);
      execute format('revoke execute on function public.set_updated_at() from %I', r);
    end if;
  end loop;
end;
$$;

-- On Supabase, create the private bucket for uploads and results (the storage adapter also creates it
-- when missing). 15 MiB matches the browser upload cap.
do $$
begin
  if to_regclass('storage.buckets') is not null then
    insert into storage.buckets (id, name, public, file_size_limit)
    values ('image_processing', 'image_processing', false, 15728640)
    on conflict (id) do nothing;
  end if;
end;
$$;
