/** Storage keys: plain relative paths, so neither adapter can be steered outside its bucket or folder. */
const SAFE_PATH = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

export function assertStoragePath(path: string): string {
  if (path.length > 512 || !SAFE_PATH.test(path) || path.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`Invalid storage path: ${JSON.stringify(path)}`);
  }
  return path;
}

export function isStoragePath(path: string): boolean {
  try {
    assertStoragePath(path);
    return true;
  } catch {
    return false;
  }
}

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
  gif: 'image/gif',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  mp4: 'video/mp4',
  webm: 'video/webm',
  json: 'application/json',
  txt: 'text/plain; charset=utf-8',
};

export function contentTypeFor(path: string): string {
  const ext = path.split('.').pop()?.toLowerCase() ?? '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** Percent-encodes each segment but keeps the slashes, for URLs that carry a storage path. */
export function encodeStoragePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
