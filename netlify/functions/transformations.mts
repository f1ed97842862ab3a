import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { errorJson, json, parseWith, pathAfter, requireMethod, withErrors } from '../lib/http';
import { statusAnswer, viewUrl } from '../lib/tool';
import { transformationIdSchema } from '../lib/orders/schemas';
import { getTransformation } from '../lib/transformations';
import { assertOwner } from '../lib/tool/ownership';

// GET /api/transformations/{id} → { success, kind, status, progress (0-1), purchased, videoUrl, originalImageUrl, processedUrl, error }
// and, for a finished image, the fields of /api/process-image's answer too (originalUrl, width, height, hints),
// so the tool can show a saved result again after a reload or a checkout.
// URLs are short-lived signed URLs of the original and the WATERMARKED preview, with a time-stamp query.
// Dead jobs are failed by the scheduled maintenance function (maintenance.mts), not here: a status read
// writes nothing. The answer carries the original, so it needs the item's owner secret (403 without it).
//
// GET /api/transformations/{id}/preview → 302 to a fresh signed URL of the watermarked preview: a link that
// never expires, for cart thumbnails kept in localStorage and the preview download. Anyone with the id may follow
// it: this is the link a buyer shares, and it shows only the watermarked preview.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET');
  const [rawId, part] = pathAfter(req, '/api/transformations/').split('/');
  const id = parseWith(transformationIdSchema, rawId);
  if (part === 'preview') {
    const t = await getTransformation(id);
    const location = t?.status === 'completed' ? await viewUrl(t.previewPath) : null;
    if (!location) return errorJson(404, MSG.previewNotFound);
    return new Response(null, { status: 302, headers: { Location: location, 'Cache-Control': 'no-store' } });
  }
  const t = await getTransformation(id);
  if (!t) return errorJson(404, MSG.transformationNotFound);
  await assertOwner(t, req);
  return json(await statusAnswer(t));
});

export const config: Config = { path: ['/api/transformations/:id', '/api/transformations/:id/preview'] };
