import { describe, expect, it } from 'vitest';
import { denoiseRows } from '../../../engines/image/restore/detail';
import { applyRows } from '../../../engines/shared';
import { gaussian } from '../../../engines/image/fill/grain';

// The denoise keeps the pipeline's share of the grain where the window shows structure, and less of it on
// flat ground, where every variation is grain the photo never had.
describe('denoise: grain kept over structure, not on flat ground', () => {
  const w = 160, h = 80, sigma = 2;
  // Left half flat L* 50, right half a fine texture (period 4 px, ±8 L*), both with Gaussian grain.
  const gauss = gaussian(7);
  const L = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) L[y * w + x] = 50 + (x >= w / 2 ? 8 * Math.sin((Math.PI * x) / 2 + y) : 0) + sigma * gauss();
  const run = (amount: number) => {
    const out = L.slice();
    applyRows(out, w, h, [denoiseRows(w, h, L, w, h, sigma, amount)]);
    return out;
  };
  const filtered = run(1); // the filter's own output: no grain kept
  const usual = run(0.85); // the pipelines' amount: up to 15 % kept
  /** The share of the grain (input minus filter) put back over columns x0…x1, weighted by its size. */
  const keptShare = (x0: number, x1: number) => {
    let back = 0, grain = 0;
    for (let y = 3; y < h - 3; y++) for (let x = x0; x < x1; x++) {
      const i = y * w + x;
      back += Math.abs(usual[i]! - filtered[i]!);
      grain += Math.abs(L[i]! - filtered[i]!);
    }
    return back / grain;
  };

  it('keeps the full 15 % over the texture', () => {
    expect(keptShare(w / 2 + 3, w - 3)).toBeGreaterThan(0.14);
  });
  it('keeps clearly less on flat ground', () => {
    expect(keptShare(3, w / 2 - 3)).toBeLessThan(0.12);
  });
});
