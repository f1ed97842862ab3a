import { query } from '../db';

/** Signed upload grants, recorded so the maintenance can delete uploads never processed (retention.ts). */
export async function recordUploadGrant(uploadId: string): Promise<void> {
  await query('insert into upload_grants (upload_id) values ($1) on conflict do nothing', [uploadId]);
}

export async function forgetUploadGrant(uploadId: string): Promise<void> {
  await query('delete from upload_grants where upload_id = $1', [uploadId]);
}
