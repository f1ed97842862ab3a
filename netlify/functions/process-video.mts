import type { Config } from '@netlify/functions';
import { json, readJson, requireMethod, withErrors } from '../lib/http';
import { parseVideoBody, queueVideo, startVideoJob } from '../lib/tool';
import { ownedItem } from '../lib/tool/ownership';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { FUNCTION_BODY_MAX_BYTES } from '../../src/lib/tool/constants';
import type { VideoJobAnswer } from '../../src/lib/tool/video-schema';

// POST /api/process-video — the body: { imageData (data URL, JPEG/PNG), prompt, mode, duration: 5, watermark? },
// or { uploadId, prompt, mode, duration } for files sent to a signed upload first, or { fromImageId, … } ("Animate
// this photo": the request carries that image's owner secret). Counts the client's allowance first, then validates,
// stores the original, queues the job and answers at once: 202 { success: true, transformationId, status: 'queued',
// ownerSecret } (the new job's secret, for this browser only). Progress and the result come from
// GET /api/transformations/{id}.

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  await enforceToolLimit('video', context);
  const body = parseVideoBody(await readJson(req, FUNCTION_BODY_MAX_BYTES));
  if ('fromImageId' in body) await ownedItem(body.fromImageId, req);
  const t = await queueVideo(body);
  await startVideoJob(t.id);
  const answer: VideoJobAnswer = { success: true, transformationId: t.id, status: t.status, ownerSecret: t.ownerSecret, error: null };
  return json(answer, 202);
});

export const config: Config = { path: '/api/process-video' };
