import type { Config } from '@netlify/functions';
import { runMaintenance } from '../lib/maintenance/run';

// Scheduled (no public path): fails jobs whose worker died, expires unused uploads and unpaid checkouts,
// deletes unbought results, bought images' kept automatic passes and old rate-limit windows.
// See netlify/lib/maintenance/run.ts.
export default async () => {
  const done = await runMaintenance();
  if (Object.values(done).some((n) => n > 0)) console.log('[maintenance]', JSON.stringify(done));
  return new Response(null, { status: 204 });
};

export const config: Config = { schedule: '*/5 * * * *' };
