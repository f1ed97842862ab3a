import { describe, expect, it } from 'vitest';
import { boxMean } from '../../../engines/shared';

/** The mean over the window clipped at the borders, one pixel at a time. */
function bruteForce(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0;
      let n = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++) {
        for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) {
          s += src[yy * w + xx]!;
          n++;
        }
      }
      out[y * w + x] = s / n;
    }
  }
  return out;
}

describe('boxMean', () => {
  // Its row pass runs without bounds checks where the window is whole: the borders, and windows wider than the
  // plane (no interior at all), must still be clipped exactly.
  it.each([
    [9, 7, 0],
    [9, 7, 1],
    [9, 7, 3],
    [9, 7, 4],
    [9, 7, 5],
    [9, 7, 20],
    [1, 5, 2],
    [6, 1, 2],
  ])('matches the clipped mean on a %i × %i plane at radius %i', (w, h, r) => {
    const src = Float32Array.from({ length: w * h }, (_, i) => Math.sin(i * 1.7) * 40 + (i % 5));
    const got = boxMean(src, w, h, r);
    const want = bruteForce(src, w, h, r);
    for (let i = 0; i < got.length; i++) expect(got[i]).toBeCloseTo(want[i]!, 4);
  });
});
