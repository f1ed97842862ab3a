import { randomUUID } from 'node:crypto';
import { query } from '../../../../netlify/lib/db';
import { getStorage } from '../../../../netlify/lib/storage';
import { completeTransformation, createTransformation, type Transformation } from '../../../../netlify/lib/transformations';

/** A finished transformation with a clean result and a preview in storage, as the image/video code leaves it. */
export async function seedCompleted(kind: 'image' | 'video' = 'image'): Promise<Transformation & { clean: Buffer }> {
  const t = await createTransformation({ kind, model: 'test', prompt: 'make it colourful' });
  const ext = kind === 'image' ? 'jpg' : 'mp4';
  const clean = Buffer.from(`clean ${kind} ${t.id} ${randomUUID()}`);
  await getStorage().put(`results/${t.id}.${ext}`, clean, kind === 'image' ? 'image/jpeg' : 'video/mp4');
  await getStorage().put(`previews/${t.id}.${ext}`, Buffer.from('watermarked'), kind === 'image' ? 'image/jpeg' : 'video/mp4');
  const done = await completeTransformation(t.id, { resultPath: `results/${t.id}.${ext}`, previewPath: `previews/${t.id}.${ext}` });
  return { ...done!, clean };
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
