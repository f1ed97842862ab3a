import { query } from '../db';
import { getStorage } from '../storage';
import { paths } from './media';
import { TAKEN_BY_LIVE_PACKAGE } from '../packages/allowance';
import { UPLOAD_URL_TTL_SECONDS } from '../storage/bucket';

/**
 * How long things nobody bought are kept. An upload grant is deleted with its file once its signed link has
 * expired (UPLOAD_TTL_SECONDS: the link's life plus a margin), processed or not: until then the link can be
 * used again, and whatever it brought must go too; an unpurchased result (original, previews, clean file,
 * reference photo, kept automatic pass) older than RESULT_RETENTION_DAYS is deleted with its row, unless a
 * live payment (pending, completed or refunded: a record to keep) lists it. A failed payment — an unpaid checkout that expired — releases its items: their
 * lines go with them. A purchased image's kept pass goes at once: its result is final, nothing re-renders it.
 */
export const UPLOAD_TTL_SECONDS = UPLOAD_URL_TTL_SECONDS + 10 * 60;
export const RESULT_RETENTION_DAYS = Number(process.env.RESULT_RETENTION_DAYS) || 30;

export async function expireUploads(olderThanSeconds = UPLOAD_TTL_SECONDS): Promise<number> {
  const rows = await query<{ upload_id: string }>(
    `delete from upload_grants where created_at < now() - make_interval(secs => $1::int) returning upload_id`,
    [olderThanSeconds],
  );
  if (rows.length) await getStorage().remove(rows.map((r) => paths.upload(r.upload_id)));
  return rows.length;
}

export async function expireUnpurchased(olderThanDays = RESULT_RETENTION_DAYS): Promise<number> {
  const rows = await query<{ id: string; original_path: string | null; result_path: string | null; preview_path: string | null; view: string | null; reference: string | null; pass: string | null }>(
    `with doomed as (
       select m.id from media_transformations m
        where not m.purchased and m.status in ('completed', 'failed')
          and m.created_at < now() - make_interval(days => $1::int)
          and not exists (
            select 1 from payment_items pi join payments p on p.id = pi.payment_id
             where pi.transformation_id = m.id and p.status <> 'failed')
     ), released as (
       delete from payment_items pi using doomed d where pi.transformation_id = d.id
     )
     delete from media_transformations m using doomed d where m.id = d.id
      returning m.id, m.original_path, m.result_path, m.preview_path,
                m.hints->>'originalViewPath' as view, m.hints->>'referencePath' as reference, m.hints->>'passPath' as pass`,
    [olderThanDays],
  );
  const files = rows.flatMap((r) => [r.original_path, r.result_path, r.preview_path, r.view ?? paths.originalView(r.id), r.reference, r.pass]);
  if (files.length) await getStorage().remove(files.filter((f): f is string => !!f));
  return rows.length;
}

/**
 * Deletes the kept automatic passes of purchased images (nothing re-renders a bought result); a result a package took
 * keeps its pass while the package can be used (its heal and hints stay open), and loses it after.
 */
export async function dropPurchasedPasses(): Promise<number> {
  const rows = await query<{ pass: string }>(
    `with bought as (
       select id, hints->>'passPath' as pass from media_transformations
        where purchased and hints ? 'passPath' and not ${TAKEN_BY_LIVE_PACKAGE} for update)
     update media_transformations m set hints = m.hints - 'passPath'
       from bought where m.id = bought.id
     returning bought.pass`,
  );
  if (rows.length) await getStorage().remove(rows.map((r) => r.pass));
  return rows.length;
}
