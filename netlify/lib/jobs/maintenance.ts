import { failStaleJobs } from '../transformations';

/**
 * Periodic upkeep, run by the scheduled function maintenance.mts on Netlify and every few minutes by
 * `npm start` locally: jobs whose worker died (no heartbeat past their kind's deadline) are failed, so a
 * buyer polling one sees a clear message instead of a spinner. Status reads never do this themselves.
 */
export async function runMaintenance(): Promise<{ staleJobsFailed: number }> {
  return { staleJobsFailed: await failStaleJobs() };
}
