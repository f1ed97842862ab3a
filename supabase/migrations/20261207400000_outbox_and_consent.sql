-- The owner hears of every lead and order: a durable outbox of events and their deliveries, written in the same
-- transaction as the row they are about; newsletter consent with double opt-in; submissions the spam guard doubts,
-- kept for a daily digest; the team's one-time sign-in links. See netlify/lib/outbox/README.md.

-- ——— The outbox ———

-- One row per thing that happened. `dedupe_key` makes an event exactly-once whoever emits it (a trigger, a retried
-- request, the demo checkout and the Stripe webhook alike). `ref` names the row it is about (a message, a lead, a
-- subscriber, a payment, a job, a digest's day): the notice is written from that row when it is sent, so no copy of
-- a visitor's details is kept here.
create table public.outbox_events (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (kind in (
    'contact.message', 'lead.created', 'newsletter.confirm', 'newsletter.confirmed',
    'order.paid', 'order.refunded', 'order.disputed', 'order.item_refunded', 'job.failed_after_payment',
    'doubts.digest')),
  ref text not null check (length(ref) between 1 and 200),
  dedupe_key text not null unique check (length(dedupe_key) between 1 and 300),
  payload jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now()
);
create index outbox_events_created_idx on public.outbox_events (created_at);

-- One row per event and channel: its own attempts, error, next attempt and time sent. A worker claims due rows
-- with FOR UPDATE SKIP LOCKED and marks them `sending` under a lease (`locked_until`): another worker skips them
-- until the lease runs out (a worker that died), and an outcome is recorded only by the claim that holds the
-- attempt number, so two workers never send one delivery twice.
create table public.outbox_deliveries (
  id uuid primary key default gen_random_uuid(),
  event_id uuid not null references public.outbox_events (id) on delete cascade,
  channel text not null check (channel in ('owner-email', 'owner-webhook', 'visitor-email')),
  status text not null default 'pending' check (status in ('pending', 'sending', 'sent', 'skipped', 'dead')),
  attempts integer not null default 0 check (attempts >= 0),
  -- The retry clock: a delivery is given up three days after it (reset when the team sends it again).
  retry_since timestamptz not null default now(),
  last_attempt_at timestamptz,
  next_attempt_at timestamptz not null default now(),
  locked_until timestamptz,
  last_error text check (length(last_error) <= 1000),
  detail text check (length(detail) <= 500),
  sent_at timestamptz,
  created_at timestamptz not null default now(),
  unique (event_id, channel)
);
create index outbox_deliveries_due_idx on public.outbox_deliveries (next_attempt_at) where status in ('pending', 'sending');
create index outbox_deliveries_failing_idx on public.outbox_deliveries (attempts) where status in ('pending', 'sending', 'dead');

-- Emits an event and its deliveries, once per dedupe key: null when the key was already used. Which channels an
-- event goes to is decided here, one place for the triggers and the server alone.
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
      else array['owner-email', 'owner-webhook']
    end) as c;
  return v_id;
end;
$$;

-- A payment that becomes completed (the demo checkout's insert, the Stripe webhook, the maintenance settling a lost
-- webhook, a late payment for a failed order), refunded or disputed: the event is written in the same transaction
-- whichever code moved it, and once.
create or replace function public.outbox_payment_events()
returns trigger
language plpgsql
set search_path = public, pg_temp
as $$
begin
  if new.status = 'completed' and (tg_op = 'INSERT' or old.status is distinct from 'completed') then
    perform public.outbox_emit('order.paid', new.id::text, 'order.paid:' || new.id::text);
  elsif tg_op = 'UPDATE' and new.status in ('refunded', 'disputed') and old.status is distinct from new.status then
    perform public.outbox_emit('order.' || new.status, new.id::text, 'order.' || new.status || ':' || new.id::text,
      jsonb_build_object('from', old.status));
  end if;
  return null;
end;
$$;
create trigger payments_outbox after insert or update of status on public.payments
  for each row execute function public.outbox_payment_events();

-- A duplicate item's share refunded (one refund may cover several lines: one event per refund).
create or replace function public.outbox_item_refund_events()
returns trigger
language plpgsql
set search_path = public, pg_temp
as $$
begin
  perform public.outbox_emit('order.item_refunded', new.payment_id::text, 'order.item_refunded:' || new.refund_id,
    jsonb_build_object('refundId', new.refund_id));
  return null;
end;
$$;
create trigger payment_items_outbox after update of refund_id on public.payment_items
  for each row when (old.refund_id is null and new.refund_id is not null)
  execute function public.outbox_item_refund_events();

-- A job that fails once it is paid for (a prepaid allowance's job, a re-render): the team has to step in.
create or replace function public.outbox_job_events()
returns trigger
language plpgsql
set search_path = public, pg_temp
as $$
begin
  perform public.outbox_emit('job.failed_after_payment', new.id::text, 'job.failed_after_payment:' || new.id::text,
    jsonb_build_object('kind', new.kind));
  return null;
end;
$$;
create trigger media_transformations_outbox after update of status on public.media_transformations
  for each row when (new.status = 'failed' and old.status is distinct from 'failed' and new.purchased)
  execute function public.outbox_job_events();

-- ——— Submissions the spam guard doubts ———

-- A filled honeypot is still answered like a success, but kept here (fields capped by the server) and listed in
-- the next day's digest instead of vanishing: a real person caught by the guard is not lost.
create table public.form_doubts (
  id uuid primary key default gen_random_uuid(),
  form text not null check (form in ('contact', 'leads', 'newsletter')),
  reason text not null check (length(reason) between 1 and 200),
  fields jsonb not null,
  client text check (length(client) <= 100),
  created_at timestamptz not null default now(),
  digest_event_id uuid references public.outbox_events (id) on delete set null
);
create index form_doubts_undigested_idx on public.form_doubts (created_at) where digest_event_id is null;

-- The digest of the doubts from before `p_now`'s UTC day, once per day (the event's dedupe key is the day): null
-- when there is nothing to digest or the day's digest exists.
create or replace function public.outbox_digest_doubts(p_now timestamptz)
returns uuid
language plpgsql
set search_path = public, pg_temp
as $$
declare
  v_day date := (p_now at time zone 'utc')::date;
  v_start timestamptz := (v_day::timestamp at time zone 'utc');
  v_id uuid;
begin
  if not exists (select 1 from public.form_doubts d where d.digest_event_id is null and d.created_at < v_start) then
    return null;
  end if;
  v_id := public.outbox_emit('doubts.digest', v_day::text, 'doubts.digest:' || v_day::text);
  if v_id is null then
    return null;
  end if;
  update public.form_doubts d set digest_event_id = v_id where d.digest_event_id is null and d.created_at < v_start;
  return v_id;
end;
$$;

-- ——— Newsletter consent (double opt-in) ———

-- Addresses collected before this migration have no proof of consent: they stay `pending` (never confirmed, never
-- exported) until their owner signs up again and confirms.
alter table public.newsletter_subscribers
  add column status text not null default 'pending' check (status in ('pending', 'confirmed', 'unsubscribed')),
  -- The wording shown beside the sign-up, when it was given and a hash of the address it came from (clientId).
  add column consent_text text check (length(consent_text) <= 1000),
  add column consent_at timestamptz,
  add column consent_client text check (length(consent_client) <= 100),
  -- The confirmation (the POST behind the e-mail's link) and where it came from.
  add column confirmed_at timestamptz,
  add column confirmed_client text check (length(confirmed_client) <= 100),
  add column unsubscribed_at timestamptz;
create index newsletter_subscribers_status_idx on public.newsletter_subscribers (status, confirmed_at);

-- The lead form's free guide (a page of src/content/guides) and whether its newsletter box was ticked.
alter table public.leads
  add column guide text check (guide ~ '^[a-z0-9]+(-[a-z0-9]+)*$' and length(guide) <= 100),
  add column newsletter boolean not null default false;

-- ——— The team's sign-in ———

-- One-time sign-in links for the inbox (/admin/inbox): the hash of the token only, short-lived, used once.
create table public.operator_sign_ins (
  token_hash text primary key check (length(token_hash) = 64),
  email text not null check (length(email) between 3 and 320),
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index operator_sign_ins_created_idx on public.operator_sign_ins (created_at);

-- ——— Lock-down, as every table: only the server reads or writes ———

alter table public.outbox_events enable row level security;
alter table public.outbox_deliveries enable row level security;
alter table public.form_doubts enable row level security;
alter table public.operator_sign_ins enable row level security;

revoke execute on function public.outbox_emit(text, text, text, jsonb) from public;
revoke execute on function public.outbox_digest_doubts(timestamptz) from public;
revoke execute on function public.outbox_payment_events() from public;
revoke execute on function public.outbox_item_refund_events() from public;
revoke execute on function public.outbox_job_events() from public;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke all on public.outbox_events, public.outbox_deliveries, public.form_doubts, public.operator_sign_ins from %I', r);
      execute format('revoke execute on function public.outbox_emit(text, text, text, jsonb) from %I', r);
      execute format('revoke execute on function public.outbox_digest_doubts(timestamptz) from %I', r);
      execute format('revoke execute on function public.outbox_payment_events() from %I', r);
      execute format('revoke execute on function public.outbox_item_refund_events() from %I', r);
      execute format('revoke execute on function public.outbox_job_events() from %I', r);
    end if;
  end loop;
end;
$$;
