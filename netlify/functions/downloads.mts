import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { errorJson, parseWith, pathAfter, requireMethod, withErrors } from '../lib/http';
import { downloadFilename, soldTransformation } from '../lib/orders/order';
import { transformationIdSchema } from '../lib/orders/schemas';
import { downloadTokenPayment } from '../lib/orders/tokens';
import { takenTransformation } from '../lib/packages/allowance';
import { contentTypeFor, getStorage } from '../lib/storage';

// GET /api/downloads/{transformationId}?token=… — the clean, unwatermarked file of a purchased item.
// The token names the payment that sold the item and is signed for that payment and item (it does not
// expire); it works only while that payment is completed and sells the item, so a refund, a dispute or a
// duplicate payment gives nothing. A result a package took has its own token, signed for the package's current link
// and the item, good while the package took it (a refund or the expiry takes nothing back that was taken). The
// success page, the tool's Download button and the batch's grid use them.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET', 'HEAD');
  const id = parseWith(transformationIdSchema, pathAfter(req, '/api/downloads/'));
  const token = new URL(req.url).searchParams.get('token');
  // A sale's token (`<payment>.<signature>`), or a package's for a result it took (`pkg.<allowance>.<version>.<signature>`).
  const paymentId = downloadTokenPayment(id, token);
  const item = paymentId ? await soldTransformation(paymentId, id) : await takenTransformation(id, token);
  if (!item?.resultPath) return errorJson(403, MSG.downloadForbidden);
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
