import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { errorJson, pathAfter, requireMethod, withErrors } from '../lib/http';
import { downloadFilename } from '../lib/orders/order';
import { isValidDownloadToken } from '../lib/orders/tokens';
import { contentTypeFor, getStorage } from '../lib/storage';
import { getTransformation } from '../lib/transformations';

// GET /api/downloads/{transformationId}?token=… — the clean, unwatermarked file of a purchased item.
// The token is the per-item HMAC handed out with the order; it only works once the item is purchased.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET', 'HEAD');
  const id = pathAfter(req, '/api/downloads/');
  const token = new URL(req.url).searchParams.get('token');
  const item = isValidDownloadToken(id, token) ? await getTransformation(id) : null;
  if (!item || !item.purchased || item.status !== 'completed' || !item.resultPath) {
    return errorJson(403, MSG.downloadForbidden);
  }
  const bytes = await getStorage().get(item.resultPath);
  if (!bytes) return errorJson(404, 'The file for this item is missing. Please contact support.');
  return new Response(req.method === 'HEAD' ? null : new Uint8Array(bytes), {
    headers: {
      'Content-Type': contentTypeFor(item.resultPath),
      'Content-Length': String(bytes.length),
      'Content-Disposition': `attachment; filename="${downloadFilename(item.kind, item.resultPath, item.createdAt)}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});

export const config: Config = { path: '/api/downloads/:transformationId' };
