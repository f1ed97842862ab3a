import { failStaleJobs } from '../transformations';
import { dropPurchasedPasses, expireUnpurchased, expireUploads } from './retention';

/**
 * Periodic upkeep, run by the scheduled function maintenance.mts on Netlify and every few minutes by
 * `npm start` locally: jobs whose worker died (no heartbeat past their kind's deadline) are failed, so a
 * buyer polling one sees a clear message instead of a spinner (status reads never do this themselves);
 * uploads never processed and results nobody bought are deleted after their time, and bought images'
 * kept automatic passes at once (retention.ts).
 */
export async function runMaintenance(): Promise<{ staleJobsFailed: number; uploadsExpired: number; resultsExpired: number; passesDropped: number }> {
  return {
    staleJobsFailed: await failStaleJobs(),
    uploadsExpired: await expireUploads(),
    resultsExpired: await expireUnpurchased(),
    passesDropped: await dropPurchasedPasses(),
  };
}
