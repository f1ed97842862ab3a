import { sign, verify } from '../signing';
import { assertStoragePath } from './paths';

/**
 * The local adapter's signed links: `/api/files/<path>?exp&sig[&dl]` for reading and
 * `/api/uploads/<token>` for the browser's direct upload. Both carry an expiry and an APP_SECRET HMAC.
 */
export function fileSignature(path: string, expiresAt: number, downloadName = ''): string {
  return sign('file', `${path}\n${expiresAt}\n${downloadName}`);
}

export type FileLinkCheck = 'ok' | 'expired' | 'invalid';

export function checkFileLink(
  path: string,
  exp: string | null,
  sig: string | null,
  downloadName: string | null,
  now = Date.now(),
): FileLinkCheck {
  const expiresAt = Number(exp);
  if (!exp || !Number.isInteger(expiresAt)) return 'invalid';
  if (!verify('file', `${path}\n${expiresAt}\n${downloadName ?? ''}`, sig)) return 'invalid';
  return expiresAt * 1000 < now ? 'expired' : 'ok';
}

export interface UploadGrant {
  path: string;
  contentType: string;
  /** Unix seconds. */
  expiresAt: number;
}

export function createUploadToken(grant: UploadGrant): string {
  const payload = Buffer.from(JSON.stringify([grant.path, grant.contentType, grant.expiresAt])).toString('base64url');
  return `${payload}.${sign('upload', payload)}`;
}

/** The grant, or null when the token is forged, malformed or expired. */
export function readUploadToken(token: string, now = Date.now()): UploadGrant | null {
  const [payload, signature, extra] = token.split('.');
  if (!payload || !signature || extra !== undefined || !verify('upload', payload, signature)) return null;
  try {
    const [path, contentType, expiresAt] = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    if (typeof path !== 'string' || typeof contentType !== 'string' || typeof expiresAt !== 'number') return null;
    if (expiresAt * 1000 < now) return null;
    return { path: assertStoragePath(path), contentType, expiresAt };
  } catch {
    return null;
  }
}
