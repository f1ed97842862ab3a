-- Packages that deliver: a paid image package becomes an allowance (images in all and used, an expiry, the order it
-- belongs to) that the buyer spends in the tool through a secret link, one image per distinct result, alone or in
-- batches that live here so a closed tab loses nothing. See netlify/lib/packages/README.md and
-- netlify/lib/batches/README.md.

-- ——— What each package gives ———

-- Written from src/lib/catalog.ts (`images` of each package, PACKAGE_VALID_MONTHS); tests/unit/packages/terms.test.ts
-- fails while they differ. Read when a package is paid for: a later change never alters an allowance already given.
create table public.package_terms (
  package_id text primary key check (package_id ~ '^[a-z0-9-]+$'),
  images integer not null check (images between 1 and 100000),
  valid_months integer not null check (valid_months between 1 and 120)
);
insert into public.package_terms (package_id, images, valid_months) values
  ('basic-restoration', 100, 12),
  ('premium-restoration', 250, 12),
  ('ai-creation', 100, 12),
  ('family-package', 500, 12);

-- ——— Allowances ———

-- One per package line sold (`payment_item_id` unique: made once, whichever code completed the payment).
-- `images_used` is changed by allowance_take only. `revoked_at`: the payment was refunded or disputed, what is left is
-- gone (what was taken stays the buyer's). `link_version` is signed into the buyer's link: raising it revokes the
-- link (a new one is sent), never the images.
create table public.package_allowances (
  id uuid primary key default gen_random_uuid(),
  payment_id uuid not null references public.payments (id) on delete cascade,
  payment_item_id bigint not null unique references public.payment_items (id) on delete cascade,
  package_id text not null,
  images_total integer not null check (images_total > 0),
  images_used integer not null default 0,
  expires_at timestamptz not null,
  revoked_at timestamptz,
  revoked_reason text check (revoked_reason in ('refunded', 'disputed')),
  link_version integer not null default 1 check (link_version > 0),
  created_at timestamptz not null default now(),
  constraint package_allowances_used_within check (images_used between 0 and images_total)
);
create index package_allowances_payment_idx on public.package_allowances (payment_id);

-- The results an allowance took, one row per distinct result: re-renders of the same photo (heal, hints, reference)
-- are the same row, so they never count again; a result is taken by one allowance at most.
create table public.allowance_takes (
  transformation_id uuid primary key references public.media_transformations (id) on delete cascade,
  allowance_id uuid not null references public.package_allowances (id) on delete cascade,
  taken_at timestamptz not null default now()
);
create index allowance_takes_allowance_idx on public.allowance_takes (allowance_id, taken_at);

-- The allowance whose link is a key to an item (tool/ownership.ts `isOwner`): a photo of its batch, or a result it took.
alter table public.media_transformations
  add column allowance_id uuid references public.package_allowances (id) on delete set null;
create index media_transformations_allowance_idx on public.media_transformations (allowance_id) where allowance_id is not null;

-- A package line sold (the demo checkout's insert, the Stripe webhook's release, the maintenance settling a lost
-- webhook, a late payment completing a failed order) on a completed payment: its allowance, once.
create or replace function public.package_allowance_on_sale()
returns trigger
language plpgsql
set search_path = public, pg_temp
as $$
begin
  insert into public.package_allowances (payment_id, payment_item_id, package_id, images_total, expires_at)
    select new.payment_id, new.id, new.package_id, t.images, now() + make_interval(months => t.valid_months)
      from public.payments p join public.package_terms t on t.package_id = new.package_id
     where p.id = new.payment_id and p.status = 'completed'
    on conflict (payment_item_id) do nothing;
  return null;
end;
$$;
create trigger payment_items_package_allowance after insert or update of sold on public.payment_items
  for each row when (new.package_id is not null and new.sold)
  execute function public.package_allowance_on_sale();

-- A payment refunded or disputed: what is left of its allowances is revoked in the same transaction.
create or replace function public.package_allowance_on_revoke()
returns trigger
language plpgsql
set search_path = public, pg_temp
as $$
begin
  update public.package_allowances set revoked_at = now(), revoked_reason = new.status
   where payment_id = new.id and revoked_at is null;
  return null;
end;
$$;
create trigger payments_package_allowance_revoke after update of status on public.payments
  for each row when (new.status in ('refunded', 'disputed') and old.status is distinct from new.status)
  execute function public.package_allowance_on_revoke();

-- The one place the count changes. Takes a finished image result for the allowance: 'taken' (one image used), or
-- 'already' when this allowance took it before (free: a re-download, a re-render). Refusals are LU errors whose
-- DETAIL names the reason for the server's message: not-found, not-ready (a failed or unfinished job never takes an
-- image), not-image, purchased, other-package, revoked, expired, used-up. Rows are locked item first, then the
-- allowance, as the Stripe webhook locks them (items, then the payment's allowances): two takes racing for the
-- last image wait on the allowance row, and the second finds it used up.
create or replace function public.allowance_take(p_allowance uuid, p_transformation uuid)
returns table (outcome text, images_used integer, images_total integer)
language plpgsql
set search_path = public, pg_temp
as $$
declare
  v_kind text;
  v_status text;
  v_purchased boolean;
  v_a public.package_allowances%rowtype;
  v_taken uuid;
begin
  select m.kind, m.status, m.purchased into v_kind, v_status, v_purchased
    from public.media_transformations m where m.id = p_transformation for update;
  if not found then
    raise exception 'Item not found' using errcode = 'LU404', detail = 'not-found';
  end if;
  select * into v_a from public.package_allowances a where a.id = p_allowance for update;
  if not found then
    raise exception 'Package not found' using errcode = 'LU404', detail = 'not-found';
  end if;
  select t.allowance_id into v_taken from public.allowance_takes t where t.transformation_id = p_transformation;
  if found then
    if v_taken = p_allowance then
      return query select 'already'::text, v_a.images_used, v_a.images_total;
      return;
    end if;
    raise exception 'Taken by another package' using errcode = 'LU409', detail = 'other-package';
  end if;
  if v_a.revoked_at is not null then
    raise exception 'Package revoked' using errcode = 'LU409', detail = 'revoked';
  end if;
  if v_a.expires_at <= now() then
    raise exception 'Package expired' using errcode = 'LU409', detail = 'expired';
  end if;
  if v_kind <> 'image' then
    raise exception 'Only images' using errcode = 'LU400', detail = 'not-image';
  end if;
  if v_status <> 'completed' then
    raise exception 'Not ready' using errcode = 'LU409', detail = 'not-ready';
  end if;
  if v_purchased then
    raise exception 'Already purchased' using errcode = 'LU409', detail = 'purchased';
  end if;
  if v_a.images_used >= v_a.images_total then
    raise exception 'No images left' using errcode = 'LU409', detail = 'used-up';
  end if;
  insert into public.allowance_takes (transformation_id, allowance_id) values (p_transformation, p_allowance);
  update public.package_allowances a set images_used = a.images_used + 1 where a.id = p_allowance;
  update public.media_transformations m set purchased = true, allowance_id = p_allowance where m.id = p_transformation;
  return query select 'taken'::text, v_a.images_used + 1, v_a.images_total;
end;
$$;

-- ——— Batches ———

-- Many photos at once. A batch belongs to an allowance (its link is the key) or, without a package, to the browser
-- that made it (its owner secret's SHA-256, as items: netlify/lib/tool/ownership.ts).
create table public.tool_batches (
  id uuid primary key default gen_random_uuid(),
  allowance_id uuid references public.package_allowances (id) on delete cascade,
  owner_secret_hash text check (owner_secret_hash ~ '^[0-9a-f]{64}$'),
  model text not null check (length(model) between 1 and 100),
  prompt text check (length(prompt) <= 1000),
  created_at timestamptz not null default now(),
  constraint tool_batches_one_owner check (num_nonnulls(allowance_id, owner_secret_hash) = 1)
);
create index tool_batches_allowance_idx on public.tool_batches (allowance_id, created_at) where allowance_id is not null;

-- One row per photo: waiting (uploaded, `upload_path` kept until its job has stored it) → working (claimed under a
-- lease by batch_claim) → done (its `transformation_id`; `taken` when its allowance took it, else `note` says why
-- not) | failed (`error`, the buyer's Retry puts it back to waiting).
create table public.batch_items (
  id uuid primary key default gen_random_uuid(),
  batch_id uuid not null references public.tool_batches (id) on delete cascade,
  position integer not null check (position >= 0),
  name text not null check (length(name) between 1 and 255),
  -- 'choosing': a scan of several prints whose split awaits the buyer (not run); 'held': one of its prints, waiting
  -- for that choice (it holds a place in the package); 'split': a scan the buyer had split (its prints are the work).
  status text not null default 'waiting' check (status in ('waiting', 'working', 'done', 'failed', 'choosing', 'held', 'split')),
  -- A print cut from a scan of the same batch; the scan's `split` says what the splitter found (netlify/lib/batches/scans.ts).
  scan_of uuid references public.batch_items (id) on delete cascade,
  split jsonb,
  upload_path text check (length(upload_path) <= 512),
  transformation_id uuid references public.media_transformations (id) on delete set null,
  taken boolean not null default false,
  note text check (length(note) <= 500),
  error text check (length(error) <= 1000),
  attempts integer not null default 0 check (attempts >= 0),
  lease_until timestamptz,
  result_bytes bigint check (result_bytes >= 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (batch_id, position)
);
create index batch_items_queue_idx on public.batch_items (status, created_at) where status in ('waiting', 'working');
create trigger batch_items_updated_at before update on public.batch_items
  for each row execute function public.set_updated_at();

-- Claims up to `p_site_max` working photos on the whole site, at most `p_owner_max` per allowance (or batch without
-- one), round robin: each pick goes to the owner with the fewest photos working, oldest first, so one family's 500
-- photos never starve another buyer's ten. An allowance's photo starts only while its images left exceed its photos
-- working; once nothing is left (used up, refunded, expired) its waiting photos fail with the reason. A lease that ran
-- out (the function was stopped) puts the photo back to waiting, or fails it after 3 attempts. One claim at a time
-- (advisory lock). Returns the claimed items.
create or replace function public.batch_claim(p_site_max integer, p_owner_max integer, p_lease_seconds integer)
returns setof uuid
language plpgsql
set search_path = public, pg_temp
as $$
declare
  v_id uuid;
  v_free integer;
begin
  perform pg_advisory_xact_lock(hashtextextended('batch-claim', 0));
  update public.batch_items i
     set status = case when i.attempts >= 3 then 'failed' else 'waiting' end,
         error = case when i.attempts >= 3 then 'Processing stopped responding three times. Please try again.' else i.error end,
         lease_until = null
   where i.status = 'working' and i.lease_until < now();
  update public.batch_items i
     set status = 'failed',
         error = case when a.revoked_at is not null then 'revoked' when a.expires_at <= now() then 'expired' else 'used-up' end
    from public.tool_batches b join public.package_allowances a on a.id = b.allowance_id
   where i.batch_id = b.id and i.status = 'waiting'
     and (a.revoked_at is not null or a.expires_at <= now() or a.images_used >= a.images_total);
  v_free := p_site_max - (select count(*) from public.batch_items i where i.status = 'working');
  while v_free > 0 loop
    with working as (
      select coalesce(b.allowance_id, b.id) as owner, count(*) as n
        from public.batch_items i join public.tool_batches b on b.id = i.batch_id
       where i.status = 'working' group by 1
    )
    select i.id into v_id
      from public.batch_items i
      join public.tool_batches b on b.id = i.batch_id
      left join public.package_allowances a on a.id = b.allowance_id
      left join working w on w.owner = coalesce(b.allowance_id, b.id)
     where i.status = 'waiting'
       and coalesce(w.n, 0) < p_owner_max
       and (a.id is null or a.images_used + coalesce(w.n, 0) < a.images_total)
     order by coalesce(w.n, 0), i.created_at, i.position
     limit 1;
    exit when v_id is null;
    update public.batch_items set status = 'working', attempts = attempts + 1, error = null,
           lease_until = now() + make_interval(secs => p_lease_seconds)
     where id = v_id;
    return next v_id;
    v_id := null;
    v_free := v_free - 1;
  end loop;
end;
$$;

-- ——— The outbox: the package link sent again ———

alter table public.outbox_events drop constraint outbox_events_kind_check;
alter table public.outbox_events add constraint outbox_events_kind_check check (kind in (
  'contact.message', 'lead.created', 'newsletter.confirm', 'newsletter.confirmed',
  'order.paid', 'order.refunded', 'order.disputed', 'order.item_refunded', 'job.failed_after_payment',
  'doubts.digest', 'package.link'));

create or replace function public.outbox_emit(p_kind text, p_ref text, p_dedupe_key text, p_payload jsonb default '{}'::jsonb)
returns uuid
language plpgsql
set search_path = public, pg_temp
as $$
declare
  v_id uuid;
begin
  insert into public.outbox_events (kind, ref, dedupe_key, payload)
    values (p_kind, p_ref, p_dedupe_key, coalesce(p_payload, '{}'::jsonb))
    on conflict (dedupe_key) do nothing
    returning id into v_id;
  if v_id is null then
    return null;
  end if;
  insert into public.outbox_deliveries (event_id, channel)
    select v_id, c from unnest(case p_kind
      -- The visitor's copy: a receipt, the free guide, the newsletter confirmation, the buyer's order confirmation.
      when 'contact.message' then array['owner-email', 'owner-webhook', 'visitor-email']
      when 'lead.created' then array['owner-email', 'owner-webhook', 'visitor-email']
      when 'newsletter.confirm' then array['visitor-email']
      when 'order.paid' then array['owner-email', 'owner-webhook', 'visitor-email']
      -- "Lost your link?": the buyer's package links, to the order's address only.
      when 'package.link' then array['visitor-email']
      else array['owner-email', 'owner-webhook']
    end) as c;
  return v_id;
end;
$$;

-- ——— Lock-down, as every table: only the server reads or writes ———

alter table public.package_terms enable row level security;
alter table public.package_allowances enable row level security;
alter table public.allowance_takes enable row level security;
alter table public.tool_batches enable row level security;
alter table public.batch_items enable row level security;

revoke execute on function public.package_allowance_on_sale() from public;
revoke execute on function public.package_allowance_on_revoke() from public;
revoke execute on function public.allowance_take(uuid, uuid) from public;
revoke execute on function public.batch_claim(integer, integer, integer) from public;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke all on public.package_terms, public.package_allowances, public.allowance_takes, public.tool_batches, public.batch_items from %I', r);
      execute format('revoke execute on function public.package_allowance_on_sale() from %I', r);
      execute format('revoke execute on function public.package_allowance_on_revoke() from %I', r);
      execute format('revoke execute on function public.allowance_take(uuid, uuid) from %I', r);
      execute format('revoke execute on function public.batch_claim(integer, integer, integer) from %I', r);
    end if;
  end loop;
end;
$$;
