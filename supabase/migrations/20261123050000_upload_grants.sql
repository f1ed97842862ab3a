-- Signed upload grants, so uploads never processed can be found and deleted by the scheduled maintenance
-- (the storage has no cheap listing). A row goes when its upload is processed or expires.
create table public.upload_grants (
  upload_id text primary key check (length(upload_id) between 1 and 100),
  created_at timestamptz not null default now()
);
create index upload_grants_created_idx on public.upload_grants (created_at);
alter table public.upload_grants enable row level security;

do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke all on public.upload_grants from %I', r);
    end if;
  end loop;
end;
$$;
