import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { errorJson, pathAfter, requireMethod, withErrors } from '../lib/http';
import { checkFileLink } from '../lib/storage/local-tokens';
import { isStoragePath } from '../lib/storage/paths';
import { contentTypeFor, getStorage } from '../lib/storage';

// GET /api/files/<path>?exp&sig[&dl] — the local storage adapter's signed URLs (Supabase serves its own).
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET', 'HEAD');
  const path = pathAfter(req, '/api/files/');
  const params = new URL(req.url).searchParams;
  const expiresAt = Number(params.get('exp'));
  const downloadName = params.get('dl');
  if (!isStoragePath(path) || checkFileLink(path, params.get('exp'), params.get('sig'), downloadName) !== 'ok') {
    return errorJson(403, MSG.fileLinkInvalid);
  }
  const storage = getStorage();
  const bytes = storage.kind === 'local' ? await storage.get(path) : null;
  if (!bytes) return errorJson(404, 'File not found');
  const maxAge = Math.max(0, expiresAt - Math.floor(Date.now() / 1000));
  const headers: Record<string, string> = {
    'Content-Type': contentTypeFor(path),
    'Content-Length': String(bytes.length),
    // The URL itself expires, so the browser may keep the bytes no longer than that.
    'Cache-Control': `private, max-age=${maxAge}`,
    'X-Content-Type-Options': 'nosniff',
  };
  if (downloadName) headers['Content-Disposition'] = `attachment; filename="${downloadName.replace(/["\\\r\n]/g, '')}"`;
  return new Response(req.method === 'HEAD' ? null : new Uint8Array(bytes), { headers });
});

export const config: Config = { path: '/api/files/*' };
