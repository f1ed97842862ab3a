import { describe, expect, it } from 'vitest';
import { joinCollinear } from '../../../engines/image/detect/chains';

// Pieces as pixel lists on a w-wide plane; `r` gives their sign (all light unless set otherwise).
const w = 200;
const segment = (x0: number, y0: number, dx: number, dy: number, n: number) =>
  Int32Array.from({ length: n }, (_, t) => Math.round(y0 + t * dy) * w + Math.round(x0 + t * dx));
const light = new Float32Array(w * w).fill(1);

describe('joinCollinear: the pieces of one broken straight line become one component', () => {
  it('joins three pieces of a 60° line with gaps between them', () => {
    const dx = Math.cos(Math.PI / 3);
    const dy = Math.sin(Math.PI / 3);
    const parts = [segment(50, 20, dx, dy, 12), segment(50 + 18 * dx, 20 + 18 * dy, dx, dy, 12), segment(50 + 36 * dx, 20 + 36 * dy, dx, dy, 12)];
    const pixels = joinCollinear(parts, light, w);
    expect(pixels).toHaveLength(1);
    expect(pixels[0]).toHaveLength(36);
  });

  it('keeps parallel bars side by side, far pieces and pieces of the other sign apart', () => {
    const r = light.slice();
    const dark = segment(10, 150, 1, 0, 12);
    for (const i of dark) r[i] = -1;
    const parts = [segment(20, 20, 0, 1, 15), segment(26, 20, 0, 1, 15), segment(20, 70, 0, 1, 15), segment(24, 150, 1, 0, 12), dark];
    const pixels = joinCollinear(parts, r, w);
    expect(pixels).toHaveLength(5);
    expect(pixels.map((p) => p.length)).toEqual([15, 15, 15, 12, 12]);
  });
});
