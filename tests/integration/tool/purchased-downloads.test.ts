import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import processImage from '../../../netlify/functions/process-image.mts';
import transformations from '../../../netlify/functions/transformations.mts';
import checkout from '../../../netlify/functions/checkout.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import files from '../../../netlify/functions/files.mts';
import { query } from '../../../netlify/lib/db';
import { downloadToken } from '../../../netlify/lib/orders/tokens';
import { getStorage } from '../../../netlify/lib/storage';
import { createTransformation } from '../../../netlify/lib/transformations';
import { MSG } from '../../../src/lib/messages';
import { previewUrl } from '../../../src/lib/tool/constants';
import { startEmbedded } from '../platform/helpers/backends';
import { newKey, seedCompleted } from '../platform/helpers/seed';
import { BASE, cartItem, greyPhoto, keepOwner, multipart, owner } from '../../support/tool-helpers';

// What the tool page relies on after a purchase: a saved result loads again from GET /api/transformations/{id},
// thumbnails and preview downloads go through /api/transformations/{id}/preview (a redirect to a fresh signed
// URL), and the checkout's download links give the clean file only while the item is in a completed payment.
type Handler = (req: Request, context: unknown) => Promise<Response>;
/** A GET as the browser that made the item sends it (its owner secret, for the status read). */
const get = (handler: Handler, path: string) => {
  const id = /^\/api\/transformations\/([^/?]+)$/.exec(path)?.[1];
  return handler(new Request(new URL(path, BASE), { headers: id ? owner(id) : {} }), {});
};
const bytesOf = async (res: Response) => Buffer.from(await res.arrayBuffer());
const buy = async (...ids: string[]) =>
  (
    await checkout(
      new Request(`${BASE}/api/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: ids.map(cartItem), idempotencyKey: newKey() }),
      }),
      {},
    )
  ).json() as Promise<{ paymentId: string; downloads: { transformationId: string; url: string }[] }>;

let platform: Awaited<ReturnType<typeof startEmbedded>>;
beforeAll(async () => {
  platform = await startEmbedded();
});
afterAll(async () => {
  await platform?.stop();
});

describe('a result after its purchase', () => {
  it('loads again with fresh URLs, previews through the stable route, and downloads clean once bought', async () => {
    const made = keepOwner(await (
      await processImage(
        new Request(`${BASE}/api/process-image`, {
          method: 'POST',
          body: multipart({ file: { name: 'old.png', type: 'image/png', bytes: await greyPhoto() }, model: 'sd-xl', prompt: 'Colour this old photo naturally' }),
        }),
        {},
      )
    ).json());
    const id: string = made.transformationId;
    expect(made.success, JSON.stringify(made)).toBe(true);

    // What the image tab reloads a saved result from: process-image's answer, with its own fresh URLs.
    const saved = await get(transformations, `/api/transformations/${id}`);
    expect(saved.status).toBe(200);
    const status = await saved.json();
    expect(status).toMatchObject({ success: true, kind: 'image', status: 'completed', purchased: false, width: made.width, height: made.height, hints: [] });
    expect(status.originalUrl).toMatch(/^\/api\/files\/previews\/.+\.original\.jpg\?/);
    expect(status.processedUrl).toMatch(/^\/api\/files\/previews\/.+\.jpg\?/);

    // The stable preview route: a redirect to a freshly signed URL of the watermarked preview.
    const redirect = await get(transformations, previewUrl(id));
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('cache-control')).toBe('no-store');
    const location = redirect.headers.get('location')!;
    expect(location).toMatch(new RegExp(`^/api/files/previews/${id}\\.jpg\\?`));
    expect(Number(new URL(location, BASE).searchParams.get('exp'))).toBeGreaterThan(Date.now() / 1000 + 3000);
    const preview = await bytesOf(await get(files, location));
    const clean = (await getStorage().get(`results/${id}.jpg`))!;
    expect(preview.equals((await getStorage().get(`previews/${id}.jpg`))!)).toBe(true);
    expect(preview.equals(clean)).toBe(false);

    // Bought: the checkout's link for this item gives the clean bytes, not the preview.
    const order = await buy(id);
    const link = order.downloads.find((d) => d.transformationId === id)!.url;
    const file = await get(downloads, link);
    expect(file.status).toBe(200);
    const bought = await bytesOf(file);
    expect(bought.equals(clean)).toBe(true);
    expect(bought.equals(preview)).toBe(false);
    expect((await (await get(transformations, `/api/transformations/${id}`)).json()).purchased).toBe(true);
  });

  it('gives a bought video its clean MP4 and keeps its preview route', async () => {
    const video = await seedCompleted('video');
    const redirect = await get(transformations, previewUrl(video.id));
    expect(redirect.status).toBe(302);
    expect((await bytesOf(await get(files, redirect.headers.get('location')!))).toString()).toBe('watermarked');
    const order = await buy(video.id);
    const file = await get(downloads, order.downloads[0]!.url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('video/mp4');
    expect(await bytesOf(file)).toEqual(video.clean);
  });
});

describe('refusals', () => {
  const refused = async (path: string) => {
    const res = await get(downloads, path);
    return { status: res.status, error: (await res.json()).error };
  };
  const forbidden = { status: 403, error: MSG.downloadForbidden };

  it('refuses the clean file of an item that is not in a completed payment, even with its real token', async () => {
    const item = await seedCompleted();
    const path = `/api/downloads/${item.id}?token=${downloadToken(crypto.randomUUID(), item.id)}`;
    expect(await refused(path)).toEqual(forbidden);
    // A purchased flag without any payment behind it is not enough.
    await query('update media_transformations set purchased = true where id = $1', [item.id]);
    expect(await refused(path)).toEqual(forbidden);
  });

  it('stops serving the clean file once its payment is no longer completed', async () => {
    const item = await seedCompleted();
    const order = await buy(item.id);
    const link = order.downloads[0]!.url;
    expect((await get(downloads, link)).status).toBe(200);
    await query(`update payments set status = 'refunded' where id = $1`, [order.paymentId]);
    expect(await refused(link)).toEqual(forbidden);
  });

  it('answers 400 with the schema message for malformed ids, 404 for unknown or unfinished ones', async () => {
    for (const [handler, path] of [
      [downloads, '/api/downloads/nope?token=x'],
      [downloads, `/api/downloads/${'1'.repeat(36)}?token=x`],
      [transformations, '/api/transformations/nope'],
      [transformations, '/api/transformations/nope/preview'],
    ] as const) {
      const res = await get(handler, path);
      expect(res.status, path).toBe(400);
      expect(await res.json()).toEqual({ success: false, error: MSG.invalidTransformationId });
    }
    const broken = await get(transformations, '/api/transformations/%E0%A4%A/preview');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ success: false, error: MSG.badPathEncoding });
    const unknown = crypto.randomUUID();
    expect(await (await get(transformations, previewUrl(unknown))).json()).toEqual({ success: false, error: MSG.previewNotFound });
    expect((await get(transformations, `/api/transformations/${unknown}`)).status).toBe(404);
    const queued = await createTransformation({ kind: 'video' });
    const unfinished = await get(transformations, previewUrl(queued.id));
    expect(unfinished.status).toBe(404);
  });
});
