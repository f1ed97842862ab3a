import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { HttpError, errorJson, json, pathAfter, readBytes, requireMethod, withErrors } from '../lib/http';
import { readUploadToken } from '../lib/storage/local-tokens';
import { getStorage, MAX_UPLOAD_BYTES } from '../lib/storage';
import { isUploadGrantOpen } from '../lib/tool/upload-grants';

// PUT /api/uploads/<token> — the local adapter's signed upload URL: the browser sends the file (≤ 15 MB)
// straight here with the Content-Type it was granted. On Supabase the browser PUTs to Supabase instead.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'PUT');
  const grant = readUploadToken(pathAfter(req, '/api/uploads/'));
  if (!grant) return errorJson(403, 'This upload link is invalid or has expired');
  // A tool upload's link works until its upload is processed; a later PUT would only leave a file behind.
  if (grant.path.startsWith('uploads/') && !(await isUploadGrantOpen(grant.path.slice('uploads/'.length)))) return errorJson(403, MSG.uploadLinkUsed);
  const type = (req.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== grant.contentType.toLowerCase()) {
    return errorJson(415, `This upload link accepts ${grant.contentType} only`);
  }
  const bytes = await readBytes(req, MAX_UPLOAD_BYTES).catch((error) => {
    throw error instanceof HttpError && error.status === 413 ? new HttpError(413, MSG.uploadTooLarge) : error;
  });
  if (bytes.length === 0) return errorJson(400, 'The uploaded file is empty');
  const storage = getStorage();
  if (storage.kind !== 'local') return errorJson(404, 'Uploads go to Supabase Storage on this deploy');
  await storage.put(grant.path, bytes, grant.contentType);
  return json({ success: true, path: grant.path });
}, { accepts: ['upload'] });

export const config: Config = { path: '/api/uploads/:token' };
