import { failStaleJobs } from '../transformations';
import { expireUnpaidCheckouts } from '../payments/expiry';
import { retryOwedRefunds } from '../payments/refunds';
import { pruneRateLimits } from '../rate-limit';
import { dropPurchasedPasses, expireUnpurchased, expireUploads } from '../tool/retention';
import { dispatchBatches } from '../batches/dispatch';
import { expireBatchUploads } from '../batches/retention';

export interface MaintenanceReport {
  staleJobsFailed: number;
  uploadsExpired: number;
  checkoutsExpired: number;
  resultsExpired: number;
  rateLimitsPruned: number;
  refundsRetried: number;
  passesDropped: number;
  batchPhotosStarted: number;
  batchUploadsExpired: number;
}

/**
 * Periodic upkeep, run by the scheduled function maintenance.mts on Netlify and every few minutes by
 * `npm start` locally: jobs whose worker died (no heartbeat past their kind's deadline) are failed, so a
 * buyer polling one sees a clear message instead of a spinner (status reads never do this themselves);
 * uploads never processed, unpaid checkouts and then results nobody bought are expired (retention.ts,
 * payments/expiry.ts); refunds owed for duplicate payments that failed are tried again (payments/refunds.ts);
 * rate-limit windows long over are deleted; a bought image's kept automatic pass goes at once (retention.ts); batch
 * photos whose job died go back to the queue and waiting ones are started (batches/dispatch.ts), and the uploads of
 * batch photos that failed long ago are deleted (batches/retention.ts).
 */
export async function runMaintenance(): Promise<MaintenanceReport> {
  const staleJobsFailed = await failStaleJobs();
  const uploadsExpired = await expireUploads();
  // Before the retention: an expired checkout's items are unbought results like any other.
  const checkoutsExpired = await expireUnpaidCheckouts();
  const resultsExpired = await expireUnpurchased();
  const rateLimitsPruned = await pruneRateLimits();
  const refundsRetried = await retryOwedRefunds();
  const passesDropped = await dropPurchasedPasses();
  // Batch photos whose job died are put back, and waiting ones started if a trigger was lost (background only).
  const batchPhotosStarted = (await dispatchBatches(null)).length;
  const batchUploadsExpired = await expireBatchUploads();
  return { staleJobsFailed, uploadsExpired, checkoutsExpired, resultsExpired, rateLimitsPruned, refundsRetried, passesDropped, batchPhotosStarted, batchUploadsExpired };
}
