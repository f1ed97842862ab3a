import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { createUploadToken, fileSignature } from './local-tokens';
import { assertStoragePath, encodeStoragePath } from './paths';
import type { Storage } from './types';
import { UPLOAD_URL_TTL_SECONDS } from './bucket';

/** Files on local disk (default `.data/storage`), served by /api/files and written by /api/uploads. */
export function createLocalStorage(rootDir: string): Storage {
  const root = path.resolve(rootDir);
  const fileOf = (key: string) => path.join(root, ...assertStoragePath(key).split('/'));

  return {
    kind: 'local',
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temp = `${file}.${randomUUID()}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, file);
    },
    async get(key) {
      try {
        return await readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(keys) {
      await Promise.all(keys.map((key) => rm(fileOf(key), { force: true })));
    },
    async signedUrl(key, { expiresIn, downloadName }) {
      assertStoragePath(key);
      const expiresAt = Math.floor(Date.now() / 1000) + Math.max(1, Math.floor(expiresIn));
      const query = new URLSearchParams({ exp: String(expiresAt), sig: fileSignature(key, expiresAt, downloadName) });
      if (downloadName) query.set('dl', downloadName);
      return `/api/files/${encodeStoragePath(key)}?${query}`;
    },
    async createSignedUpload(key, contentType) {
      assertStoragePath(key);
      const expiresAt = Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS;
      return {
        url: `/api/uploads/${createUploadToken({ path: key, contentType, expiresAt })}`,
        method: 'PUT',
        headers: { 'Content-Type': contentType },
      };
    },
  };
}
