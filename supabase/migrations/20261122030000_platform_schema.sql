-- Platform schema: media transformations, demo payments, the price list the checkout charges from.
-- Runs unchanged on Supabase (supabase db push), Debian PostgreSQL and the embedded PGlite.

create or replace function public.set_updated_at() returns trigger
language plpgsql
set search_path = public, pg_temp
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;

create table public.media_transformations (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in ('image', 'video')),
  status text not null default 'queued' check (status in ('queued', 'processing', 'completed', 'failed')),
  progress double precision not null default 0 check (progress >= 0 and progress <= 1),
  model text,
  prompt text,
  mode text,
  original_path text,
  result_path text,
  preview_path text,
  hints jsonb not null default '{}'::jsonb,
  purchased boolean not null default false,
  error text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Only a finished result with a clean file can be sold and downloaded.
  constraint media_transformations_completed_has_result check (status <> 'completed' or result_path is not null)
);

create index media_transformations_active_idx on public.media_transformations (updated_at)
  where status in ('queued', 'processing');

create trigger media_transformations_updated_at
  before update on public.media_transformations
  for each row execute function public.set_updated_at();

-- What the checkout charges. Mirrors src/lib/catalog.ts (ITEM_PRICES, IMAGE_PACKAGES); a test keeps them equal.
create table public.catalog_prices (
  item_type text not null check (item_type in ('transformation', 'package')),
  item_key text not null,
  name text not null,
  price numeric(10, 2) not null check (price >= 0),
  primary key (item_type, item_key)
);

insert into public.catalog_prices (item_type, item_key, name, price) values
  ('transformation', 'image', 'Restored & Colorized Image', 1.99),
  ('transformation', 'video', 'Generated Video', 4.99),
  ('package', 'basic-restoration', 'Basic Restoration', 40.00),
  ('package', 'premium-restoration', 'Premium Restoration', 99.00),
  ('package', 'ai-creation', 'AI Creation', 79.00),
  ('package', 'family-package', 'Family Package', 299.00);

create table public.payments (
  id uuid primary key default gen_random_uuid(),
  amount numeric(10, 2) not null check (amount >= 0),
  currency text not null default 'USD' check (currency ~ '^[A-Z]{3}$'),
  status text not null check (status in ('pending', 'completed', 'failed', 'refunded')),
  payment_method text not null,
  idempotency_key text not null unique check (length(idempotency_key) between 8 and 200),
  created_at timestamptz not null default now()
);

create table public.payment_items (
  id bigint generated always as identity primary key,
  payment_id uuid not null references public.payments (id) on delete cascade,
  position smallint not null,
  transformation_id uuid references public.media_transformations (id),
  package_id text,
  price numeric(10, 2) not null check (price >= 0),
  constraint payment_items_one_target check (num_nonnulls(transformation_id, package_id) = 1),
  unique (payment_id, position)
);

-- A transformation is sold once, ever: the last line of defence behind the checkout's own checks.
create unique index payment_items_transformation_once on public.payment_items (transformation_id)
  where transformation_id is not null;
create index payment_items_payment_idx on public.payment_items (payment_id);
