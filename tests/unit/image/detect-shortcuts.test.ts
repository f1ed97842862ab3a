import { describe, expect, it } from 'vitest';
import { FEATURE_COUNT, FEATURE_NAMES, groundActivity, withGroundActivity, type Evidence } from '../../../engines/image/detect/evidence';
import { select, selectNonNegative, toStep } from '../../../engines/image/detect/residual';
import { bilinearSampler, upsample } from '../../../engines/shared';

// The detector takes a few values by shorter ways than the planes they come from; each must give the same bits.
let seed = 11;
const rnd = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 4294967296;
};

describe('detector shortcuts give the same values as the long way', () => {
  it('the ground activity at the candidates equals libvips’s 11×11 median of the whole plane (edge pixels repeated)', async () => {
    const w = 61;
    const h = 37;
    const r = Float32Array.from({ length: w * h }, () => (rnd() < 0.1 ? (rnd() - 0.5) * 40 : rnd() - 0.5));
    const sigma = 0.4;
    // Every pixel a candidate (borders included), and every third one.
    for (const every of [1, 3]) {
      const candidates = Int32Array.from({ length: Math.ceil((w * h) / every) }, (_, k) => k * every);
      const evidence: Evidence = {
        candidates,
        values: new Float32Array(candidates.length * FEATURE_COUNT),
        direction: new Uint8Array(candidates.length),
        residual: { r, sigma, median: r },
        wide: { r, sigma, median: r },
        lineSigma: 1,
      };
      const plane = await groundActivity(r, sigma, w, h);
      await withGroundActivity(evidence, w, h);
      const at = FEATURE_NAMES.indexOf('activity');
      const got = Array.from(candidates, (_, c) => evidence.values[c * FEATURE_COUNT + at]);
      expect(got).toEqual(Array.from(candidates, (i) => plane[i]));
    }
  });

  it('toStep rounds as Math.round, clamped to 0 … 255', () => {
    const reference = (v: number) => Math.max(0, Math.min(255, Math.round(v))) || 0;
    const values = [0.49999999999999994, 0.5, 1.5, 2.5, 254.49999999999997, 254.5, 255, 300, -0, -3, NaN, Infinity, -Infinity];
    for (let i = 0; i < 10_000; i++) values.push(rnd() * 270 - 10, Math.floor(rnd() * 256) + 0.5);
    for (const v of values) expect(toStep(v), `at ${v}`).toBe(reference(v));
  });

  it('selectNonNegative finds the value select does, at every rank', () => {
    const a = Float32Array.from({ length: 300 }, () => (rnd() < 0.2 ? Math.round(rnd() * 4) : rnd() < 0.05 ? 1e-42 : rnd() * 10));
    for (let k = 0; k < a.length; k++) expect(selectNonNegative(a, k)).toBe(select(a.slice(), k));
  });

  it('bilinearSampler gives upsample’s pixels', () => {
    const src = Float32Array.from({ length: 23 * 17 }, () => rnd() * 100);
    const big = upsample(src, 23, 17, 47, 33);
    const at = bilinearSampler(23, 17, 47, 33);
    for (let i = 0; i < big.length; i++) expect(at(src, i % 47, Math.floor(i / 47))).toBe(big[i]);
  });
});
