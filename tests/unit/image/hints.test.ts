import { describe, expect, it } from 'vitest';
import { propagateHints, type SoftHints } from '../../../engines/image/hints';
import { conjugateGradient } from '../../../engines/image/conjugate-gradient';

/** Two flat halves (L* 30 | 80) with a zero automatic chroma. */
function halves(w = 64, h = 32) {
  const L = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) L[y * w + x] = x < w / 2 ? 30 : 80;
  return { L, w, h, base: { a: new Float32Array(w * h), b: new Float32Array(w * h), width: w, height: h } };
}

describe('conjugate gradient', () => {
  it('solves a small symmetric positive definite system', () => {
    // A = [[4, 1], [1, 3]], rhs = [1, 2] → u = [1/11, 7/11].
    const apply = (x: Float32Array, out: Float32Array) => {
      out[0] = 4 * x[0]! + x[1]!;
      out[1] = x[0]! + 3 * x[1]!;
    };
    const u = conjugateGradient(apply, Float32Array.of(4, 3), Float32Array.of(1, 2), new Float32Array(2), { tolerance: 1e-7 });
    expect(u[0]).toBeCloseTo(1 / 11, 5);
    expect(u[1]).toBeCloseTo(7 / 11, 5);
  });
});

describe('soft hints', () => {
  it('change nothing when there are neither hints nor soft hints', () => {
    const { L, w, h, base } = halves();
    expect(propagateHints(L, w, h, base, [])).toBe(base);
  });

  it('lean a region to their colour, bounded by its edge', () => {
    const { L, w, h, base } = halves();
    const soft: SoftHints = { a: new Float32Array(w * h), b: new Float32Array(w * h), weight: new Float32Array(w * h) };
    // A soft skin tone on a few pixels of the dark half.
    for (let y = 12; y < 20; y++) for (let x = 4; x < 12; x++) {
      soft.a[y * w + x] = 14;
      soft.b[y * w + x] = 18;
      soft.weight[y * w + x] = 0.2;
    }
    const out = propagateHints(L, w, h, base, [], { soft, lambda: 2e-3 });
    expect(out.a[16 * w + 8]).toBeGreaterThan(10);
    expect(out.b[16 * w + 20]).toBeGreaterThan(8); // spread inside the region
    expect(Math.abs(out.b[16 * w + 40]!)).toBeLessThan(2); // not across the edge
  });

  it('give way to a buyer hint on the same pixels', () => {
    const { L, w, h, base } = halves();
    const soft: SoftHints = { a: new Float32Array(w * h).fill(14), b: new Float32Array(w * h).fill(18), weight: new Float32Array(w * h).fill(0.05) };
    const out = propagateHints(L, w, h, base, [{ x: 0.1, y: 0.5, color: '#2040d0' }], { soft });
    expect(out.b[16 * w + 6]).toBeLessThan(-30); // the buyer's blue, not the soft skin tone
  });
});
