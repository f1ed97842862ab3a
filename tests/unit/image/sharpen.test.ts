import { describe, expect, it } from 'vitest';
import { sharpen } from '../../../engines/image/restore/detail';
import { detectDamage } from '../../../engines/image/detect/detector';
import { grainy } from '../../support/planes';

// The sharpening brings out the photo's own detail, never the fill (rebuilt from patches and grain) or damage the
// detector suspected: those pixels keep their value.
describe('sharpen: what it leaves alone', () => {
  // Vertical bars 2 px wide every 6 px: every pixel stands out of its 3×3 blur far beyond the threshold.
  const w = 60, h = 40;
  const bars = () => Float32Array.from({ length: w * h }, (_, i) => ((i % w) % 6 < 2 ? 70 : 40));
  const changed = (before: Float32Array, after: Float32Array, x0: number, x1: number) => {
    let n = 0;
    for (let y = 1; y < h - 1; y++) for (let x = x0; x < x1; x++) if (after[y * w + x] !== before[y * w + x]) n++;
    return n;
  };

  it('keeps every pixel under the mask and sharpens the others', () => {
    const L = bars();
    const mask = Uint8Array.from({ length: w * h }, (_, i) => (i % w < w / 2 ? 1 : 0));
    const out = L.slice();
    sharpen(out, w, h, 1, 1, 0.5, { mask, width: w, height: h });
    expect(changed(L, out, 0, w / 2)).toBe(0);
    expect(changed(L, out, w / 2, w)).toBeGreaterThan(0.5 * (h - 2) * (w / 2));
  });

  it('reads a mask of the smaller working plane at the nearest working pixel', () => {
    const L = bars();
    // Working plane at half size: its left third marked covers the full plane's left third.
    const mask = Uint8Array.from({ length: (w / 2) * (h / 2) }, (_, i) => (i % (w / 2) < w / 6 ? 1 : 0));
    const out = L.slice();
    sharpen(out, w, h, 1, 1, 0.5, { mask, width: w / 2, height: h / 2 });
    expect(changed(L, out, 0, w / 3)).toBe(0);
    expect(changed(L, out, w / 3, w)).toBeGreaterThan(0.5 * (h - 2) * ((2 * w) / 3));
  });

  it('gets from the detector the pixels it finds likely, a scratch among them', async () => {
    const W = 200, H = 200;
    const L = grainy(W, H, () => 50);
    for (let y = 0; y < H; y++) L[y * W + 100] += 25;
    const { suspect, core } = await detectDamage(L, W, H);
    let onScratch = 0;
    for (let y = 10; y < H - 10; y++) onScratch += suspect[y * W + 100]!;
    expect(onScratch).toBeGreaterThan(0.9 * (H - 20));
    // Every kept pixel of the scratch's core was likely to the pixel network first.
    for (let y = 10; y < H - 10; y++) if (core[y * W + 100]) expect(suspect[y * W + 100]).toBe(1);
  });
});
