import type { Config } from '@netlify/functions';
import { runMaintenance } from '../lib/jobs/maintenance';

// Scheduled (no public path): fails jobs whose worker died. See netlify/lib/jobs/maintenance.ts.
export default async () => {
  const done = await runMaintenance();
  if (done.staleJobsFailed) console.log(`[maintenance] failed ${done.staleJobsFailed} stale job(s)`);
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '*/5 * * * *' };
