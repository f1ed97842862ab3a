import { errorJson, json, readJson, requireMethod, withErrors } from '../lib/http';
import { isValidBatchJobSignature, runBatchItem } from '../lib/batches';

// Background function (Netlify answers the caller 202 at once and runs it for up to 15 minutes; `npm start` in a
// bounded pool of instances): one photo of a batch, triggered by the batch dispatcher with { id, sig } (the HMAC of the
// item id), so nobody else can start photos. Reachable at /.netlify/functions/process-batch-item-background.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'POST');
  const body = (await readJson(req)) as { id?: unknown; sig?: unknown } | null;
  const id = typeof body?.id === 'string' ? body.id : '';
  if (!id || !isValidBatchJobSignature(id, body?.sig)) return errorJson(403, 'Invalid job signature');
  await runBatchItem(id);
  return json({ success: true });
});
