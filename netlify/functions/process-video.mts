import type { Config } from '@netlify/functions';
import { json, readJson, requireMethod, withErrors } from '../lib/http';
import { parseVideoBody, queueVideo, startVideoJob } from '../lib/tool';
import { enforceToolLimit } from '../lib/tool/rate-limits';
import { FUNCTION_BODY_MAX_BYTES } from '../../src/lib/tool/constants';

// POST /api/process-video — the body: { imageData (data URL, JPEG/PNG), prompt, mode, duration: 5, watermark? },
// or { uploadId, prompt, mode, duration } for files sent to a signed upload first. Validates, stores the
// original, queues the job and answers at once: 202 { success: true, transformationId, status: 'queued' }.
// Progress and the result come from GET /api/transformations/{id}.

export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  const body = parseVideoBody(await readJson(req, FUNCTION_BODY_MAX_BYTES));
  await enforceToolLimit('video', context);
  const t = await queueVideo(body);
  await startVideoJob(t.id);
  return json({ success: true, transformationId: t.id, status: t.status, error: null }, 202);
});

export const config: Config = { path: '/api/process-video' };
