import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import processImage from '../../../netlify/functions/process-image.mts';
import imageHeal from '../../../netlify/functions/image-heal.mts';
import imageHints from '../../../netlify/functions/image-hints.mts';
import transformations from '../../../netlify/functions/transformations.mts';
import checkout from '../../../netlify/functions/checkout.mts';
import { MAX_HEAL_MARKS, MAX_HEAL_POINTS } from '../../../src/lib/tool/image-schema';
import { getStorage } from '../../../netlify/lib/storage';
import { getTransformation } from '../../../netlify/lib/transformations';
import { MSG } from '../../../src/lib/messages';
import { decodePass, encodePass } from '../../../engines/image';
import { runMaintenance } from '../../../netlify/lib/maintenance/run';
import { useEmbeddedPlatform } from '../platform/helpers/backends';
import { newKey } from '../platform/helpers/seed';
import { BASE, cartItem, DAMAGED, damageContrast, damagedPhoto, keepOwner, multipart, owner } from '../../support/tool-helpers';

// The heal brush: POST /api/transformations/{id}/heal against the embedded database and storage.
useEmbeddedPlatform();

const PROMPT = 'Turn this image into color and enhance its quality with natural-looking details';
const { width: W, height: H, bar: BAR, spot: SPOT } = DAMAGED;
const px = (x: number, y: number) => ({ x: x / (W - 1), y: y / (H - 1) });
/** A stroke along the bright bar (a little beyond its ends) and a click on the dark spot. */
const STROKE = { points: [px(BAR.x + BAR.w / 2, BAR.y - 3), px(BAR.x + BAR.w / 2, BAR.y + BAR.h + 3)], radius: 0.016 };
const CLICK = { points: [px(SPOT.x, SPOT.y)], radius: 0.016 };

async function restore(): Promise<string> {
  const bytes = await damagedPhoto();
  const res = await processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', body: multipart({ file: { name: 'old.png', type: 'image/png', bytes }, model: 'sd-xl', prompt: PROMPT }) }), {});
  const body = keepOwner(await res.json());
  expect(res.status, JSON.stringify(body)).toBe(200);
  return body.transformationId;
}

const post = (fn: typeof imageHeal, id: string, what: string, body: string) =>
  fn(new Request(`${BASE}/api/transformations/${id}/${what}`, { method: 'POST', headers: { 'content-type': 'application/json', ...owner(id) }, body }), {});
const heal = (id: string, marks: unknown) => post(imageHeal, id, 'heal', JSON.stringify({ marks }));
const hints = (id: string, list: unknown) => post(imageHints, id, 'hints', JSON.stringify({ hints: list }));

const clean = async (id: string) => (await getStorage().get(`results/${id}.jpg`))!;
/** How much the bar and the spot stand out from the ground beside them in the clean result (grey levels). */
async function damage(id: string) {
  return damageContrast(await sharp(await clean(id)).greyscale().raw().toBuffer());
}
const storedMarks = async (id: string) => ((await getTransformation(id))!.hints as { healMarks?: unknown }).healMarks;

describe('heal brush', () => {
  it('removes the damage under the marks, keeps marks through hint re-renders and hints through heal ones, undoes and clears', async () => {
    const id = await restore();
    const automatic = await damage(id);
    // The automatic pass leaves both (too wide for a scratch or a speck): what the brush is for.
    expect(automatic.bar).toBeGreaterThan(30);
    expect(automatic.spot).toBeLessThan(-30);

    const hint = [{ x: 0.2, y: 0.2, color: '#3060c0' }];
    expect((await hints(id, hint)).status).toBe(200);

    const res = await heal(id, [STROKE, CLICK]);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ success: true, transformationId: id, healMarks: [STROKE, CLICK], hints: hint });
    expect(body.processedUrl).toMatch(/previews\//);
    expect(await storedMarks(id)).toEqual([STROKE, CLICK]);
    const healed = await damage(id);
    expect(Math.abs(healed.bar)).toBeLessThan(6);
    expect(Math.abs(healed.spot)).toBeLessThan(8);

    // A later hint re-render keeps the marks, and their effect.
    const hinted = await (await hints(id, [...hint, { x: 0.8, y: 0.8, color: '#c06030' }])).json();
    expect(hinted.healMarks).toEqual([STROKE, CLICK]);
    expect(Math.abs((await damage(id)).bar)).toBeLessThan(6);

    // The saved result shows them too (a reload of the tool).
    const status = await (await transformations(new Request(`${BASE}/api/transformations/${id}`, { headers: owner(id) }), {})).json();
    expect(status.healMarks).toEqual([STROKE, CLICK]);

    // Undo: the list without its last mark. The spot comes back, the bar stays healed.
    expect((await (await heal(id, [STROKE])).json()).healMarks).toEqual([STROKE]);
    const undone = await damage(id);
    expect(Math.abs(undone.bar)).toBeLessThan(6);
    expect(undone.spot).toBeLessThan(-30);

    // Clear: back to the automatic result; the hints stay.
    const cleared = await (await heal(id, [])).json();
    expect(cleared).toMatchObject({ healMarks: [], hints: [...hint, { x: 0.8, y: 0.8, color: '#c06030' }] });
    expect((await damage(id)).bar).toBeGreaterThan(30);
  });

  it('refuses bad marks with a clear message and keeps the result and the stored marks', async () => {
    const id = await restore();
    expect((await heal(id, [CLICK])).status).toBe(200);
    const before = await clean(id);
    const point = { x: 0.5, y: 0.5 };
    const cases: [string, number, string][] = [
      [JSON.stringify({ marks: [{ points: [{ x: 1.5, y: 0.5 }] }] }), 400, MSG.healPoint],
      [JSON.stringify({ marks: [{ points: [{ x: -0.1, y: 0.5 }] }] }), 400, MSG.healPoint],
      [JSON.stringify({ marks: [{ points: [{ x: '0.5', y: 0.5 }] }] }), 400, MSG.healPoint],
      [JSON.stringify({ marks: [{ points: [{ x: 0.5 }] }] }), 400, MSG.healPoint],
      [JSON.stringify({ marks: Array.from({ length: MAX_HEAL_MARKS + 1 }, () => ({ points: [point] })) }), 400, MSG.healMarksMax(MAX_HEAL_MARKS)],
      [JSON.stringify({ marks: [{ points: Array.from({ length: MAX_HEAL_POINTS + 1 }, () => point) }] }), 400, MSG.healPointsMax(MAX_HEAL_POINTS)],
      [JSON.stringify({ marks: [{ points: [] }] }), 400, MSG.healPointsMin],
      [JSON.stringify({ marks: [{ points: [point], radius: 0.5 }] }), 400, MSG.healRadius(0.002, 0.05)],
      [JSON.stringify({ marks: [{ points: 'here' }] }), 400, MSG.healMarksList],
      [JSON.stringify({ marks: 'scratch' }), 400, MSG.healMarksList],
      [JSON.stringify({}), 400, MSG.healMarksList],
      [JSON.stringify([point]), 400, MSG.healMarksList],
      ['{"marks": [', 400, MSG.invalidJson],
      ['', 400, MSG.invalidJson],
    ];
    for (const [body, status, message] of cases) {
      const res = await post(imageHeal, id, 'heal', body);
      const answer = await res.json();
      expect(res.status, `${body.slice(0, 80)} → ${JSON.stringify(answer)}`).toBe(status);
      expect(answer).toMatchObject({ success: false });
      expect(answer.error).toContain(message);
    }
    const unknown = await heal('00000000-0000-4000-8000-000000000000', [CLICK]);
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error).toBe(MSG.imageNotFound);
    expect((await clean(id)).equals(before)).toBe(true);
    expect(await storedMarks(id)).toEqual([CLICK]);
  });

  it('is refused once the image is purchased', async () => {
    const id = await restore();
    const paid = await checkout(
      new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [cartItem(id)], idempotencyKey: newKey() }) }),
      {},
    );
    expect(paid.status).toBe(200);
    const before = await clean(id);
    const late = await heal(id, [STROKE]);
    expect(late.status).toBe(409);
    expect((await late.json()).error).toBe(MSG.imageFinal);
    expect((await clean(id)).equals(before)).toBe(true);
    expect(await storedMarks(id)).toEqual([]);
    // Nothing re-renders a bought result: maintenance drops its kept automatic pass.
    const passPath = (await getTransformation(id))!.meta.passPath!;
    expect(await getStorage().get(passPath)).not.toBeNull();
    expect((await runMaintenance()).passesDropped).toBeGreaterThanOrEqual(1);
    expect(await getStorage().get(passPath)).toBeNull();
    expect((await getTransformation(id))!.meta.passPath).toBeUndefined();
  });
});

describe('kept automatic pass', () => {
  it('heal and hint re-renders start from the kept pass, not from the original', async () => {
    const id = await restore();
    const passPath = (await getTransformation(id))!.meta.passPath!;
    expect(passPath).toBe(`passes/${id}.bin`);
    const kept = (await decodePass((await getStorage().get(passPath))!, 'sd-xl'))!;
    expect([kept.width, kept.height, kept.tone]).toEqual([W, H, 'grey']);
    // A pass whose restored luminance is a flat mid-grey: a re-render that uses it cannot show the photo's bar.
    await getStorage().put(passPath, await encodePass({ ...kept, L: new Float32Array(W * H).fill(50) }), 'application/octet-stream');
    expect((await heal(id, [STROKE])).status).toBe(200);
    // Neither the bar (under the mark) nor the spot (not marked) is there: the whole picture came from the pass.
    const flat = await damage(id);
    expect(Math.abs(flat.bar)).toBeLessThan(3);
    expect(Math.abs(flat.spot)).toBeLessThan(3);
    expect((await hints(id, [{ x: 0.5, y: 0.5, color: '#c06030' }])).status).toBe(200);
    expect(Math.abs((await damage(id)).spot)).toBeLessThan(3);
  });

  it('a missing or unreadable pass is rebuilt from the original, and the re-render still heals', async () => {
    const id = await restore();
    const passPath = (await getTransformation(id))!.meta.passPath!;
    await getStorage().put(passPath, Buffer.from('not a pass'), 'application/octet-stream');
    const res = await heal(id, [STROKE]);
    expect(res.status, JSON.stringify(await res.clone().json())).toBe(200);
    expect(Math.abs((await damage(id)).bar)).toBeLessThan(6);
    expect(await decodePass((await getStorage().get(passPath))!, 'sd-xl')).not.toBeNull();
    await getStorage().remove([passPath]);
    expect((await heal(id, [])).status).toBe(200);
    expect((await damage(id)).bar).toBeGreaterThan(30);
    expect(await getStorage().get(passPath)).not.toBeNull();
  });
});
