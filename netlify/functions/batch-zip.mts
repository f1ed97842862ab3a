import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { errorJson, pathAfter, requireMethod, withErrors } from '../lib/http';
import { getBatch, planParts, zipEntries, zipStream } from '../lib/batches';
import { getAllowance } from '../lib/packages/allowance';
import { isBatchZipToken } from '../lib/packages/tokens';

// GET /api/batches/{id}/zip?part=N&token=… — "Download all": the clean files the package took from the batch, under
// their original names (numbered when repeated), as a ZIP streamed while it is written, one file in memory at a time.
// A large batch comes in parts of at most 18 MB (Netlify streams at most 20 MB from a function). The token (signed
// for the batch and the package's current link, handed by GET /api/batches/{id}) authorises it; a plain link, so
// the browser saves the stream to disk as it arrives.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET', 'HEAD');
  const [id = ''] = pathAfter(req, '/api/batches/').split('/');
  const url = new URL(req.url);
  const batch = await getBatch(id);
  const allowance = batch?.allowanceId ? await getAllowance(batch.allowanceId) : null;
  if (!batch || !allowance || !isBatchZipToken(batch.id, allowance.id, allowance.linkVersion, url.searchParams.get('token'))) {
    return errorJson(403, MSG.downloadForbidden);
  }
  const parts = planParts(await zipEntries(batch));
  const part = parts[Number(url.searchParams.get('part') ?? '1') - 1];
  if (!part) return errorJson(404, MSG.batchNothingToZip);
  const name = `restored-photos-${batch.createdAt.toISOString().slice(0, 10)}${parts.length > 1 ? `-part-${part.part}-of-${parts.length}` : ''}.zip`;
  return new Response(req.method === 'HEAD' ? null : zipStream(part), {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    },
  });
});

export const config: Config = { path: '/api/batches/:id/zip' };
