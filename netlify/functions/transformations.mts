import type { Config } from '@netlify/functions';
import { errorJson, json, pathAfter, requireMethod, withErrors } from '../lib/http';
import { statusAnswer } from '../lib/jobs';
import { failStaleJobs, getTransformation } from '../lib/transformations';
import { STALE_JOB_SECONDS } from '../../src/lib/tool/constants';

// GET /api/transformations/{id} → { success, status, progress (0-1), videoUrl, originalImageUrl, processedUrl, error }
// URLs are short-lived signed URLs of the original and the WATERMARKED preview, with a time-stamp query.
// Jobs without a heartbeat for STALE_JOB_SECONDS are failed first, so nothing stays processing forever.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET');
  await failStaleJobs(STALE_JOB_SECONDS, 'Video generation stopped responding. Please try again.');
  const t = await getTransformation(pathAfter(req, '/api/transformations/'));
  if (!t) return errorJson(404, 'Transformation not found');
  return json(await statusAnswer(t));
});

export const config: Config = { path: '/api/transformations/:id' };
