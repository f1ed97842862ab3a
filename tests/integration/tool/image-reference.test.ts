import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import processImage from '../../../netlify/functions/process-image.mts';
import imageHints from '../../../netlify/functions/image-hints.mts';
import imageReference from '../../../netlify/functions/image-reference.mts';
import checkout from '../../../netlify/functions/checkout.mts';
import { getStorage } from '../../../netlify/lib/storage';
import { getTransformation } from '../../../netlify/lib/transformations';
import { rgbBufferToLab } from '../../../engines/shared';
import { MSG } from '../../../src/lib/messages';
import { useEmbeddedPlatform } from '../platform/helpers/backends';
import { newKey } from '../platform/helpers/seed';
import { BASE, cartItem, colourScene, greyPhoto, keepOwner, multipart, owner } from '../../support/tool-helpers';

// The buyer's colour reference photo: POST/DELETE /api/transformations/{id}/reference against the embedded
// database and storage.
useEmbeddedPlatform();

const PROMPT = 'Turn this image into color and enhance its quality with natural-looking details';
const W = 320, H = 240;

async function restore(bytes: Buffer, name = 'old.png'): Promise<string> {
  const res = await processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', body: multipart({ file: { name, type: 'image/png', bytes }, model: 'sd-xl', prompt: PROMPT }) }), {});
  const body = keepOwner(await res.json());
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.transformationId;
}

const reference = (id: string, bytes?: Buffer, method = 'POST') =>
  imageReference(
    new Request(`${BASE}/api/transformations/${id}/reference`, {
      method,
      headers: owner(id),
      ...(method === 'POST' ? { body: multipart(bytes ? { file: { name: 'ref.png', type: 'image/png', bytes } } : {}) } : {}),
    }),
    {},
  );

/** Mean a*, b* of the clean result over the sky (top band) and the subject (centre of the disc). */
async function regions(id: string) {
  const { data, info } = await sharp((await getStorage().get(`results/${id}.jpg`))!).resize(W, H, { fit: 'fill' }).raw().toBuffer({ resolveWithObject: true });
  const lab = rgbBufferToLab(data, W, H, info.channels);
  const mean = (inside: (x: number, y: number) => boolean) => {
    let a = 0, b = 0, n = 0;
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) if (inside(x, y)) { a += lab.a[y * W + x]; b += lab.b[y * W + x]; n++; }
    return { a: a / n, b: b / n };
  };
  return {
    sky: mean((x, y) => y > H * 0.04 && y < H * 0.25 && x > W * 0.05 && x < W * 0.95),
    subject: mean((x, y) => (x - W / 2) ** 2 + (y - H * 0.6) ** 2 < (H / 8) ** 2),
  };
}

describe('colour reference photo', () => {
  it('colours a grey photo from the buyer’s colour photo, keeps it through hint re-renders, and removes it', async () => {
    const id = await restore(await greyPhoto(W, H));
    const automatic = await regions(id);

    const res = await reference(id, await colourScene(W, H));
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ success: true, transformationId: id, reference: true, tone: 'grey' });
    const withReference = await regions(id);
    // The reference's blue sky and red subject, not the library's colours.
    expect(withReference.sky.b).toBeLessThan(-10);
    expect(withReference.subject.a).toBeGreaterThan(20);
    expect(withReference.subject.a).toBeGreaterThan(automatic.subject.a + 10);
    let t = (await getTransformation(id))!;
    const referencePath = (t.hints as { referencePath: string }).referencePath;
    expect(referencePath).toBe(`originals/${id}.reference.png`);
    expect(await getStorage().get(referencePath)).not.toBeNull();
    expect((t.hints as { method: string }).method).toContain('reference photo');

    // A hint re-render keeps the reference.
    const hinted = await imageHints(
      new Request(`${BASE}/api/transformations/${id}/hints`, { method: 'POST', headers: { 'content-type': 'application/json', ...owner(id) }, body: JSON.stringify({ hints: [{ x: 0.5, y: 0.9, color: '#20a040' }] }) }),
      {},
    );
    expect(await hinted.json()).toMatchObject({ reference: true, hints: [{ x: 0.5, y: 0.9, color: '#20a040' }] });
    expect((await regions(id)).subject.a).toBeGreaterThan(20);

    // Removing it goes back to automatic colours, keeps the hint and deletes the stored photo.
    const removed = await (await reference(id, undefined, 'DELETE')).json();
    expect(removed).toMatchObject({ success: true, reference: false, hints: [{ x: 0.5, y: 0.9, color: '#20a040' }] });
    t = (await getTransformation(id))!;
    expect((t.hints as { referencePath: unknown }).referencePath).toBeNull();
    expect(await getStorage().get(referencePath)).toBeNull();
    expect((await regions(id)).subject.a).toBeLessThan(withReference.subject.a - 10);
  });

  it('refuses what it cannot use with a clear message and keeps the result as it was', async () => {
    const id = await restore(await greyPhoto(W, H));
    const before = (await getStorage().get(`results/${id}.jpg`))!;
    const cases: [Response, number, string][] = [
      [await reference(id, await greyPhoto(W, H)), 400, MSG.referenceNotColour],
      [await reference(id, Buffer.from('not an image, only text')), 400, MSG.imageInvalidType],
      [await reference(id), 400, MSG.referenceMissing],
      [await reference('00000000-0000-4000-8000-000000000000', await colourScene()), 404, MSG.imageNotFound],
    ];
    for (const [res, status, message] of cases) {
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(body).toMatchObject({ success: false });
      expect(body.error).toContain(message);
    }
    expect((await getStorage().get(`results/${id}.jpg`))!.equals(before)).toBe(true);
    expect((await getTransformation(id))!.hints).not.toHaveProperty('referencePath');

    // A colour original needs no reference.
    const colourId = await restore(await colourScene(W, H), 'colour.png');
    const colour = await reference(colourId, await colourScene(W, H));
    expect(colour.status).toBe(409);
    expect((await colour.json()).error).toBe(MSG.referenceColourResult);

    // After purchase the file is final.
    const paid = await checkout(
      new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [cartItem(id)], idempotencyKey: newKey() }) }),
      {},
    );
    expect(paid.status).toBe(200);
    const late = await reference(id, await colourScene(W, H));
    expect(late.status).toBe(409);
    expect((await late.json()).error).toBe(MSG.imageFinal);
  });
});
