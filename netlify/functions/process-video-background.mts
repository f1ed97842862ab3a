import { errorJson, json, readJson, requireMethod, withErrors } from '../lib/http';
import { isValidJobSignature, runVideoJob } from '../lib/tool';
import { releaseJobMemory } from '../../engines/video';

// Background function (Netlify runs `-background` functions for up to 15 minutes and answers the caller
// 202 at once). Called by /api/process-video with { id, sig }: the HMAC of the job id, so nobody else can
// start or restart jobs. Reachable at /.netlify/functions/process-video-background.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'POST');
  const body = (await readJson(req)) as { id?: unknown; sig?: unknown } | null;
  const id = typeof body?.id === 'string' ? body.id : '';
  if (!id || !isValidJobSignature(id, body?.sig)) return errorJson(403, 'Invalid job signature');
  // The instance is reused for the next job: what this one leaves behind is given back first (video/job-memory.ts).
  const t = await runVideoJob(id).finally(releaseJobMemory);
  return json({ success: t?.status === 'completed', status: t?.status ?? 'unknown' });
});
