import { randomUUID } from 'node:crypto';
import { MSG } from '../../../src/lib/messages';
import { BATCH_LIMITS, type BatchItemStatus, type ScanSplit } from '../../../src/lib/tool/batch';
import { query, withTransaction } from '../db';
import { HttpError } from '../http';
import { getAllowance, refusalOf, type Allowance } from '../packages/allowance';
import { isOwner, newOwnerSecret, type OwnerProof } from '../tool/ownership';
import { getStorage } from '../storage';
import type { ScanPrints } from './scans';

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
  status: BatchItemStatus;
  upload_path: string | null;
  transformation_id: string | null;
  taken: boolean;
  note: string | null;
  error: string | null;
  attempts: number;
  result_bytes: string | null;
  scan_of: string | null;
  split: (ScanSplit & { keptWhole?: never }) | { keptWhole: string } | null;
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

/** A photo's place in a batch: it waits, works or is held for the buyer's choice (a split scan's prints). */
const PENDING = `i.status in ('waiting', 'working', 'held')`;

/**
 * Adds a photo (already checked by its header) to the batch: stored as uploaded, then queued. A package's batch holds at
 * most what the package has left, less the photos of its batches still pending (the allowance row is locked, so two
 * uploads cannot both take the last place); a batch without a package at most BATCH_LIMITS.withoutPackage.
 *
 * A scan of several prints (`scan`, from scanPrints) is kept as uploaded in `choosing` with its prints beside it in
 * `held`, each print one place: nothing runs until the buyer chooses (`chooseScan`). Without room for every print the
 * scan is kept whole, and says why. A scan the splitter doubted is queued whole with its reason.
 */
export async function addItem(
  batch: Batch,
  photo: { bytes: Buffer; name: string; ext: string; contentType: string },
  scan: ScanPrints | { keptWhole: string } | null = null,
): Promise<BatchItemRow> {
  const id = randomUUID();
  const uploadPath = `batches/${batch.id}/${id}.${photo.ext}`;
  const prints = scan && 'prints' in scan ? scan.prints.map((p) => ({ id: randomUUID(), jpeg: p.jpeg })) : [];
  const printPath = (printId: string) => `batches/${batch.id}/${printId}.jpg`;
  const paths = [uploadPath, ...prints.map((p) => printPath(p.id))];
  await getStorage().put(uploadPath, photo.bytes, photo.contentType);
  for (const p of prints) await getStorage().put(printPath(p.id), p.jpeg, 'image/jpeg');
  try {
    const row = await withTransaction(async (tx) => {
      await tx.query('select id from tool_batches where id = $1 for update', [batch.id]);
      const [{ n }] = (await tx.query<{ n: number }>(`select count(*)::int as n from batch_items i where batch_id = $1 and i.status <> 'split'`, [batch.id])) as [{ n: number }];
      let room: number;
      if (batch.allowanceId) {
        const a = await getAllowance(batch.allowanceId, { query: (sql, params) => tx.query(`${sql} for update`, params) });
        const refusal = a && refusalOf(a);
        if (!a || refusal) throw refusal ?? new HttpError(404, MSG.batchNotFound);
        const [{ pending }] = (await tx.query<{ pending: number }>(
          `select count(*)::int as pending from batch_items i join tool_batches b on b.id = i.batch_id where b.allowance_id = $1 and ${PENDING}`,
          [a.id],
        )) as [{ pending: number }];
        room = Math.min(a.imagesTotal - a.imagesUsed - pending, BATCH_LIMITS.maxItems - n);
        if (room <= 0) throw new HttpError(409, MSG.batchTooMany(0));
      } else {
        room = BATCH_LIMITS.withoutPackage - n;
        if (room <= 0) throw new HttpError(409, MSG.batchTooManyWithout(BATCH_LIMITS.withoutPackage));
      }
      const split = prints.length && prints.length <= room;
      const kept = scan && 'keptWhole' in scan ? scan.keptWhole : prints.length ? MSG.scanNoRoom(prints.length, room) : null;
      const [row] = await tx.query<BatchItemRow>(
        `insert into batch_items (id, batch_id, position, name, upload_path, status, split)
         values ($1, $2, coalesce((select max(position) + 1 from batch_items where batch_id = $2), 0), $3, $4, $5, $6) returning *`,
        [id, batch.id, photo.name, uploadPath, split ? 'choosing' : 'waiting', split ? JSON.stringify((scan as ScanPrints).split) : kept ? JSON.stringify({ keptWhole: kept }) : null],
      );
      if (split) {
        const base = photo.name.replace(/\.[a-z0-9]{1,5}$/i, '');
        for (const [i, p] of prints.entries()) {
          await tx.query(
            `insert into batch_items (id, batch_id, position, name, upload_path, status, scan_of)
             values ($1, $2, (select max(position) + 1 from batch_items where batch_id = $2), $3, $4, 'held', $5)`,
            [p.id, batch.id, `${base}, print ${i + 1}.jpg`, printPath(p.id), id],
          );
        }
      }
      return row!;
    });
    // Prints not used (no room): only the scan's upload stays.
    if (row.status === 'waiting' && prints.length) await getStorage().remove(paths.slice(1)).catch(() => {});
    return row;
  } catch (error) {
    await getStorage().remove(paths).catch(() => {});
    throw error;
  }
}

/**
 * The buyer's choice for a scan of several prints: `prints` queues its prints (the scan is then only their source),
 * `whole` drops them and queues the scan as one photo. Once: a scan no longer choosing answers 409.
 */
export async function chooseScan(batch: Batch, itemId: string, keep: 'prints' | 'whole'): Promise<void> {
  if (!UUID.test(itemId)) throw new HttpError(404, MSG.batchNotFound);
  const drop = await withTransaction(async (tx) => {
    const [scan] = await tx.query<{ upload_path: string | null }>(
      `select upload_path from batch_items where id = $1 and batch_id = $2 and status = 'choosing' for update`,
      [itemId, batch.id],
    );
    if (!scan) throw new HttpError(409, MSG.scanChosen);
    if (keep === 'prints') {
      await tx.query(`update batch_items set status = 'waiting' where scan_of = $1 and status = 'held'`, [itemId]);
      await tx.query(`update batch_items set status = 'split', upload_path = null where id = $1`, [itemId]);
      return scan.upload_path ? [scan.upload_path] : [];
    }
    const prints = await tx.query<{ upload_path: string | null }>(`delete from batch_items where scan_of = $1 returning upload_path`, [itemId]);
    await tx.query(`update batch_items set status = 'waiting' where id = $1`, [itemId]);
    return prints.map((p) => p.upload_path).filter((p): p is string => !!p);
  });
  if (drop.length) await getStorage().remove(drop).catch(() => {});
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
