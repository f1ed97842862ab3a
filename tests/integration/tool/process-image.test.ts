import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import processImage from '../../../netlify/functions/process-image.mts';
import imageHints from '../../../netlify/functions/image-hints.mts';
import toolUploads from '../../../netlify/functions/tool-uploads.mts';
import uploads from '../../../netlify/functions/uploads.mts';
import files from '../../../netlify/functions/files.mts';
import checkout from '../../../netlify/functions/checkout.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import { query } from '../../../netlify/lib/db';
import { getStorage } from '../../../netlify/lib/storage';
import { getTransformation } from '../../../netlify/lib/transformations';
import { MSG } from '../../../src/lib/messages';
import { ITEM_PRICES } from '../../../src/lib/catalog';
import { startEmbedded } from '../platform/helpers/backends';
import { newKey } from '../platform/helpers/seed';
import { BASE, cartItem, greyPhoto, keepOwner, multipart, owner, pngBombHeader } from '../../support/tool-helpers';

let platform: Awaited<ReturnType<typeof startEmbedded>>;
beforeAll(async () => {
  platform = await startEmbedded();
});
afterAll(async () => {
  await platform?.stop();
});

const post = (body: FormData | object) =>
  processImage(
    new Request(`${BASE}/api/process-image`, {
      method: 'POST',
      ...(body instanceof FormData
        ? { body }
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    }),
    {},
  );
const fetchUrl = async (handler: (req: Request, ctx: unknown) => Promise<Response>, url: string) =>
  handler(new Request(new URL(url, BASE)), {});
const rowCount = async () => (await query<{ n: number }>('select count(*)::int as n from media_transformations'))[0]!.n;
const storedFiles = async () => {
  const { readdir } = await import('node:fs/promises');
  const dir = process.env.STORAGE_DIR!;
  return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).length;
};
const PROMPT = 'Turn this image into color and enhance its quality with natural-looking details';

describe('POST /api/process-image', () => {
  it('restores a greyscale photo: preview served, clean file only after purchase', async () => {
    const png = await greyPhoto();
    const res = await post(multipart({ file: { name: 'old.png', type: 'image/png', bytes: png }, model: 'sd-xl', prompt: PROMPT }));
    const body = keepOwner(await res.json());
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ success: true, error: null });
    expect(body.processedUrl).toMatch(/^\/api\/files\/previews\/.+\.jpg\?.*t=\d+/);
    expect(body.originalUrl).toMatch(/^\/api\/files\/previews\/.+\.original\.jpg\?/);

    const t = (await getTransformation(body.transformationId))!;
    expect(t).toMatchObject({ status: 'completed', progress: 1, kind: 'image', model: 'sd-xl', purchased: false });
    expect(t.originalPath).toMatch(/^originals\/.+\.png$/);
    expect((await getStorage().get(t.originalPath!))!.equals(png)).toBe(true);
    const clean = (await getStorage().get(t.resultPath!))!;
    const preview = await fetchUrl(files, body.processedUrl);
    expect(preview.status).toBe(200);
    const previewBytes = Buffer.from(await preview.arrayBuffer());
    expect(previewBytes.equals(clean)).toBe(false);
    expect((await sharp(previewBytes).metadata()).format).toBe('jpeg');
    // The result is in colour now.
    const stats = await sharp(clean).stats();
    expect(stats.channels.length).toBeGreaterThanOrEqual(3);

    // Not downloadable before purchase, even with a valid-looking link.
    const before = await fetchUrl(downloads, `/api/downloads/${t.id}?token=x`);
    expect(before.status).toBe(403);

    const paid = await checkout(
      new Request(`${BASE}/api/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: [cartItem(t.id)], idempotencyKey: newKey() }),
      }),
      {},
    );
    const order = await paid.json();
    expect(order).toMatchObject({ success: true, amount: ITEM_PRICES.image });
    const file = await fetchUrl(downloads, order.downloads[0].url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(clean)).toBe(true);
    expect(file.headers.get('content-type')).toBe('image/jpeg');

    // Hints are refused after purchase.
    const late = await imageHints(
      new Request(`${BASE}/api/transformations/${t.id}/hints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...owner(t.id) },
        body: JSON.stringify({ hints: [{ x: 0.5, y: 0.5, color: '#ff0000' }] }),
      }),
      {},
    );
    expect(late.status).toBe(409);
  });

  it('stores colour hints and re-renders the result', async () => {
    const png = await greyPhoto();
    const first = keepOwner(await (await post(multipart({ file: { name: 'a.png', type: 'image/png', bytes: png }, model: 'sd-v1.5', prompt: PROMPT }))).json());
    const id = first.transformationId;
    const cleanBefore = (await getStorage().get(`results/${id}.jpg`))!;
    const hints = [{ x: 0.5, y: 0.6, color: '#d02020' }, { x: 0.1, y: 0.1, color: '#2060ff' }];
    const res = await imageHints(
      new Request(`${BASE}/api/transformations/${id}/hints`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...owner(id) },
        body: JSON.stringify({ hints }),
      }),
      {},
    );
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.hints).toEqual(hints);
    expect(body.processedUrl).toMatch(/previews\//);
    const t = (await getTransformation(id))!;
    expect((t.hints as { colorHints: unknown }).colorHints).toEqual(hints);
    const cleanAfter = (await getStorage().get(`results/${id}.jpg`))!;
    expect(cleanAfter.equals(cleanBefore)).toBe(false);
  });

  it('takes files over the inline limit through a signed upload', async () => {
    const jpeg = await greyPhoto(400, 300, 'jpeg');
    const grant = await (
      await toolUploads(
        new Request(`${BASE}/api/tool-uploads`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ kind: 'image', contentType: 'image/jpeg', size: jpeg.length }),
        }),
        {},
      )
    ).json();
    expect(grant).toMatchObject({ success: true, upload: { method: 'PUT' } });
    const put = await uploads(
      new Request(new URL(grant.upload.url, BASE), { method: 'PUT', headers: grant.upload.headers, body: new Uint8Array(jpeg) }),
      {},
    );
    expect(put.status).toBe(200);
    const res = await post({ uploadId: grant.uploadId, model: 'kandinsky-2', prompt: PROMPT });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.originalUrl).toMatch(/\.original\.jpg/);
    expect(await getStorage().get(`uploads/${grant.uploadId}`)).toBeNull();
  });

  it('accepts TIFF and shows its original as a browser-friendly JPEG', async () => {
    const tiff = await sharp(await greyPhoto(200, 150)).tiff().toBuffer();
    const res = await post(multipart({ file: { name: 'scan.tif', type: 'image/tiff', bytes: tiff }, model: 'sd-v1.5', prompt: PROMPT }));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    const original = await fetchUrl(files, body.originalUrl);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    const t = (await getTransformation(body.transformationId))!;
    expect(t.originalPath).toMatch(/\.tif$/);
  });

  it('refuses bad inputs with the messages of src/lib/messages.ts and stores nothing', async () => {
    const rows = await rowCount();
    const stored = await storedFiles();
    const text = Buffer.from('this is not an image at all, just text pretending to be a jpeg');
    const cases: [FormData, number, string][] = [
      [multipart({ file: { name: 'photo.jpg', type: 'image/jpeg', bytes: text }, model: 'sd-xl', prompt: PROMPT }), 400, MSG.imageInvalidType],
      [multipart({ file: { name: 'bomb.png', type: 'image/png', bytes: pngBombHeader() }, model: 'sd-xl', prompt: PROMPT }), 413, ''],
      [multipart({ file: { name: 'a.png', type: 'image/png', bytes: await greyPhoto(32, 32) }, model: 'sd-xl', prompt: 'x'.repeat(201) }), 400, MSG.imagePromptMax],
      [multipart({ file: { name: 'a.png', type: 'image/png', bytes: await greyPhoto(32, 32) }, model: 'sd-xl', prompt: 'abc' }), 400, MSG.imagePromptMin],
      [multipart({ file: { name: 'a.png', type: 'image/png', bytes: await greyPhoto(32, 32) }, model: '', prompt: PROMPT }), 400, MSG.selectModel],
      [multipart({ model: 'sd-xl', prompt: PROMPT }), 400, MSG.uploadFirst],
    ];
    for (const [form, status, message] of cases) {
      const res = await post(form);
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(body.success).toBe(false);
      if (message) expect(body.error).toContain(message);
    }
    expect(await rowCount()).toBe(rows);
    expect(await storedFiles()).toBe(stored);
  });
});
