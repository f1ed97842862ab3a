-- Site-wide limits on heavy work (image renders), shared by every function instance: a slot is a row that
-- expires on its own, so an instance that dies mid-render (a timeout stops it) frees its slot anyway.

create table public.work_slots (
  id uuid primary key default gen_random_uuid(),
  kind text not null check (length(kind) between 1 and 50),
  expires_at timestamptz not null
);
create index work_slots_kind_idx on public.work_slots (kind, expires_at);
alter table public.work_slots enable row level security;

-- Takes one of `p_max` slots of `p_kind` for `p_ttl_seconds`, or answers null when all are taken. Claims of
-- one kind run one after the other (advisory lock), so two instances never take the last slot together.
create or replace function public.claim_work_slot(p_kind text, p_max integer, p_ttl_seconds integer)
returns uuid
language plpgsql
set search_path = public, pg_temp
as $$
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
$$;

revoke execute on function public.claim_work_slot(text, integer, integer) from public;
do $$
declare
  r text;
begin
  foreach r in array array['anon', 'authenticated'] loop
    if exists (select 1 from pg_roles where rolname = r) then
      execute format('revoke all on public.work_slots from %I', r);
      execute format('revoke execute on function public.claim_work_slot(text, integer, integer) from %I', r);
    end if;
  end loop;
end;
$$;
