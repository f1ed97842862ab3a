import sharp from 'sharp';
import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildGrid, exemplarColorize, GRID_FILE, type ExemplarOptions, loadReferenceLibrary, loadShippedGrid, REFERENCE_DIR, topDistance } from '../../../engines/image/exemplar';
import { rgbBufferToL } from '../../../engines/shared';

/** Deterministic ±amp noise, so the tests never depend on Math.random. */
const noise = (i: number, amp: number) => (((i * 2654435761) >>> 0) / 2 ** 32 - 0.5) * 2 * amp;

describe('sky feature: geodesic distance to the top edge', () => {
  // 60×60 flat bright field with a 2-px dark outline enclosing a box of the same brightness.
  const W = 60;
  const L = new Float32Array(W * W);
  for (let y = 0; y < W; y++) for (let x = 0; x < W; x++) {
    const outline = x >= 20 && x < 42 && y >= 20 && y < 42 && (x < 22 || x >= 40 || y < 22 || y >= 40);
    L[y * W + x] = outline ? 20 : 80 + noise(y * W + x, 0.4); // grain below the free step
  }
  const d = topDistance(L, W, W);
  it('is short across a smooth open field, grain included', () => {
    expect(d[45 * W + 5]).toBeLessThan(1); // bottom-left corner of the open field: about 0.75 long sides
  });
  it('is long inside an outline, even just below the top of the box', () => {
    expect(d[23 * W + 30]).toBeGreaterThan(1.5); // two crossings of a 60-L* edge at 0.03 per L*
    expect(d[23 * W + 30]).toBeGreaterThan(d[45 * W + 5] + 1);
  });
});

describe('exemplar colorizer', () => {
  // One reference: smooth blue sky over textured green grass, the layout of a landscape.
  const w = 120, h = 90;
  const ref = Buffer.alloc(w * h * 3);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = (y * w + x) * 3, t = noise(y * w + x, 40);
    const px = y < h / 2 ? [110, 160, 235] : [60 + t * 0.4, 140 + t, 50 + t * 0.3];
    px.forEach((v, c) => (ref[i + c] = Math.max(0, Math.min(255, Math.round(v)))));
  }
  const refPng = () => sharp(ref, { raw: { width: w, height: h, channels: 3 } }).png().toBuffer();

  /** Colours the same scene in grey at another size: colour must come back by area, not by position. */
  async function colourise(opts: ExemplarOptions) {
    const { data, info } = await sharp(ref, { raw: { width: w, height: h, channels: 3 } }).resize(96, 72).greyscale().raw().toBuffer({ resolveWithObject: true });
    const L = rgbBufferToL(data, 96 * 72, info.channels);
    const out = await exemplarColorize({ L, width: 96, height: 72 }, opts);
    const mean = (plane: Float32Array, y0: number, y1: number) => {
      let s = 0;
      for (let y = y0; y < y1; y++) for (let x = 8; x < 88; x++) s += plane[y * 96 + x];
      return s / ((y1 - y0) * 80);
    };
    return { sky: { a: mean(out.a, 4, 28), b: mean(out.b, 4, 28) }, ground: { a: mean(out.a, 44, 68), b: mean(out.b, 44, 68) } };
  }

  it('takes its colours from the library: a smooth open top comes out like the references’ sky, a textured bottom like their ground', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'refs-'));
    writeFileSync(path.join(dir, 'landscape.png'), await refPng());
    writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify({ images: [{ file: 'landscape.png' }] }));
    const { sky, ground } = await colourise({ dir: dir + path.sep });
    expect(sky.b).toBeLessThan(ground.b - 20); // bluer above
    expect(ground.a).toBeLessThan(sky.a - 10); // greener below
  });

  it('takes its colours from a single reference photo the buyer supplies instead of the library', async () => {
    const { sky, ground } = await colourise({ reference: await refPng() });
    expect(sky.b).toBeLessThan(ground.b - 20);
    expect(ground.a).toBeLessThan(sky.a - 10);
    // The shipped library alone does not know this scene: its sky is nowhere near as blue.
    const library = await colourise({});
    expect(sky.b).toBeLessThan(library.sky.b - 10);
  });
});

describe('shipped colour grid', () => {
  it(`${GRID_FILE} equals a fresh build from the shipped photos (after a method change: npx tsx scripts/training/build-reference-library.ts --grid)`, async () => {
    const shipped = await loadShippedGrid();
    expect(shipped, `${GRID_FILE} is missing or was built from other photos`).not.toBeNull();
    const fresh = buildGrid(await loadReferenceLibrary());
    expect(shipped!.a.length).toBe(fresh.a.length);
    let worst = 0;
    for (let i = 0; i < fresh.a.length; i++) worst = Math.max(worst, Math.abs(shipped!.a[i] - fresh.a[i]), Math.abs(shipped!.b[i] - fresh.b[i]));
    expect(worst).toBeLessThan(1e-3);
    expect(shipped!.cast[0]).toBeCloseTo(fresh.cast[0], 4);
    expect(shipped!.cast[1]).toBeCloseTo(fresh.cast[1], 4);
  }, 30_000);

  it('is used from a copy of the library, and ignored once one of its photos changes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'refs-copy-')) + path.sep;
    for (const f of readdirSync(REFERENCE_DIR)) copyFileSync(REFERENCE_DIR + f, dir + f);
    expect(await loadShippedGrid(dir)).not.toBeNull();
    const [first, second] = readdirSync(dir).filter((f) => f.endsWith('.jpg')).sort();
    copyFileSync(dir + second, dir + first);
    expect(await loadShippedGrid(dir)).toBeNull();
  });
});
