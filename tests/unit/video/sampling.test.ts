import { describe, expect, it } from 'vitest';
import { ONE, sampleFixed, sampleRow } from '../../../engines/video/sampling';

describe('sampleRow (the background row kernel)', () => {
  // A plane with every kind of neighbour difference (pseudo-random bytes, then a hard edge).
  const W = 301;
  const H = 7;
  const plane = new Uint8Array(W * H);
  for (let i = 0; i < plane.length; i++) plane[i] = (Math.imul(i + 1, 2654435761) >>> 24) & 255;
  plane.fill(255, 3 * W + 150, 3 * W + 160);

  it.each([
    ['zoomed in', 12.37, 0.71],
    ['one to one', 3.5, 1],
    ['zoomed out', 0.2, 1.37],
  ])('gives sampleFixed’s value at every pixel, %s', (_, first, step) => {
    const x0 = 5;
    const x1 = Math.floor((W - 2 - first) / step);
    for (let row = 0; row < H - 1; row++) {
      for (const fv of [0, 1, 77, 128, 255]) {
        const dst = new Uint8Array(x1 + 3).fill(9);
        const u = ((first + step * x0) * ONE) | 0;
        const du = (step * ONE) | 0;
        sampleRow(plane, W, row * W, fv, u, du, dst, 1, x0, x1);
        for (let x = x0; x < x1; x++) {
          expect(dst[1 + x], `row ${row} fv ${fv} x ${x}`).toBe(sampleFixed(plane, W, u + du * (x - x0), (row << 16) + (fv << 8)));
        }
        // Nothing outside the run is written.
        expect(dst[x0]).toBe(9);
        expect(dst[1 + x1]).toBe(9);
      }
    }
  });

  it('writes nothing for an empty run', () => {
    const dst = new Uint8Array(4).fill(3);
    sampleRow(plane, W, 0, 10, 0, ONE, dst, 0, 2, 2);
    expect([...dst]).toEqual([3, 3, 3, 3]);
  });
});
