-- Items of the tool belong to the browser that made them. Each new image or video job gets a random owner secret,
-- handed to that browser once; only its SHA-256 (hex) is kept here. The original, "Animate this photo", heal, hint
-- and reference re-renders, removing a reference and the checkout of an item need the secret
-- (netlify/lib/tool/ownership.ts); the watermarked preview link stays shareable. Rows made before this column
-- (null) are legacy: they keep working as before until the retention deletes them.
alter table public.media_transformations
  add column owner_secret_hash text
  constraint media_transformations_owner_secret_hash_hex check (owner_secret_hash ~ '^[0-9a-f]{64}$');

comment on column public.media_transformations.owner_secret_hash is
  'SHA-256 (hex) of the owner secret the creating browser holds; null for items made before owner secrets (legacy)';
