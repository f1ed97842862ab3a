import type { Config } from '@netlify/functions';
import { HttpError, isMultipart, json, readMultipart, requireMethod, withErrors } from '../lib/http';
import { inspectImage, toHttpError, videoDefaults } from '../lib/tool';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { MSG } from '../../src/lib/messages';
import { FUNCTION_BODY_MAX_BYTES } from '../../src/lib/tool/constants';

// /api/video-defaults — what the video tab offers for the photo the buyer chose, judged on the server:
// "Restore & colorize first" on for a photo that looks old (grey, sepia, faded), "Bring faces to life" on when a
// face looks at the camera. POST multipart/form-data with `file`; the browser sends a reduced copy (statistics
// and faces need no more), so the request stays far below Netlify's 6 MB body cap. Nothing is stored.

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  if (!isMultipart(req)) throw new HttpError(400, MSG.videoInvalidType);
  const form = await readMultipart(req, FUNCTION_BODY_MAX_BYTES);
  const file = form.get('file');
  if (!(file instanceof Blob) || file.size === 0) throw new HttpError(400, MSG.videoInvalidType);
  const bytes = Buffer.from(await file.arrayBuffer());
  try {
    await inspectImage(bytes, ['jpeg', 'png']);
  } catch (error) {
    throw toHttpError(error);
  }
  await enforceToolLimit('defaults', context);
  return json(await videoDefaults(bytes));
}, { accepts: ['multipart'] });

export const config: Config = { path: '/api/video-defaults' };
