import { query } from '../db';
import { RESULT_RETENTION_DAYS } from '../tool/retention';
import { getStorage } from '../storage';

/**
 * A batch photo keeps its upload until its job has made the result (then it goes at once), so Retry works after a
 * failure; a failed photo nobody retried (or a scan whose split nobody chose, and its prints) loses its upload after
 * RESULT_RETENTION_DAYS, like an unbought result. The
 * batch's rows stay (its list of names and states). Returns how many uploads were deleted.
 */
export async function expireBatchUploads(olderThanDays = RESULT_RETENTION_DAYS): Promise<number> {
  const rows = await query<{ path: string }>(
    `with old as (
       select id, upload_path as path from batch_items
        where status in ('failed', 'choosing', 'held') and upload_path is not null and updated_at < now() - make_interval(days => $1::int) for update)
     update batch_items i set upload_path = null from old where i.id = old.id returning old.path`,
    [olderThanDays],
  );
  if (rows.length) await getStorage().remove(rows.map((r) => r.path));
  return rows.length;
}
