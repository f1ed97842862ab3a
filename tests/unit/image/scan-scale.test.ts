import { describe, expect, it } from 'vitest';
import { fineShare, isOversampled, searchSize, OVERSAMPLED, COARSE_PIXELS } from '../../../engines/image/detect/find';
import { upsample } from '../../../engines/shared';
import { restoreLuminance } from '../../../engines/image/restore/restore';
import { grainy } from '../../support/planes';

// A scan finer than its print: every stroke, grain and edge is several pixels wide. Generated pictures only.

/** A photo-like plane: soft shapes under grain. */
const scene = (x: number, y: number) => 45 + 12 * Math.sin(x / 23) * Math.cos(y / 17) + (x > 90 && x < 140 ? 10 : 0);

/** A near-vertical scratch `width` px wide (Gaussian across, `depth` L* at its centre) painted over L at x ≈ x0. */
function scratch(L: Float32Array, w: number, h: number, x0: number, width: number, depth: number): [number, number][] {
  const sd = width / 2.355;
  const centre: [number, number][] = [];
  for (let y = 0; y < h; y++) {
    const c = x0 + y * 0.05;
    for (let x = Math.floor(c - 3 * sd - 1); x <= Math.ceil(c + 3 * sd + 1); x++) {
      if (x < 0 || x >= w) continue;
      const a = Math.exp(-((x - c) ** 2) / (2 * sd * sd));
      L[y * w + x] = L[y * w + x]! + depth * a;
    }
    centre.push([Math.round(c), y]);
  }
  return centre;
}

/** The plane enlarged k times (bilinear), as a scan k times finer than the print. */
function enlarged(L: Float32Array, w: number, h: number, k: number) {
  return { L: upsample(L, w, h, w * k, h * k), w: w * k, h: h * k };
}

const level = (P: Float32Array, w: number, pts: [number, number][]) => pts.reduce((s, [x, y]) => s + P[y * w + x]!, 0) / pts.length;
const ground = (P: Float32Array, w: number, pts: [number, number][], off: number) => pts.reduce((s, [x, y]) => s + (P[y * w + x - off]! + P[y * w + x + off]!) / 2, 0) / pts.length;

describe('scans finer than their print', () => {
  it('tells a natively sampled plane from the same plane enlarged', () => {
    const w = 300, h = 240;
    const L = grainy(w, h, scene, 1.5, 3);
    expect(fineShare(L, w, h)).toBeGreaterThanOrEqual(OVERSAMPLED);
    const big = enlarged(L, w, h, 2);
    expect(fineShare(big.L, big.w, big.h)).toBeLessThan(OVERSAMPLED);
    // Searched at its own size, at half size, or (over 1.1 MP) at the coarse budget.
    expect(isOversampled(L, w, h)).toBe(false);
    expect(isOversampled(big.L, big.w, big.h)).toBe(true);
    expect(searchSize(w, h, false)).toEqual({ width: w, height: h });
    expect(searchSize(big.w, big.h, true)).toEqual({ width: w, height: h });
    const coarse = searchSize(w * 5, h * 5, true);
    expect(coarse.width * coarse.height).toBeLessThanOrEqual(COARSE_PIXELS * 1.01);
  });

  it('removes a scratch 5 px wide from a plane scanned twice as fine as its grain', async () => {
    const w = 200, h = 160;
    const base = grainy(w, h, scene, 1.5, 5);
    const big = enlarged(base, w, h, 2);
    const pts = scratch(big.L, big.w, big.h, 160, 5, 24).filter(([, y]) => y > 8 && y < big.h - 8);
    const before = level(big.L, big.w, pts) - ground(big.L, big.w, pts, 8);
    expect(before).toBeGreaterThan(18);
    const { L: out } = await restoreLuminance({ L: big.L, width: big.w, height: big.h, options: { workPixels: 1e6, denoise: 0, localContrast: 0, sharpen: 0, fade: 0, vignette: 0 } });
    expect(Math.abs(level(out, big.w, pts) - ground(out, big.w, pts, 8))).toBeLessThan(0.2 * before);
  });

  it('smooths grain two pixels wide over twice the reach on an oversampled plane', async () => {
    const w = 200, h = 160;
    const big = enlarged(grainy(w, h, () => 50, 2, 4), w, h, 2);
    const spread = (P: Float32Array) => {
      const m = P.reduce((s, v) => s + v, 0) / P.length;
      return P.reduce((s, v) => s + Math.abs(v - m), 0) / P.length;
    };
    const { L: out } = await restoreLuminance({ L: big.L, width: big.w, height: big.h, options: { workPixels: 1e6, denoise: 0.85, localContrast: 0, sharpen: 0, fade: 0, vignette: 0 } });
    // At the reach of natively sampled grain, 55 % of this clumped grain's spread stayed; twice the reach leaves about a third.
    expect(spread(out)).toBeLessThan(0.42 * spread(big.L));
  });

  it('over the working size, leaves no trace of a filled scratch once denoised', async () => {
    const w = 400, h = 320;
    const L = grainy(w, h, scene, 1.5, 9);
    const pts = scratch(L, w, h, 200, 5, 30).filter(([, y]) => y > 8 && y < h - 8);
    const before = level(L, w, pts) - ground(L, w, pts, 8);
    // The working plane is 0.8 of the photo: filled at full size, denoised guided by the working plane.
    const { L: out } = await restoreLuminance({ L, width: w, height: h, options: { workPixels: 0.8 * w * h, denoise: 0.85, localContrast: 0, sharpen: 0, fade: 0, vignette: 0 } });
    expect(Math.abs(level(out, w, pts) - ground(out, w, pts, 8))).toBeLessThan(0.1 * before);
  });
});
