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

export function storageKind(): Storage['kind'] {
  return process.env.SUPABASE_URL?.trim() && process.env.SUPABASE_SERVICE_ROLE_KEY?.trim() ? 'supabase' : 'local';
}

/**
 * Supabase Storage when SUPABASE_URL and SUPABASE_SERVICE_ROLE_KEY are set, otherwise local disk under
 * STORAGE_DIR (default `.data/storage`) where the embedded setup provides it. Chosen at call time, never at
 * import.
 */
export function getStorage(): Storage {
  const kind = storageKind();
  const key =
    kind === 'supabase'
      ? `supabase:${process.env.SUPABASE_URL}:${process.env.SUPABASE_SERVICE_ROLE_KEY}`
      : `local:${localStorageDir()}`;
  if (cached?.key === key) return cached.storage;
  const createLocal = providedLocalStorage();
  let storage: Storage;
  if (kind === 'supabase') {
    storage = createSupabaseStorage({
      url: process.env.SUPABASE_URL!.trim(),
      serviceRoleKey: process.env.SUPABASE_SERVICE_ROLE_KEY!.trim(),
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
