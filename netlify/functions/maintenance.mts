import type { Config } from '@netlify/functions';
import { runMaintenance } from '../lib/tool/maintenance';

// Scheduled (no public path): fails jobs whose worker died, deletes expired uploads and unbought results, and
// the kept automatic passes of bought images.
// See netlify/lib/tool/maintenance.ts.
export default async () => {
  const done = await runMaintenance();
  if (done.staleJobsFailed + done.uploadsExpired + done.resultsExpired + done.passesDropped) console.log('[maintenance]', JSON.stringify(done));
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '*/5 * * * *' };
