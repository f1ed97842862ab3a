import type { Config } from '@netlify/functions';
import { HttpError, isMultipart, json, pathAfter, readMultipart, requireMethod, withErrors } from '../lib/http';
import { applyReference } from '../lib/tool';
import { ownedItem } from '../lib/tool/ownership';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { MSG } from '../../src/lib/messages';
import { FUNCTION_BODY_MAX_BYTES } from '../../src/lib/tool/constants';

// /api/transformations/{id}/reference — the buyer's colour reference photo for a grey or sepia result.
//  • POST multipart/form-data with `file` (JPEG, PNG or TIFF, in colour): re-renders the unpurchased result
//    taking its colours from that photo, keeping the colour hints; answers like /api/process-image.
//  • DELETE: back to automatic colours.
// Only the colours' layout matters (the photo is compared at 320 px), so the browser sends a reduced copy
// and the request stays far below Netlify's 6 MB body cap; a photo larger than REFERENCE_LIMITS allows is refused
// from its header, before it is decoded. Both carry the item's owner secret (403 without it), checked before the
// client's allowance is counted and before the photo is read.

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST', 'DELETE');
  const [id = ''] = pathAfter(req, '/api/transformations/').split('/');
  await ownedItem(id, req);
  await enforceToolLimit('hints', context);
  if (req.method === 'DELETE') return json(await applyReference(id, null));
  if (!isMultipart(req)) throw new HttpError(400, MSG.referenceMissing);
  const form = await readMultipart(req, FUNCTION_BODY_MAX_BYTES);
  const file = form.get('file');
  if (!(file instanceof Blob) || file.size === 0) throw new HttpError(400, MSG.referenceMissing);
  return json(await applyReference(id, Buffer.from(await file.arrayBuffer())));
}, { accepts: ['multipart', 'none'] });

export const config: Config = { path: '/api/transformations/:id/reference' };
