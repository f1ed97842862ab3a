import { randomUUID } from 'node:crypto';
import { query } from '../../../../netlify/lib/db';
import { getStorage } from '../../../../netlify/lib/storage';
import { completeTransformation, createTransformation, type Transformation } from '../../../../netlify/lib/transformations';
import { newOwnerSecret } from '../../../../netlify/lib/tool/ownership';

/**
 * A finished transformation with a clean result and a preview in storage, as the image/video code leaves it. By
 * default a legacy item (made before owner secrets: no hash, anyone with its id may use it); `{ owned: true }`
 * gives it an owner secret as the tool does, returned as `ownerSecret` (what the creating browser keeps).
 */
export async function seedCompleted(kind: 'image' | 'video' = 'image', opts: { owned?: boolean } = {}): Promise<Transformation & { clean: Buffer; ownerSecret?: string }> {
  const owner = opts.owned ? newOwnerSecret() : null;
  const t = await createTransformation({ kind, model: 'test', prompt: 'make it colourful', ownerSecretHash: owner?.hash ?? null });
  const ext = kind === 'image' ? 'jpg' : 'mp4';
  const clean = Buffer.from(`clean ${kind} ${t.id} ${randomUUID()}`);
  await getStorage().put(`results/${t.id}.${ext}`, clean, kind === 'image' ? 'image/jpeg' : 'video/mp4');
  await getStorage().put(`previews/${t.id}.${ext}`, Buffer.from('watermarked'), kind === 'image' ? 'image/jpeg' : 'video/mp4');
  const done = await completeTransformation(t.id, { resultPath: `results/${t.id}.${ext}`, previewPath: `previews/${t.id}.${ext}` });
  return { ...done!, clean, ...(owner && { ownerSecret: owner.secret }) };
}

export async function countRows(): Promise<{ payments: number; items: number; purchased: number }> {
  const [row] = await query<{ payments: number; items: number; purchased: number }>(
    `select (select count(*)::int from payments) as payments,
            (select count(*)::int from payment_items) as items,
            (select count(*)::int from media_transformations where purchased) as purchased`,
  );
  return row!;
}

export const newKey = () => `test-${randomUUID()}`;
