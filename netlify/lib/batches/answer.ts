import { MSG } from '../../../src/lib/messages';
import { expiryDate } from '../../../src/lib/packages';
import { batchUrl, type BatchAnswer, type BatchItem, type BatchItemStatus, type ZipPart } from '../../../src/lib/tool/batch';
import { query } from '../db';
import { getAllowance, takenDownloadUrl, type Allowance } from '../packages/allowance';
import { batchZipToken } from '../packages/tokens';
import { itemsOf, type Batch, type BatchItemRow } from './store';
import { planParts, type ZipEntry } from './zip';

/** What `batch_claim` records when a package can spend nothing more, in the buyer's words. */
function errorText(error: string | null, a: Allowance | null): string | null {
  if (error === 'used-up') return MSG.packageUsedUp;
  if (error === 'revoked') return MSG.packageRevoked;
  if (error === 'expired') return a ? MSG.packageExpired(expiryDate(a.expiresAt.toISOString())) : MSG.packageExpiredShort;
  return error;
}

/** The taken results of a package's batch, in its order, for the ZIP. */
export async function zipEntries(batch: Batch): Promise<ZipEntry[]> {
  if (!batch.allowanceId) return [];
  const rows = await query<{ transformation_id: string; name: string; result_path: string; result_bytes: string | null; created_at: Date }>(
    `select i.transformation_id, i.name, m.result_path, i.result_bytes, m.created_at
       from batch_items i join media_transformations m on m.id = i.transformation_id
       join allowance_takes k on k.transformation_id = m.id and k.allowance_id = $2
      where i.batch_id = $1 and i.status = 'done' and m.result_path is not null
      order by i.position`,
    [batch.id, batch.allowanceId],
  );
  return rows.map((r) => ({ transformationId: r.transformation_id, name: r.name, resultPath: r.result_path, bytes: r.result_bytes === null ? null : Number(r.result_bytes), createdAt: r.created_at }));
}

/** GET /api/batches/{id}: every photo's state, and the ZIP's parts of what the package took. */
export async function batchAnswer(batch: Batch): Promise<BatchAnswer> {
  const [rows, a] = await Promise.all([itemsOf(batch.id), batch.allowanceId ? getAllowance(batch.allowanceId) : null]);
  const counts: Record<BatchItemStatus, number> = { waiting: 0, working: 0, done: 0, failed: 0, choosing: 0, held: 0, split: 0 };
  const items: BatchItem[] = rows.map((r: BatchItemRow) => {
    counts[r.status]++;
    return {
      id: r.id,
      position: r.position,
      name: r.name,
      status: r.status,
      error: r.status === 'failed' ? errorText(r.error, a) : null,
      transformationId: r.transformation_id,
      taken: r.taken,
      note: r.note,
      downloadUrl: r.taken && a && r.transformation_id ? takenDownloadUrl(a, r.transformation_id) : null,
      scanOf: r.scan_of,
      split: r.split && 'prints' in r.split ? { prints: r.split.prints } : null,
      keptWhole: r.split && 'keptWhole' in r.split ? (r.split.keptWhole ?? null) : null,
    };
  });
  const zip: ZipPart[] = a
    ? planParts(await zipEntries(batch)).map((p) => ({
        part: p.part,
        count: p.entries.length,
        bytes: p.bytes,
        url: `${batchUrl(batch.id, 'zip')}?part=${p.part}&token=${encodeURIComponent(batchZipToken(batch.id, a.id, a.linkVersion))}`,
      }))
    : [];
  return { success: true, batchId: batch.id, createdAt: batch.createdAt.toISOString(), items, counts, zip };
}
