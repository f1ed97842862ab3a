-- What this database is for, declared by the database itself: a deploy that is not production (a Deploy Preview, a
-- branch deploy, a local run) sells only against a database whose row here says 'non-production', because Netlify
-- shares DATABASE_URL across deploy contexts unless the operator scopes it, and a preview must never write
-- completed payments into the production data. The migration runner writes the row for the embedded database and
-- the tests' databases; an operator marks a staging database with `npm run db:migrate -- --non-production` (or
-- the insert below). No row means undeclared, which counts as production. One row at most; never flipped by code.
create table public.database_role (
  only_row boolean primary key default true check (only_row),
  role text not null check (role in ('production', 'non-production')),
  declared_at timestamptz not null default now()
);
alter table public.database_role enable row level security;
comment on table public.database_role is
  'insert into public.database_role (role) values (''non-production'') marks a staging/preview database: deploys outside production sell only against such a database';
