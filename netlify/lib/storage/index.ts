import path from 'node:path';
import { StorageNotConfiguredError } from './errors';
import { providedLocalStorage } from './local-provider';
import { createSupabaseStorage } from './supabase';
import type { Storage } from './types';

export type { SignedUpload, SignedUrlOptions, Storage } from './types';
export { MAX_UPLOAD_BYTES, BUCKET } from './bucket';
export { assertStoragePath, contentTypeFor } from './paths';

let cached: { key: string; storage: Storage } | null = null;

export { StorageNotConfiguredError };

/**
 * The server's Supabase key: SUPABASE_SECRET_KEY (the new `sb_secret_…` keys) or SUPABASE_SERVICE_ROLE_KEY (the
 * legacy `service_role` JWT, or a secret key under the old name). supabase-js sends either in the `apikey` header
 * (and as the bearer token), which is where Supabase reads a secret key; `npm run doctor` names a publishable or
 * anon key put here by mistake.
 */
export function supabaseServerKey(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.SUPABASE_SECRET_KEY?.trim() || env.SUPABASE_SERVICE_ROLE_KEY?.trim() || undefined;
}

export function storageKind(): Storage['kind'] {
  return process.env.SUPABASE_URL?.trim() && supabaseServerKey() ? 'supabase' : 'local';
}

/**
 * Supabase Storage when SUPABASE_URL and its server key (supabaseServerKey) are set, otherwise local disk under
 * STORAGE_DIR (default `.data/storage`) where the embedded setup provides it. Chosen at call time, never at
 * import.
 */
export function getStorage(): Storage {
  const kind = storageKind();
  const key =
    kind === 'supabase'
      ? `supabase:${process.env.SUPABASE_URL}:${supabaseServerKey()}`
      : `local:${localStorageDir()}`;
  if (cached?.key === key) return cached.storage;
  const createLocal = providedLocalStorage();
  let storage: Storage;
  if (kind === 'supabase') {
    storage = createSupabaseStorage({
      url: process.env.SUPABASE_URL!.trim(),
      serviceRoleKey: supabaseServerKey()!,
    });
  } else if (createLocal) {
    storage = createLocal(localStorageDir());
  } else {
    throw new StorageNotConfiguredError();
  }
  cached = { key, storage };
  return storage;
}

function localStorageDir(): string {
  return path.resolve(process.env.STORAGE_DIR?.trim() || '.data/storage');
}
