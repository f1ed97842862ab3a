import type { Config } from '@netlify/functions';
import { HttpError, isMultipart, json, readJson, readMultipart, requireMethod, withErrors } from '../lib/http';
import { sourceImageStill, toHttpError, videoDefaults } from '../lib/tool';
import { inspectWithin } from '../lib/tool/image-bounds';
import { ownedItem } from '../lib/tool/ownership';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { MSG } from '../../src/lib/messages';
import { DEFAULTS_MAX_SIDE, FUNCTION_BODY_MAX_BYTES } from '../../src/lib/tool/constants';
import { videoDefaultsFromImageSchema } from '../../src/lib/tool/video-schema';

// /api/video-defaults — what the video tab offers for the photo the buyer chose, judged on the server:
// "Restore & colorize first" on for a photo that looks old (grey, sepia, faded), "Bring faces to life" on when a
// face looks at the camera, and the object detector's boxes, which the tab sends back with the job. POST
// multipart/form-data with `file` (the browser sends a reduced copy: statistics, faces and boxes need no more, so
// the request stays far below Netlify's 6 MB body cap), or JSON `{ fromImageId }` for "Animate this photo" (the
// finished image result's own restored file, read here; the request carries that image's owner secret). Nothing is
// stored.
//
// Work is bounded before it starts: the client's allowance is counted first; a file is refused from its header
// when its long side is over DEFAULTS_MAX_SIDE (413), before anything decodes it; then it is decoded once.

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  await enforceToolLimit('defaults', context);
  if (isMultipart(req)) return json(await videoDefaults(await uploadedPhoto(req), DEFAULTS_MAX_SIDE * DEFAULTS_MAX_SIDE));
  const id = parseFromImage(await readJson(req));
  await ownedItem(id, req);
  return json(await videoDefaults(await sourceImageStill(id)));
}, { accepts: ['multipart', 'json'] });

async function uploadedPhoto(req: Request): Promise<Buffer> {
  const form = await readMultipart(req, FUNCTION_BODY_MAX_BYTES);
  const file = form.get('file');
  if (!(file instanceof Blob) || file.size === 0) throw new HttpError(400, MSG.videoInvalidType);
  const bytes = Buffer.from(await file.arrayBuffer());
  try {
    await inspectWithin(bytes, ['jpeg', 'png'], DEFAULTS_MAX_SIDE);
  } catch (error) {
    throw toHttpError(error);
  }
  return bytes;
}

function parseFromImage(body: unknown): string {
  const parsed = videoDefaultsFromImageSchema.safeParse(body);
  if (!parsed.success) throw new HttpError(400, parsed.error.issues[0]?.message ?? MSG.videoSourceImage);
  return parsed.data.fromImageId;
}

export const config: Config = { path: '/api/video-defaults' };
