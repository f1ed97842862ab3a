import { MSG } from '../../../src/lib/messages';
import { query } from '../db';
import { HttpError } from '../http';
import { getAllowance, takeResult } from '../packages/allowance';
import { getStorage } from '../storage';
import { imageModelSchema } from '../../../engines/image';
import { processImage } from '../tool/image';
import type { BatchItemRow } from './store';
import { BATCH_RUN, dispatchBatches } from './dispatch';

/** The jobs running inline in this process (tests wait for them; a bench counts them). */
export const inlineJobs = new Set<Promise<unknown>>();

function runInline(id: string): void {
  const job = runBatchItem(id).finally(() => inlineJobs.delete(job));
  inlineJobs.add(job);
}

/** Claims what may start and starts it, running a photo here when no background function takes it. */
export const dispatchAndRun = () => dispatchBatches(runInline);

/** One photo of a batch, run to its end (see dispatch.ts for how photos are started). */
interface Claimed extends BatchItemRow {
  [key: string]: unknown;
  model: string;
  prompt: string | null;
  allowance_id: string | null;
  owner_secret_hash: string | null;
}

/** Why a photo failed, in the buyer's words: the engine's message, or a general one (details go to the log). */
function failureText(error: unknown): string {
  if (error instanceof HttpError) return error.message;
  console.error('[batch] a photo failed:', error);
  return MSG.imageError();
}

/**
 * Runs one claimed photo to its end: restores it for the batch's owner, takes it with the package (one image; a
 * failed job takes none), records the outcome, frees the upload, then dispatches the queue again. A busy restorer
 * gives the photo back to the queue rather than failing it. Never throws.
 */
export async function runBatchItem(id: string): Promise<void> {
  const [item] = await query<Claimed>(
    `select i.*, b.model, b.prompt, b.allowance_id, b.owner_secret_hash
       from batch_items i join tool_batches b on b.id = i.batch_id where i.id = $1 and i.status = 'working'`,
    [id],
  ).catch(() => []);
  if (!item) return;
  const renew = setInterval(
    () => void query(`update batch_items set lease_until = now() + make_interval(secs => $2) where id = $1 and status = 'working'`, [id, BATCH_RUN.leaseSeconds]).catch(() => {}),
    BATCH_RUN.renewMs,
  );
  try {
    const bytes = item.upload_path ? await getStorage().get(item.upload_path) : null;
    if (!bytes) throw new HttpError(410, MSG.batchRetryGone);
    let resultBytes: number | null = null;
    const answer = await processImage(
      bytes,
      { model: imageModelSchema.parse(item.model), prompt: item.prompt ?? '' },
      { allowanceId: item.allowance_id, ownerSecretHash: item.owner_secret_hash, slotWaitMs: BATCH_RUN.slotWaitMs, onStored: (n) => (resultBytes = n) },
    );
    let note: string | null = null;
    if (item.allowance_id) {
      const a = await getAllowance(item.allowance_id);
      note = a ? await takeResult(a, answer.transformationId).then(() => null, (error: unknown) => (error instanceof HttpError ? error.message : MSG.imageError())) : MSG.packageLinkInvalid;
    }
    await query(
      `update batch_items set status = 'done', transformation_id = $2, taken = $3, note = $4, result_bytes = $5, lease_until = null, upload_path = null
        where id = $1 and status = 'working'`,
      [id, answer.transformationId, !!item.allowance_id && note === null, note, resultBytes],
    );
    if (item.upload_path) await getStorage().remove([item.upload_path]).catch(() => {});
  } catch (error) {
    const busy = error instanceof HttpError && error.status === 503;
    await query(
      busy
        ? `update batch_items set status = 'waiting', attempts = greatest(0, attempts - 1), lease_until = null where id = $1 and status = 'working'`
        : `update batch_items set status = 'failed', error = $2, lease_until = null where id = $1 and status = 'working'`,
      busy ? [id] : [id, failureText(error)],
    ).catch((e: Error) => console.error('[batch] could not record a photo’s outcome:', e.message));
  } finally {
    clearInterval(renew);
  }
  await dispatchAndRun().catch((error: Error) => console.error('[batch] could not dispatch the queue:', error.message));
}
