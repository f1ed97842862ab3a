import { createClient } from '@supabase/supabase-js';
import { BUCKET, MAX_UPLOAD_BYTES } from './bucket';
import { assertStoragePath } from './paths';
import type { Storage } from './types';

/**
 * Supabase Storage through supabase-js with the service-role key — server side only. The bucket is
 * private; the browser gets signed URLs (reads) and signed upload URLs (direct uploads).
 */
export interface SupabaseStorageOptions {
  url: string;
  serviceRoleKey: string;
  bucket?: string;
}

export function createSupabaseStorage(options: SupabaseStorageOptions): Storage {
  const bucket = options.bucket ?? BUCKET;
  const client = createClient(options.url, options.serviceRoleKey, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
  });
  let ready: Promise<void> | null = null;

  // Create the private bucket on first use when it is missing (the migration also creates it).
  async function ensureBucket(): Promise<void> {
    const { error } = await client.storage.getBucket(bucket);
    if (!error) return;
    if (!isNotFound(error)) throw storageError('check bucket', error);
    const created = await client.storage.createBucket(bucket, { public: false, fileSizeLimit: MAX_UPLOAD_BYTES });
    if (created.error && !/already exists/i.test(created.error.message)) throw storageError('create bucket', created.error);
  }
  async function files() {
    ready ??= ensureBucket().catch((error) => {
      ready = null; // retry on the next call
      throw error;
    });
    await ready;
    return client.storage.from(bucket);
  }

  return {
    kind: 'supabase',
    async put(path, bytes, contentType) {
      const { error } = await (await files()).upload(assertStoragePath(path), bytes, { contentType, upsert: true });
      if (error) throw storageError('upload', error);
    },
    async get(path) {
      const { data, error } = await (await files()).download(assertStoragePath(path));
      if (error) {
        if (isNotFound(error)) return null;
        throw storageError('download', error);
      }
      return Buffer.from(await data.arrayBuffer());
    },
    async remove(paths) {
      if (paths.length === 0) return;
      const { error } = await (await files()).remove(paths.map(assertStoragePath));
      if (error) throw storageError('remove', error);
    },
    async signedUrl(path, { expiresIn, downloadName }) {
      const { data, error } = await (await files()).createSignedUrl(
        assertStoragePath(path),
        Math.max(1, Math.floor(expiresIn)),
        downloadName ? { download: downloadName } : undefined,
      );
      if (error) throw storageError('sign', error);
      return data.signedUrl;
    },
    async createSignedUpload(path, contentType) {
      const { data, error } = await (await files()).createSignedUploadUrl(assertStoragePath(path), { upsert: true });
      if (error) throw storageError('sign upload', error);
      return { url: data.signedUrl, method: 'PUT', headers: { 'Content-Type': contentType, 'x-upsert': 'true' } };
    },
  };
}

function isNotFound(error: { message?: string; status?: number; statusCode?: string }): boolean {
  // Storage answers a missing object or bucket with 404, or (older servers) 400 carrying statusCode "404".
  return error.status === 404 || error.statusCode === '404' || /not.?found/i.test(error.message ?? '');
}

function storageError(operation: string, error: { message?: string }): Error {
  return new Error(`Storage ${operation} failed: ${error.message ?? 'unknown error'}`);
}
