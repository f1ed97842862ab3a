import { query } from '../db';

/**
 * Signed upload grants, recorded so the maintenance can delete every upload once its link has expired
 * (retention.ts), processed or not: a signed link can be used again until it expires, and what a second PUT
 * leaves must not stay in storage for ever. Processing marks the grant used, so an upload is processed once.
 */
export async function recordUploadGrant(uploadId: string): Promise<void> {
  await query('insert into upload_grants (upload_id) values ($1) on conflict do nothing', [uploadId]);
}

/** Marks the grant used; false when there is none or it was used already. */
export async function claimUploadGrant(uploadId: string): Promise<boolean> {
  return (await query(`update upload_grants set used_at = now() where upload_id = $1 and used_at is null returning upload_id`, [uploadId])).length > 0;
}

/** Whether the grant exists and its upload has not been processed yet (the local upload endpoint's check). */
export async function isUploadGrantOpen(uploadId: string): Promise<boolean> {
  return (await query(`select 1 from upload_grants where upload_id = $1 and used_at is null`, [uploadId])).length > 0;
}
