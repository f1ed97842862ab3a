-- The database schema as the migrations in supabase/migrations leave it: generated, do not edit.
-- Regenerate with `npm run db:schema` after adding a migration (a test fails while this file is stale).
-- Tables, views, functions, triggers, policies and grants, each sorted by name.

create table public.allowance_takes (
  transformation_id uuid not null,
  allowance_id uuid not null,
  taken_at timestamp with time zone not null default now(),
  constraint allowance_takes_allowance_id_fkey FOREIGN KEY (allowance_id) REFERENCES package_allowances(id) ON DELETE CASCADE,
  constraint allowance_takes_transformation_id_fkey FOREIGN KEY (transformation_id) REFERENCES media_transformations(id) ON DELETE CASCADE,
  constraint allowance_takes_pkey PRIMARY KEY (transformation_id)
);
CREATE INDEX allowance_takes_allowance_idx ON public.allowance_takes USING btree (allowance_id, taken_at);
alter table public.allowance_takes enable row level security;

create table public.batch_items (
  id uuid not null default gen_random_uuid(),
  batch_id uuid not null,
  position integer not null,
  name text not null,
  status text not null default 'waiting'::text,
  scan_of uuid,
  split jsonb,
  upload_path text,
  transformation_id uuid,
  taken boolean not null default false,
  note text,
  error text,
  attempts integer not null default 0,
  lease_until timestamp with time zone,
  result_bytes bigint,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  constraint batch_items_attempts_check CHECK ((attempts >= 0)),
  constraint batch_items_error_check CHECK ((length(error) <= 1000)),
  constraint batch_items_name_check CHECK (((length(name) >= 1) AND (length(name) <= 255))),
  constraint batch_items_note_check CHECK ((length(note) <= 500)),
  constraint batch_items_position_check CHECK (("position" >= 0)),
  constraint batch_items_result_bytes_check CHECK ((result_bytes >= 0)),
  constraint batch_items_status_check CHECK ((status = ANY (ARRAY['waiting'::text, 'working'::text, 'done'::text, 'failed'::text, 'choosing'::text, 'held'::text, 'split'::text]))),
  constraint batch_items_upload_path_check CHECK ((length(upload_path) <= 512)),
  constraint batch_items_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES tool_batches(id) ON DELETE CASCADE,
  constraint batch_items_scan_of_fkey FOREIGN KEY (scan_of) REFERENCES batch_items(id) ON DELETE CASCADE,
  constraint batch_items_transformation_id_fkey FOREIGN KEY (transformation_id) REFERENCES media_transformations(id) ON DELETE SET NULL,
  constraint batch_items_pkey PRIMARY KEY (id),
  constraint batch_items_batch_id_position_key UNIQUE (batch_id, "position")
);
CREATE INDEX batch_items_queue_idx ON public.batch_items USING btree (status, created_at) WHERE (status = ANY (ARRAY['waiting'::text, 'working'::text]));
alter table public.batch_items enable row level security;

create table public.catalog_prices (
  item_type text not null,
  item_key text not null,
  name text not null,
  price numeric(10,2) not null,
  constraint catalog_prices_item_type_check CHECK ((item_type = ANY (ARRAY['transformation'::text, 'package'::text]))),
  constraint catalog_prices_price_check CHECK ((price >= (0)::numeric)),
  constraint catalog_prices_pkey PRIMARY KEY (item_type, item_key)
);
alter table public.catalog_prices enable row level security;

create table public.chat_catalogue (
  base_url text not null,
  entries jsonb not null,
  fetched_at timestamp with time zone not null default now(),
  constraint chat_catalogue_pkey PRIMARY KEY (base_url)
);
alter table public.chat_catalogue enable row level security;

create table public.chat_spend (
  day date not null,
  scope text not null,
  reserved_micros bigint not null default 0,
  spent_micros bigint not null default 0,
  replies integer not null default 0,
  reserved_tokens bigint not null default 0,
  spent_tokens bigint not null default 0,
  requests integer not null default 0,
  constraint chat_spend_requests_check CHECK ((requests >= 0)),
  constraint chat_spend_reserved_micros_check CHECK ((reserved_micros >= 0)),
  constraint chat_spend_reserved_tokens_check CHECK ((reserved_tokens >= 0)),
  constraint chat_spend_spent_micros_check CHECK ((spent_micros >= 0)),
  constraint chat_spend_spent_tokens_check CHECK ((spent_tokens >= 0)),
  constraint chat_spend_pkey PRIMARY KEY (day, scope)
);
alter table public.chat_spend enable row level security;

create table public.contact_messages (
  id uuid not null default gen_random_uuid(),
  name text not null,
  email text not null,
  phone text,
  subject text,
  message text not null,
  source text,
  created_at timestamp with time zone not null default now(),
  constraint contact_messages_email_check CHECK (((length(email) >= 3) AND (length(email) <= 320))),
  constraint contact_messages_message_check CHECK (((length(message) >= 1) AND (length(message) <= 5000))),
  constraint contact_messages_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  constraint contact_messages_phone_check CHECK ((length(phone) <= 50)),
  constraint contact_messages_source_check CHECK ((length(source) <= 200)),
  constraint contact_messages_subject_check CHECK ((length(subject) <= 200)),
  constraint contact_messages_pkey PRIMARY KEY (id)
);
alter table public.contact_messages enable row level security;

create table public.database_role (
  only_row boolean not null default true,
  role text not null,
  declared_at timestamp with time zone not null default now(),
  constraint database_role_only_row_check CHECK (only_row),
  constraint database_role_role_check CHECK ((role = ANY (ARRAY['production'::text, 'non-production'::text]))),
  constraint database_role_pkey PRIMARY KEY (only_row)
);
alter table public.database_role enable row level security;

create table public.form_doubts (
  id uuid not null default gen_random_uuid(),
  form text not null,
  reason text not null,
  fields jsonb not null,
  client text,
  created_at timestamp with time zone not null default now(),
  digest_event_id uuid,
  constraint form_doubts_client_check CHECK ((length(client) <= 100)),
  constraint form_doubts_form_check CHECK ((form = ANY (ARRAY['contact'::text, 'leads'::text, 'newsletter'::text]))),
  constraint form_doubts_reason_check CHECK (((length(reason) >= 1) AND (length(reason) <= 200))),
  constraint form_doubts_digest_event_id_fkey FOREIGN KEY (digest_event_id) REFERENCES outbox_events(id) ON DELETE SET NULL,
  constraint form_doubts_pkey PRIMARY KEY (id)
);
CREATE INDEX form_doubts_undigested_idx ON public.form_doubts USING btree (created_at) WHERE (digest_event_id IS NULL);
alter table public.form_doubts enable row level security;

create table public.leads (
  id uuid not null default gen_random_uuid(),
  name text not null,
  email text not null,
  phone text,
  interest text,
  source text,
  created_at timestamp with time zone not null default now(),
  guide text,
  newsletter boolean not null default false,
  constraint leads_email_check CHECK (((length(email) >= 3) AND (length(email) <= 320))),
  constraint leads_guide_check CHECK (((guide ~ '^[a-z0-9]+(-[a-z0-9]+)*$'::text) AND (length(guide) <= 100))),
  constraint leads_interest_check CHECK ((length(interest) <= 200)),
  constraint leads_name_check CHECK (((length(name) >= 1) AND (length(name) <= 200))),
  constraint leads_phone_check CHECK ((length(phone) <= 50)),
  constraint leads_source_check CHECK ((length(source) <= 200)),
  constraint leads_pkey PRIMARY KEY (id)
);
alter table public.leads enable row level security;

create table public.media_transformations (
  id uuid not null default gen_random_uuid(),
  kind text not null,
  status text not null default 'queued'::text,
  progress double precision not null default 0,
  model text,
  prompt text,
  mode text,
  original_path text,
  result_path text,
  preview_path text,
  hints jsonb not null default '{}'::jsonb,
  purchased boolean not null default false,
  error text,
  created_at timestamp with time zone not null default now(),
  updated_at timestamp with time zone not null default now(),
  price_key text generated always as (
CASE
    WHEN ((kind = 'video'::text) AND ((hints ->> 'resolution'::text) = '1080p'::text)) THEN 'video-1080p'::text
    ELSE kind
END) stored,
  owner_secret_hash text,
  allowance_id uuid,
  constraint media_transformations_completed_has_result CHECK (((status <> 'completed'::text) OR (result_path IS NOT NULL))),
  constraint media_transformations_kind_check CHECK ((kind = ANY (ARRAY['image'::text, 'video'::text]))),
  constraint media_transformations_owner_secret_hash_hex CHECK ((owner_secret_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint media_transformations_progress_check CHECK (((progress >= (0)::double precision) AND (progress <= (1)::double precision))),
  constraint media_transformations_status_check CHECK ((status = ANY (ARRAY['queued'::text, 'processing'::text, 'completed'::text, 'failed'::text]))),
  constraint media_transformations_allowance_id_fkey FOREIGN KEY (allowance_id) REFERENCES package_allowances(id) ON DELETE SET NULL,
  constraint media_transformations_pkey PRIMARY KEY (id)
);
CREATE INDEX media_transformations_active_idx ON public.media_transformations USING btree (updated_at) WHERE (status = ANY (ARRAY['queued'::text, 'processing'::text]));
CREATE INDEX media_transformations_allowance_idx ON public.media_transformations USING btree (allowance_id) WHERE (allowance_id IS NOT NULL);
alter table public.media_transformations enable row level security;

create table public.newsletter_subscribers (
  id uuid not null default gen_random_uuid(),
  email text not null,
  name text,
  source text,
  created_at timestamp with time zone not null default now(),
  status text not null default 'pending'::text,
  consent_text text,
  consent_at timestamp with time zone,
  consent_client text,
  confirmed_at timestamp with time zone,
  confirmed_client text,
  unsubscribed_at timestamp with time zone,
  constraint newsletter_subscribers_confirmed_client_check CHECK ((length(confirmed_client) <= 100)),
  constraint newsletter_subscribers_consent_client_check CHECK ((length(consent_client) <= 100)),
  constraint newsletter_subscribers_consent_text_check CHECK ((length(consent_text) <= 1000)),
  constraint newsletter_subscribers_email_check CHECK (((length(email) >= 3) AND (length(email) <= 320))),
  constraint newsletter_subscribers_name_check CHECK ((length(name) <= 200)),
  constraint newsletter_subscribers_source_check CHECK ((length(source) <= 200)),
  constraint newsletter_subscribers_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'confirmed'::text, 'unsubscribed'::text]))),
  constraint newsletter_subscribers_pkey PRIMARY KEY (id)
);
CREATE UNIQUE INDEX newsletter_subscribers_email_key ON public.newsletter_subscribers USING btree (lower(email));
CREATE INDEX newsletter_subscribers_status_idx ON public.newsletter_subscribers USING btree (status, confirmed_at);
alter table public.newsletter_subscribers enable row level security;

create table public.operator_sign_ins (
  token_hash text not null,
  email text not null,
  created_at timestamp with time zone not null default now(),
  expires_at timestamp with time zone not null,
  used_at timestamp with time zone,
  constraint operator_sign_ins_email_check CHECK (((length(email) >= 3) AND (length(email) <= 320))),
  constraint operator_sign_ins_token_hash_check CHECK ((length(token_hash) = 64)),
  constraint operator_sign_ins_pkey PRIMARY KEY (token_hash)
);
CREATE INDEX operator_sign_ins_created_idx ON public.operator_sign_ins USING btree (created_at);
alter table public.operator_sign_ins enable row level security;

create table public.outbox_deliveries (
  id uuid not null default gen_random_uuid(),
  event_id uuid not null,
  channel text not null,
  status text not null default 'pending'::text,
  attempts integer not null default 0,
  retry_since timestamp with time zone not null default now(),
  last_attempt_at timestamp with time zone,
  next_attempt_at timestamp with time zone not null default now(),
  locked_until timestamp with time zone,
  last_error text,
  detail text,
  sent_at timestamp with time zone,
  created_at timestamp with time zone not null default now(),
  constraint outbox_deliveries_attempts_check CHECK ((attempts >= 0)),
  constraint outbox_deliveries_channel_check CHECK ((channel = ANY (ARRAY['owner-email'::text, 'owner-webhook'::text, 'visitor-email'::text]))),
  constraint outbox_deliveries_detail_check CHECK ((length(detail) <= 500)),
  constraint outbox_deliveries_last_error_check CHECK ((length(last_error) <= 1000)),
  constraint outbox_deliveries_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'sending'::text, 'sent'::text, 'skipped'::text, 'dead'::text]))),
  constraint outbox_deliveries_event_id_fkey FOREIGN KEY (event_id) REFERENCES outbox_events(id) ON DELETE CASCADE,
  constraint outbox_deliveries_pkey PRIMARY KEY (id),
  constraint outbox_deliveries_event_id_channel_key UNIQUE (event_id, channel)
);
CREATE INDEX outbox_deliveries_due_idx ON public.outbox_deliveries USING btree (next_attempt_at) WHERE (status = ANY (ARRAY['pending'::text, 'sending'::text]));
CREATE INDEX outbox_deliveries_failing_idx ON public.outbox_deliveries USING btree (attempts) WHERE (status = ANY (ARRAY['pending'::text, 'sending'::text, 'dead'::text]));
alter table public.outbox_deliveries enable row level security;

create table public.outbox_events (
  id uuid not null default gen_random_uuid(),
  kind text not null,
  ref text not null,
  dedupe_key text not null,
  payload jsonb not null default '{}'::jsonb,
  created_at timestamp with time zone not null default now(),
  constraint outbox_events_dedupe_key_check CHECK (((length(dedupe_key) >= 1) AND (length(dedupe_key) <= 300))),
  constraint outbox_events_kind_check CHECK ((kind = ANY (ARRAY['contact.message'::text, 'lead.created'::text, 'newsletter.confirm'::text, 'newsletter.confirmed'::text, 'order.paid'::text, 'order.refunded'::text, 'order.disputed'::text, 'order.item_refunded'::text, 'job.failed_after_payment'::text, 'doubts.digest'::text, 'package.link'::text]))),
  constraint outbox_events_ref_check CHECK (((length(ref) >= 1) AND (length(ref) <= 200))),
  constraint outbox_events_pkey PRIMARY KEY (id),
  constraint outbox_events_dedupe_key_key UNIQUE (dedupe_key)
);
CREATE INDEX outbox_events_created_idx ON public.outbox_events USING btree (created_at);
alter table public.outbox_events enable row level security;

create table public.package_allowances (
  id uuid not null default gen_random_uuid(),
  payment_id uuid not null,
  payment_item_id bigint not null,
  package_id text not null,
  images_total integer not null,
  images_used integer not null default 0,
  expires_at timestamp with time zone not null,
  revoked_at timestamp with time zone,
  revoked_reason text,
  link_version integer not null default 1,
  created_at timestamp with time zone not null default now(),
  constraint package_allowances_images_total_check CHECK ((images_total > 0)),
  constraint package_allowances_link_version_check CHECK ((link_version > 0)),
  constraint package_allowances_revoked_reason_check CHECK ((revoked_reason = ANY (ARRAY['refunded'::text, 'disputed'::text]))),
  constraint package_allowances_used_within CHECK (((images_used >= 0) AND (images_used <= images_total))),
  constraint package_allowances_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(id) ON DELETE CASCADE,
  constraint package_allowances_payment_item_id_fkey FOREIGN KEY (payment_item_id) REFERENCES payment_items(id) ON DELETE CASCADE,
  constraint package_allowances_pkey PRIMARY KEY (id),
  constraint package_allowances_payment_item_id_key UNIQUE (payment_item_id)
);
CREATE INDEX package_allowances_payment_idx ON public.package_allowances USING btree (payment_id);
alter table public.package_allowances enable row level security;

create table public.package_terms (
  package_id text not null,
  images integer not null,
  valid_months integer not null,
  constraint package_terms_images_check CHECK (((images >= 1) AND (images <= 100000))),
  constraint package_terms_package_id_check CHECK ((package_id ~ '^[a-z0-9-]+$'::text)),
  constraint package_terms_valid_months_check CHECK (((valid_months >= 1) AND (valid_months <= 120))),
  constraint package_terms_pkey PRIMARY KEY (package_id)
);
alter table public.package_terms enable row level security;

create table public.payment_items (
  id bigint generated always as identity not null,
  payment_id uuid not null,
  position smallint not null,
  transformation_id uuid,
  package_id text,
  price numeric(10,2) not null,
  sold boolean not null,
  refund_id text,
  constraint payment_items_one_target CHECK ((num_nonnulls(transformation_id, package_id) = 1)),
  constraint payment_items_price_check CHECK ((price >= (0)::numeric)),
  constraint payment_items_refund_id_check CHECK (((refund_id IS NULL) OR ((length(refund_id) >= 1) AND (length(refund_id) <= 255)))),
  constraint payment_items_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(id) ON DELETE CASCADE,
  constraint payment_items_transformation_id_fkey FOREIGN KEY (transformation_id) REFERENCES media_transformations(id),
  constraint payment_items_pkey PRIMARY KEY (id),
  constraint payment_items_payment_id_position_key UNIQUE (payment_id, "position")
);
CREATE INDEX payment_items_payment_idx ON public.payment_items USING btree (payment_id);
CREATE UNIQUE INDEX payment_items_transformation_sold ON public.payment_items USING btree (transformation_id) WHERE ((transformation_id IS NOT NULL) AND sold);
alter table public.payment_items enable row level security;

create table public.payments (
  id uuid not null default gen_random_uuid(),
  amount numeric(10,2) not null,
  currency text not null default 'USD'::text,
  status text not null,
  payment_method text not null,
  idempotency_key text not null,
  created_at timestamp with time zone not null default now(),
  stripe_session_id text,
  stripe_payment_intent text,
  email text,
  email_status text,
  constraint payments_amount_check CHECK ((amount >= (0)::numeric)),
  constraint payments_currency_check CHECK ((currency ~ '^[A-Z]{3}$'::text)),
  constraint payments_email_check CHECK (((email IS NULL) OR ((length(email) >= 3) AND (length(email) <= 320)))),
  constraint payments_email_status_check CHECK ((email_status = ANY (ARRAY['sending'::text, 'sent'::text, 'saved'::text, 'failed'::text, 'limited'::text]))),
  constraint payments_idempotency_key_check CHECK (((length(idempotency_key) >= 8) AND (length(idempotency_key) <= 200))),
  constraint payments_status_check CHECK ((status = ANY (ARRAY['pending'::text, 'completed'::text, 'failed'::text, 'refunded'::text, 'disputed'::text]))),
  constraint payments_pkey PRIMARY KEY (id),
  constraint payments_idempotency_key_key UNIQUE (idempotency_key),
  constraint payments_stripe_payment_intent_key UNIQUE (stripe_payment_intent),
  constraint payments_stripe_session_id_key UNIQUE (stripe_session_id)
);
alter table public.payments enable row level security;

create table public.rate_limits (
  key text not null,
  window_start timestamp with time zone not null,
  count integer not null,
  constraint rate_limits_count_check CHECK ((count >= 0)),
  constraint rate_limits_key_check CHECK (((length(key) >= 1) AND (length(key) <= 300))),
  constraint rate_limits_pkey PRIMARY KEY (key)
);
alter table public.rate_limits enable row level security;

create table public.stripe_events (
  id text not null,
  type text not null,
  payment_id uuid not null,
  received_at timestamp with time zone not null default now(),
  constraint stripe_events_payment_id_fkey FOREIGN KEY (payment_id) REFERENCES payments(id) ON DELETE CASCADE,
  constraint stripe_events_pkey PRIMARY KEY (id)
);
alter table public.stripe_events enable row level security;

create table public.tool_batches (
  id uuid not null default gen_random_uuid(),
  allowance_id uuid,
  owner_secret_hash text,
  model text not null,
  prompt text,
  created_at timestamp with time zone not null default now(),
  constraint tool_batches_model_check CHECK (((length(model) >= 1) AND (length(model) <= 100))),
  constraint tool_batches_one_owner CHECK ((num_nonnulls(allowance_id, owner_secret_hash) = 1)),
  constraint tool_batches_owner_secret_hash_check CHECK ((owner_secret_hash ~ '^[0-9a-f]{64}$'::text)),
  constraint tool_batches_prompt_check CHECK ((length(prompt) <= 1000)),
  constraint tool_batches_allowance_id_fkey FOREIGN KEY (allowance_id) REFERENCES package_allowances(id) ON DELETE CASCADE,
  constraint tool_batches_pkey PRIMARY KEY (id)
);
CREATE INDEX tool_batches_allowance_idx ON public.tool_batches USING btree (allowance_id, created_at) WHERE (allowance_id IS NOT NULL);
alter table public.tool_batches enable row level security;

create table public.upload_grants (
  upload_id text not null,
  created_at timestamp with time zone not null default now(),
  used_at timestamp with time zone,
  constraint upload_grants_upload_id_check CHECK (((length(upload_id) >= 1) AND (length(upload_id) <= 100))),
  constraint upload_grants_pkey PRIMARY KEY (upload_id)
);
CREATE INDEX upload_grants_created_idx ON public.upload_grants USING btree (created_at);
alter table public.upload_grants enable row level security;

create table public.work_slots (
  id uuid not null default gen_random_uuid(),
  kind text not null,
  expires_at timestamp with time zone not null,
  constraint work_slots_kind_check CHECK (((length(kind) >= 1) AND (length(kind) <= 50))),
  constraint work_slots_pkey PRIMARY KEY (id)
);
CREATE INDEX work_slots_kind_idx ON public.work_slots USING btree (kind, expires_at);
alter table public.work_slots enable row level security;

CREATE OR REPLACE FUNCTION public.allowance_take(p_allowance uuid, p_transformation uuid)
 RETURNS TABLE(outcome text, images_used integer, images_total integer)
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
$function$;
-- grants on public.allowance_take(p_allowance uuid, p_transformation uuid): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.batch_claim(p_site_max integer, p_owner_max integer, p_lease_seconds integer)
 RETURNS SETOF uuid
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
$function$;
-- grants on public.batch_claim(p_site_max integer, p_owner_max integer, p_lease_seconds integer): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.chat_reserve(p_client text, p_micros bigint, p_tokens bigint, p_site_micros bigint, p_client_micros bigint, p_site_tokens bigint, p_client_tokens bigint, p_site_requests integer, p_client_requests integer)
 RETURNS TABLE(day date, refused text)
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
$function$;
-- grants on public.chat_reserve(p_client text, p_micros bigint, p_tokens bigint, p_site_micros bigint, p_client_micros bigint, p_site_tokens bigint, p_client_tokens bigint, p_site_requests integer, p_client_requests integer): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.chat_settle(p_client text, p_day date, p_estimate_micros bigint, p_actual_micros bigint, p_estimate_tokens bigint, p_actual_tokens bigint, p_replied boolean)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'public', 'pg_temp'
AS $function$
  update public.chat_spend s
     set reserved_micros = greatest(0, s.reserved_micros - p_estimate_micros),
         spent_micros = s.spent_micros + greatest(0, p_actual_micros),
         reserved_tokens = greatest(0, s.reserved_tokens - p_estimate_tokens),
         spent_tokens = s.spent_tokens + greatest(0, p_actual_tokens),
         replies = s.replies + case when p_replied then 1 else 0 end
   where s.day = p_day and s.scope in ('site', p_client);
$function$;
-- grants on public.chat_settle(p_client text, p_day date, p_estimate_micros bigint, p_actual_micros bigint, p_estimate_tokens bigint, p_actual_tokens bigint, p_replied boolean): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.claim_work_slot(p_kind text, p_max integer, p_ttl_seconds integer)
 RETURNS uuid
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_id uuid;
begin
  perform pg_advisory_xact_lock(hashtextextended('work_slot:' || p_kind, 0));
  delete from work_slots where kind = p_kind and expires_at < now();
  if (select count(*) from work_slots where kind = p_kind) >= p_max then
    return null;
  end if;
  insert into work_slots (kind, expires_at) values (p_kind, now() + make_interval(secs => p_ttl_seconds))
    returning id into v_id;
  return v_id;
end;
$function$;
-- grants on public.claim_work_slot(p_kind text, p_max integer, p_ttl_seconds integer): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.demo_checkout(p_items jsonb, p_idempotency_key text)
 RETURNS TABLE(payment_id uuid, replayed boolean)
 LANGUAGE sql
 SET search_path TO 'public', 'pg_temp'
AS $function$
  select * from place_order(p_items, p_idempotency_key, 'demo');
$function$;
-- grants on public.demo_checkout(p_items jsonb, p_idempotency_key text): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.hit_rate_limit(p_key text, p_limit integer, p_window_seconds integer, p_weight integer DEFAULT 1)
 RETURNS TABLE(allowed boolean, retry_after integer)
 LANGUAGE sql
 SET search_path TO 'public', 'pg_temp'
AS $function$
  insert into public.rate_limits as r (key, window_start, count)
  values (
    p_key,
    to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds),
    greatest(1, p_weight)
  )
  on conflict (key) do update
    set count = case when excluded.window_start > r.window_start then excluded.count else r.count + excluded.count end,
        window_start = greatest(r.window_start, excluded.window_start)
  returning
    r.count <= p_limit,
    case when r.count <= p_limit then 0
         else greatest(1, ceil(extract(epoch from (r.window_start + make_interval(secs => p_window_seconds) - now()))))::integer
    end;
$function$;
-- grants on public.hit_rate_limit(p_key text, p_limit integer, p_window_seconds integer, p_weight integer): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.outbox_digest_doubts(p_now timestamp with time zone)
 RETURNS uuid
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
$function$;
-- grants on public.outbox_digest_doubts(p_now timestamp with time zone): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.outbox_emit(p_kind text, p_ref text, p_dedupe_key text, p_payload jsonb DEFAULT '{}'::jsonb)
 RETURNS uuid
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
$function$;
-- grants on public.outbox_emit(p_kind text, p_ref text, p_dedupe_key text, p_payload jsonb): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.outbox_item_refund_events()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  perform public.outbox_emit('order.item_refunded', new.payment_id::text, 'order.item_refunded:' || new.refund_id,
    jsonb_build_object('refundId', new.refund_id));
  return null;
end;
$function$;
-- grants on public.outbox_item_refund_events(): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.outbox_job_events()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  perform public.outbox_emit('job.failed_after_payment', new.id::text, 'job.failed_after_payment:' || new.id::text,
    jsonb_build_object('kind', new.kind));
  return null;
end;
$function$;
-- grants on public.outbox_job_events(): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.outbox_payment_events()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  if new.status = 'completed' and (tg_op = 'INSERT' or old.status is distinct from 'completed') then
    perform public.outbox_emit('order.paid', new.id::text, 'order.paid:' || new.id::text);
  elsif tg_op = 'UPDATE' and new.status in ('refunded', 'disputed') and old.status is distinct from new.status then
    perform public.outbox_emit('order.' || new.status, new.id::text, 'order.' || new.status || ':' || new.id::text,
      jsonb_build_object('from', old.status));
  end if;
  return null;
end;
$function$;
-- grants on public.outbox_payment_events(): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.package_allowance_on_revoke()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  update public.package_allowances set revoked_at = now(), revoked_reason = new.status
   where payment_id = new.id and revoked_at is null;
  return null;
end;
$function$;
-- grants on public.package_allowance_on_revoke(): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.package_allowance_on_sale()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  insert into public.package_allowances (payment_id, payment_item_id, package_id, images_total, expires_at)
    select new.payment_id, new.id, new.package_id, t.images, now() + make_interval(months => t.valid_months)
      from public.payments p join public.package_terms t on t.package_id = new.package_id
     where p.id = new.payment_id and p.status = 'completed'
    on conflict (payment_item_id) do nothing;
  return null;
end;
$function$;
-- grants on public.package_allowance_on_sale(): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.place_order(p_items jsonb, p_idempotency_key text, p_method text)
 RETURNS TABLE(payment_id uuid, replayed boolean)
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
declare
  v_item jsonb;
  v_refs text[] := '{}';          -- 't:<uuid>' / 'p:<package id>', in cart order
  v_tids uuid[] := '{}';
  v_pids text[] := '{}';
  v_ref text;
  v_existing uuid;
  v_existing_refs text[];
  v_bad text;
  v_total numeric(10, 2);
  v_payment uuid;
  v_pos smallint := 0;
begin
  if p_method is null or p_method not in ('demo', 'stripe') then
    raise exception 'Unknown payment method: %', p_method using errcode = 'LU400';
  end if;
  if p_idempotency_key is null or length(p_idempotency_key) not between 8 and 200 then
    raise exception 'Invalid idempotency key' using errcode = 'LU400';
  end if;
  if p_items is null or jsonb_typeof(p_items) <> 'array' then
    raise exception 'Cart items must be a list' using errcode = 'LU400';
  end if;
  if jsonb_array_length(p_items) = 0 then
    raise exception 'Your cart is empty' using errcode = 'LU400';
  end if;
  if jsonb_array_length(p_items) > 50 then
    raise exception 'A cart holds at most 50 items' using errcode = 'LU400';
  end if;

  for v_item in select value from jsonb_array_elements(p_items) loop
    if jsonb_typeof(v_item) <> 'object'
       or (select count(*) from jsonb_object_keys(v_item)) <> 1
       or not (v_item ? 'transformationId' or v_item ? 'packageId') then
      raise exception 'Each cart item needs exactly one of transformationId or packageId' using errcode = 'LU400';
    end if;
    if v_item ? 'transformationId' then
      if jsonb_typeof(v_item -> 'transformationId') <> 'string'
         or (v_item ->> 'transformationId') !~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' then
        raise exception 'Invalid transformation id: %', v_item -> 'transformationId' using errcode = 'LU400';
      end if;
      v_ref := 't:' || lower(v_item ->> 'transformationId');
    else
      if jsonb_typeof(v_item -> 'packageId') <> 'string' then
        raise exception 'Invalid package id: %', v_item -> 'packageId' using errcode = 'LU400';
      end if;
      v_ref := 'p:' || (v_item ->> 'packageId');
    end if;
    if v_ref = any(v_refs) then
      raise exception 'This item is already in your cart: %', substr(v_ref, 3) using errcode = 'LU400';
    end if;
    v_refs := v_refs || v_ref;
  end loop;

  -- Checkouts sharing a key run one after the other; the later ones find the first one's payment.
  perform pg_advisory_xact_lock(hashtextextended('checkout:' || p_idempotency_key, 0));

  select p.id into v_existing from payments p where p.idempotency_key = p_idempotency_key;
  if found then
    if (select p.payment_method from payments p where p.id = v_existing) <> p_method then
      raise exception 'This checkout was already started with another payment method' using errcode = 'LU409';
    end if;
    select array_agg(case when pi.transformation_id is not null then 't:' || pi.transformation_id::text
                          else 'p:' || pi.package_id end order by pi.position)
      into v_existing_refs from payment_items pi where pi.payment_id = v_existing;
    if v_existing_refs is distinct from v_refs then
      raise exception 'This checkout was already completed with a different cart' using errcode = 'LU409';
    end if;
    return query select v_existing, true;
    return;
  end if;

  select coalesce(array_agg(substr(r, 3)::uuid), '{}') into v_tids from unnest(v_refs) r where r like 't:%';
  select coalesce(array_agg(substr(r, 3)), '{}') into v_pids from unnest(v_refs) r where r like 'p:%';

  -- Lock the rows in a fixed order so overlapping carts wait instead of deadlocking; a waiting checkout
  -- then sees the winner's purchased = true.
  perform 1 from media_transformations m where m.id = any(v_tids) order by m.id for update;

  select t::text into v_bad from unnest(v_tids) t
    where not exists (select 1 from media_transformations m where m.id = t) limit 1;
  if v_bad is not null then
    raise exception 'Item not found: %', v_bad using errcode = 'LU404';
  end if;
  select m.id::text into v_bad from media_transformations m where m.id = any(v_tids) and m.status <> 'completed' limit 1;
  if v_bad is not null then
    raise exception 'Item is not ready for purchase yet: %', v_bad using errcode = 'LU409';
  end if;
  select m.id::text into v_bad from media_transformations m where m.id = any(v_tids) and m.purchased limit 1;
  if v_bad is not null then
    raise exception 'Item already purchased: %', v_bad using errcode = 'LU409';
  end if;
  select p into v_bad from unnest(v_pids) p
    where not exists (select 1 from catalog_prices c where c.item_type = 'package' and c.item_key = p) limit 1;
  if v_bad is not null then
    raise exception 'Unknown package: %', v_bad using errcode = 'LU404';
  end if;

  select coalesce(sum(c.price), 0) into v_total
    from media_transformations m
    join catalog_prices c on c.item_type = 'transformation' and c.item_key = m.price_key
    where m.id = any(v_tids);
  v_total := v_total + coalesce((select sum(c.price) from unnest(v_pids) p
    join catalog_prices c on c.item_type = 'package' and c.item_key = p), 0);

  insert into payments (amount, currency, status, payment_method, idempotency_key)
    values (v_total, 'USD', case when p_method = 'demo' then 'completed' else 'pending' end, p_method, p_idempotency_key)
    returning id into v_payment;

  foreach v_ref in array v_refs loop
    v_pos := v_pos + 1;
    if v_ref like 't:%' then
      insert into payment_items (payment_id, position, transformation_id, price, sold)
        select v_payment, v_pos, m.id, c.price, p_method = 'demo'
        from media_transformations m
        join catalog_prices c on c.item_type = 'transformation' and c.item_key = m.price_key
        where m.id = substr(v_ref, 3)::uuid;
    else
      insert into payment_items (payment_id, position, package_id, price, sold)
        select v_payment, v_pos, c.item_key, c.price, p_method = 'demo'
        from catalog_prices c where c.item_type = 'package' and c.item_key = substr(v_ref, 3);
    end if;
  end loop;

  -- A demo payment is paid now; a Stripe one only when its verified webhook arrives.
  if p_method = 'demo' then
    update media_transformations set purchased = true where id = any(v_tids);
  end if;

  return query select v_payment, false;
end;
$function$;
-- grants on public.place_order(p_items jsonb, p_idempotency_key text, p_method text): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.place_order_limited(p_items jsonb, p_idempotency_key text, p_method text, p_client text, p_limit integer, p_window_seconds integer)
 RETURNS TABLE(payment_id uuid, replayed boolean)
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
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
$function$;
-- grants on public.place_order_limited(p_items jsonb, p_idempotency_key text, p_method text, p_client text, p_limit integer, p_window_seconds integer): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.refund_rate_limit(p_key text, p_window_seconds integer, p_weight integer DEFAULT 1)
 RETURNS void
 LANGUAGE sql
 SET search_path TO 'public', 'pg_temp'
AS $function$
  update public.rate_limits
     set count = greatest(0, count - greatest(1, p_weight))
   where key = p_key
     and window_start = to_timestamp(floor(extract(epoch from now()) / p_window_seconds) * p_window_seconds);
$function$;
-- grants on public.refund_rate_limit(p_key text, p_window_seconds integer, p_weight integer): postgres=X/postgres

CREATE OR REPLACE FUNCTION public.set_updated_at()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO 'public', 'pg_temp'
AS $function$
begin
  new.updated_at := now();
  return new;
end;
$function$;

CREATE TRIGGER batch_items_updated_at BEFORE UPDATE ON public.batch_items FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER media_transformations_outbox AFTER UPDATE OF status ON public.media_transformations FOR EACH ROW WHEN (((new.status = 'failed'::text) AND (old.status IS DISTINCT FROM 'failed'::text) AND new.purchased)) EXECUTE FUNCTION outbox_job_events();
CREATE TRIGGER media_transformations_updated_at BEFORE UPDATE ON public.media_transformations FOR EACH ROW EXECUTE FUNCTION set_updated_at();
CREATE TRIGGER payment_items_outbox AFTER UPDATE OF refund_id ON public.payment_items FOR EACH ROW WHEN (((old.refund_id IS NULL) AND (new.refund_id IS NOT NULL))) EXECUTE FUNCTION outbox_item_refund_events();
CREATE TRIGGER payment_items_package_allowance AFTER INSERT OR UPDATE OF sold ON public.payment_items FOR EACH ROW WHEN (((new.package_id IS NOT NULL) AND new.sold)) EXECUTE FUNCTION package_allowance_on_sale();
CREATE TRIGGER payments_outbox AFTER INSERT OR UPDATE OF status ON public.payments FOR EACH ROW EXECUTE FUNCTION outbox_payment_events();
CREATE TRIGGER payments_package_allowance_revoke AFTER UPDATE OF status ON public.payments FOR EACH ROW WHEN (((new.status = ANY (ARRAY['refunded'::text, 'disputed'::text])) AND (old.status IS DISTINCT FROM new.status))) EXECUTE FUNCTION package_allowance_on_revoke();
