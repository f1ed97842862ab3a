import { randomUUID } from 'node:crypto';
import { MSG } from '../../../src/lib/messages';
import { BATCH_LIMITS } from '../../../src/lib/tool/batch';
import { query, withTransaction } from '../db';
import { HttpError } from '../http';
import { getAllowance, refusalOf, type Allowance } from '../packages/allowance';
import { isOwner, newOwnerSecret, type OwnerProof } from '../tool/ownership';
import { getStorage } from '../storage';

/**
 * The batch tables (`tool_batches`, `batch_items`; supabase/migrations/*_package_allowances.sql): a batch belongs to a
 * package allowance (its link is the key) or, without one, to the browser that made it (an owner secret, as items).
 * A photo is stored as uploaded under `batches/<batch>/<item>.<ext>` until its job has made the result.
 */
export interface Batch {
  id: string;
  allowanceId: string | null;
  ownerSecretHash: string | null;
  model: string;
  prompt: string | null;
  createdAt: Date;
}

export interface BatchItemRow {
  [key: string]: unknown;
  id: string;
  batch_id: string;
  position: number;
  name: string;
  status: 'waiting' | 'working' | 'done' | 'failed';
  upload_path: string | null;
  transformation_id: string | null;
  taken: boolean;
  note: string | null;
  error: string | null;
  attempts: number;
  result_bytes: string | null;
}

const BATCH_COLUMNS = `id, allowance_id as "allowanceId", owner_secret_hash as "ownerSecretHash", model, prompt, created_at as "createdAt"`;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function getBatch(id: string): Promise<Batch | null> {
  if (!UUID.test(id)) return null;
  return (await query<Batch & Record<string, unknown>>(`select ${BATCH_COLUMNS} from tool_batches where id = $1`, [id]))[0] ?? null;
}

/** The batch, when the proof owns it (its package's key, or the secret of the browser that made it); else 404 for both. */
export async function ownedBatch(id: string, proof: OwnerProof): Promise<Batch> {
  const batch = await getBatch(id);
  if (!batch || !isOwner({ ownerSecretHash: batch.ownerSecretHash, allowanceId: batch.allowanceId }, proof)) throw new HttpError(404, MSG.batchNotFound);
  return batch;
}

/** A new batch: a package's (the allowance must be usable) or this browser's, with its secret handed once. */
export async function createBatch(opts: { allowance: Allowance | null; model: string; prompt: string }): Promise<{ batch: Batch; ownerSecret?: string }> {
  if (opts.allowance) {
    const refusal = refusalOf(opts.allowance);
    if (refusal) throw refusal;
  }
  const owner = opts.allowance ? null : newOwnerSecret();
  const [batch] = await query<Batch & Record<string, unknown>>(
    `insert into tool_batches (allowance_id, owner_secret_hash, model, prompt) values ($1, $2, $3, $4) returning ${BATCH_COLUMNS}`,
    [opts.allowance?.id ?? null, owner?.hash ?? null, opts.model, opts.prompt],
  );
  return { batch: batch!, ...(owner && { ownerSecret: owner.secret }) };
}

/** The package's batches, newest first (the tool resumes the newest). */
export const batchesOfAllowance = (allowanceId: string) =>
  query<Batch & Record<string, unknown>>(`select ${BATCH_COLUMNS} from tool_batches where allowance_id = $1 order by created_at desc limit 20`, [allowanceId]);

export const itemsOf = (batchId: string) =>
  query<BatchItemRow>(`select * from batch_items where batch_id = $1 order by position`, [batchId]);

/**
 * Adds a photo (already checked by its header) to the batch: stored as uploaded, then queued. A package's batch holds at
 * most what the package has left, less the photos of its batches still waiting or working (the allowance row is
 * locked, so two uploads cannot both take the last place); a batch without a package at most BATCH_LIMITS.withoutPackage.
 */
export async function addItem(batch: Batch, photo: { bytes: Buffer; name: string; ext: string; contentType: string }): Promise<BatchItemRow> {
  const id = randomUUID();
  const uploadPath = `batches/${batch.id}/${id}.${photo.ext}`;
  await getStorage().put(uploadPath, photo.bytes, photo.contentType);
  try {
    return await withTransaction(async (tx) => {
      await tx.query('select id from tool_batches where id = $1 for update', [batch.id]);
      const [{ n }] = (await tx.query<{ n: number }>('select count(*)::int as n from batch_items where batch_id = $1', [batch.id])) as [{ n: number }];
      if (batch.allowanceId) {
        const a = await getAllowance(batch.allowanceId, { query: (sql, params) => tx.query(`${sql} for update`, params) });
        const refusal = a && refusalOf(a);
        if (!a || refusal) throw refusal ?? new HttpError(404, MSG.batchNotFound);
        const [{ pending }] = (await tx.query<{ pending: number }>(
          `select count(*)::int as pending from batch_items i join tool_batches b on b.id = i.batch_id
            where b.allowance_id = $1 and i.status in ('waiting', 'working')`,
          [a.id],
        )) as [{ pending: number }];
        const room = a.imagesTotal - a.imagesUsed - pending;
        if (room <= 0) throw new HttpError(409, MSG.batchTooMany(0));
        if (n >= BATCH_LIMITS.maxItems) throw new HttpError(409, MSG.batchTooMany(0));
      } else if (n >= BATCH_LIMITS.withoutPackage) {
        throw new HttpError(409, MSG.batchTooManyWithout(BATCH_LIMITS.withoutPackage));
      }
      const [row] = await tx.query<BatchItemRow>(
        `insert into batch_items (id, batch_id, position, name, upload_path)
         values ($1, $2, coalesce((select max(position) + 1 from batch_items where batch_id = $2), 0), $3, $4) returning *`,
        [id, batch.id, photo.name, uploadPath],
      );
      return row!;
    });
  } catch (error) {
    await getStorage().remove([uploadPath]).catch(() => {});
    throw error;
  }
}

/** Retry: a failed photo whose upload is still kept goes back to the queue (its attempts start again). */
export async function retryItem(batch: Batch, itemId: string): Promise<void> {
  if (!UUID.test(itemId)) throw new HttpError(404, MSG.batchNotFound);
  const rows = await query(
    `update batch_items set status = 'waiting', error = null, attempts = 0
      where id = $1 and batch_id = $2 and status = 'failed' and upload_path is not null returning id`,
    [itemId, batch.id],
  );
  if (rows.length === 0) throw new HttpError(409, MSG.batchRetryGone);
}
