import { describe, expect, it } from 'vitest';
import { denoiseRows, halfSizeTextureShare, textureShare, wideDenoiseWeight } from '../../../engines/image/restore/detail';
import { applyRows, upsample } from '../../../engines/shared';
import { gaussian } from '../../../engines/image/fill/grain';
import { medianPlane, robustSpread } from '../../../engines/image/detect/residual';

// The wider denoise is for photos whose pixel-scale variation is grain nearly everywhere; a photo with much fine
// texture of the grain's own variance keeps the narrow filter (no local test tells such texture from grain).
describe('wide denoise: chosen by the texture share of the photo', () => {
  const w = 160, h = 96, grain = 2;
  /** A residual-like plane: grain everywhere, plus fine texture of the given amplitude over the share `textured` of the columns. */
  const plane = (textured: number, amplitude: number, seed = 3) => {
    const gauss = gaussian(seed);
    const r = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) r[y * w + x] = grain * gauss() + (x < textured * w ? amplitude * Math.sin((Math.PI * x) / 1.5 + 2 * y) : 0);
    return r;
  };
  const share = (r: Float32Array) => textureShare(r, w, h, robustSpread(r));

  it('gives a plane of grain alone the whole wide filter', () => {
    const s = share(plane(0, 0));
    expect(s).not.toBeNull();
    expect(s!).toBeLessThan(0.05);
    expect(wideDenoiseWeight(s)).toBe(1);
  });
  it('keeps the narrow filter for a photo half covered by fine texture above its grain', () => {
    const s = share(plane(0.5, 2 * grain));
    expect(s!).toBeGreaterThan(0.3);
    expect(wideDenoiseWeight(s)).toBe(0);
  });
  it('blends the two between the thresholds', () => {
    expect(wideDenoiseWeight(0.2)).toBeCloseTo(0.5, 5);
  });
  it('refuses a residual whose quietest blocks are busier than its robust spread (not grain)', () => {
    // Blocky: most pixels exactly on their median (residual 0), the rest large, spread over every block.
    const r = new Float32Array(w * h).map((_, i) => (i % 7 === 0 ? 20 : 0));
    expect(textureShare(r, w, h, robustSpread(r))).toBeNull();
    expect(wideDenoiseWeight(null)).toBe(0);
  });
  it('reads an oversampled plane of grain alone (grain two pixels wide) on its half-size copy, where it is grain again', async () => {
    const gauss = gaussian(5);
    const L = upsample(new Float32Array((w / 2) * (h / 2)).map(() => 50 + 3 * gauss()), w / 2, h / 2, w, h);
    const median = await medianPlane(L, w, h, 5);
    const r = L.map((v, i) => v - median[i]!);
    const half = await halfSizeTextureShare(L, w, h);
    expect(half).not.toBeNull();
    expect(half!).toBeLessThan(0.05);
    expect(half!).toBeLessThan(share(r)!);
  });
  it('flattens more of the grain on flat ground with the wide filter blended in', () => {
    const L = plane(0, 0).map((v) => 50 + v);
    const left = (wide: number) => {
      const out = L.slice();
      applyRows(out, w, h, [denoiseRows(w, h, L, w, h, grain, 1, 1, wide)]);
      let s = 0;
      for (let i = 0; i < out.length; i++) s += (out[i]! - 50) ** 2;
      return Math.sqrt(s / out.length);
    };
    expect(left(1)).toBeLessThan(0.85 * left(0));
  });
});
