import { query } from '../db';
import { deployOrigin } from '../running-deploy';
import { sign, verify } from '../signing';

/**
 * Each photo of a batch is its own job. `dispatchBatches` claims what may start (SQL `batch_claim`: at most
 * BATCH_RUN.site photos working on the whole site, BATCH_RUN.perOwner per package or batch, round robin between
 * owners), then starts each: on a deploy a background function per photo (the platform runs them side by side, each
 * for up to 15 minutes; `npm start` runs them in a bounded pool of instances), or inline in this process when no
 * function can be triggered (tests, BATCH_JOB_RUNNER=inline; runner.ts hands its runner in). A job ends by
 * dispatching again, so the queue drains itself; the maintenance dispatches every 5 minutes too (trigger only: it
 * never renders), which also puts back photos whose job died (their lease ran out). Every render still takes one of
 * the site's render slots (tool/render-slots.ts), and batch jobs never hold more than BATCH_RUN.site of them, so a
 * single buyer's photo always finds one. This file stays light (no engine): the maintenance imports it.
 */
export const BATCH_RUN = {
  site: Number(process.env.MAX_CONCURRENT_BATCH_JOBS) || 3,
  perOwner: 2,
  /** Longer than a render waits for a slot and runs; the job renews it while it works. */
  leaseSeconds: 240,
  renewMs: 30_000,
  /** A batch job waits this long for a render slot before it gives the photo back to the queue. */
  slotWaitMs: 120_000,
} as const;

export const BATCH_BACKGROUND_PATH = '/.netlify/functions/process-batch-item-background';
const JOB_PURPOSE = 'batch-item';
export const batchJobSignature = (id: string) => sign(JOB_PURPOSE, id);
export const isValidBatchJobSignature = (id: string, sig: unknown) => typeof sig === 'string' && verify(JOB_PURPOSE, id, sig);

const TRIGGER_TIMEOUT_MS = 10_000;
const runner = () => (process.env.BATCH_JOB_RUNNER?.trim() === 'inline' ? 'inline' : 'background');

/** Runs a claimed photo in this process, unawaited; without one (the maintenance) the photo goes back to the queue. */
export type InlineRunner = ((id: string) => void) | null;

/** Claims what may start and starts it. Returns the claimed item ids. */
export async function dispatchBatches(inline: InlineRunner, origin = deployOrigin()): Promise<string[]> {
  const ids = (await query<{ id: string }>('select batch_claim as id from batch_claim($1, $2, $3)', [BATCH_RUN.site, BATCH_RUN.perOwner, BATCH_RUN.leaseSeconds])).map((r) => r.id);
  await Promise.all(ids.map((id) => start(id, origin, inline)));
  return ids;
}

const giveBack = (id: string) =>
  query(`update batch_items set status = 'waiting', attempts = greatest(0, attempts - 1), lease_until = null where id = $1 and status = 'working'`, [id]);

async function start(id: string, origin: string | null, inline: InlineRunner): Promise<void> {
  const here = async () => (inline ? inline(id) : void (await giveBack(id)));
  if (runner() === 'inline' || !origin) return here();
  const outcome = await fetch(new URL(BATCH_BACKGROUND_PATH, origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, sig: batchJobSignature(id) }),
    signal: AbortSignal.timeout(TRIGGER_TIMEOUT_MS),
  }).then(
    (res) => (res.status === 202 || res.ok ? 'accepted' : `status ${res.status}`),
    (error: Error) => `error ${error.message}`,
  );
  if (outcome === 'accepted') return;
  console.warn(`[batch] background trigger failed (${outcome}); ${inline ? `running photo ${id} here` : `photo ${id} waits for the next dispatch`}`);
  await here();
}
