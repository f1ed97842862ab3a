import { describe, expect, it } from 'vitest';
import { LINE_DIRECTIONS, lineField } from '../../../engines/image/detect/lines';

// A plane of zeros with one straight line of 1s: the field at a pixel of the line is the line's mean (1) in its
// own direction, wherever the line lies in the plane.
const w = 160;
const h = 120;
const HALF = 10;

/** The digital line through (x0, y0) at direction k (the sweep's own rounding), as a plane. */
function linePlane(k: number, x0: number, y0: number): Float32Array {
  const p = new Float32Array(w * h);
  const a = (k * Math.PI) / LINE_DIRECTIONS;
  const xMajor = Math.abs(Math.cos(a)) >= Math.abs(Math.sin(a));
  if (xMajor) {
    const t = Math.tan(a);
    for (let x = 0; x < w; x++) {
      const y = y0 + Math.round(x * t) - Math.round(x0 * t);
      if (y >= 0 && y < h) p[y * w + x] = 1;
    }
  } else {
    const t = 1 / Math.tan(a);
    for (let y = 0; y < h; y++) {
      const x = x0 + Math.round(y * t) - Math.round(y0 * t);
      if (x >= 0 && x < w) p[y * w + x] = 1;
    }
  }
  return p;
}

describe('lineField: every line is measured in its own direction, anywhere in the plane', () => {
  // Points near each corner and the centre: an oblique line through a corner region starts or ends outside the
  // plane on one side (a sweep that only builds the lines entering from one edge misses it).
  const points = [[30, 25], [130, 25], [30, 95], [130, 95], [80, 60]] as const;
  for (let k = 0; k < LINE_DIRECTIONS; k++) {
    it(`finds the line at ${(k * 180) / LINE_DIRECTIONS}° through every test point`, () => {
      for (const [x, y] of points) {
        const field = lineField(linePlane(k, x, y), w, h, HALF);
        const i = y * w + x;
        expect(field.best[i], `at (${x}, ${y})`).toBeCloseTo(1, 5);
        expect(field.direction[i], `at (${x}, ${y})`).toBe(k);
      }
    });
  }
});
