-- An upload grant is kept after its upload is processed, marked used, until its link can no longer be used
-- (Supabase's signed upload URLs live 2 hours): a second PUT to the same link is refused (local storage) or
-- its file deleted by the scheduled sweep (Supabase), and the same upload is never processed twice.
alter table public.upload_grants add column used_at timestamptz;
