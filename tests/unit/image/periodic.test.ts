import { describe, expect, it } from 'vitest';
import { withoutPeriodicTexture } from '../../../engines/image/detect/periodic';
import { grainy } from '../../support/planes';

// The search plane of a fine periodic texture: the texture taken out, what is not periodic (a scratch) kept.
const w = 200, h = 150;
const grid = (period: number) => (x: number, y: number) => 62 - (x % period === 0 || y % period === 0 ? 14 : 0);
const stripes = (period: number) => (x: number) => 50 + (x % period < 2 ? 12 : 0);
/** Woven cloth: a smooth texture repeating every `period` px both ways. */
const weave = (period: number) => (x: number, y: number) => 55 + 9 * Math.sin((2 * Math.PI * x) / period) * Math.sin((2 * Math.PI * y) / period);

/** Mean absolute difference to the plane's mean over the interior (the texture's contrast plus the grain). */
function spread(P: Float32Array, skip: (x: number, y: number) => boolean = () => false): number {
  let s = 0, n = 0;
  for (let y = 12; y < h - 12; y++) for (let x = 12; x < w - 12; x++) if (!skip(x, y)) { s += P[y * w + x]!; n++; }
  const m = s / n;
  let d = 0;
  for (let y = 12; y < h - 12; y++) for (let x = 12; x < w - 12; x++) if (!skip(x, y)) d += Math.abs(P[y * w + x]! - m);
  return d / n;
}

/** A 1-px light line at `angle`° painted over L (+`depth`), and its pixels. */
function scratch(L: Float32Array, angle: number, depth: number): [number, number][] {
  const t = Math.tan((angle * Math.PI) / 180);
  const pts: [number, number][] = [];
  for (let x = 10; x < w - 10; x++) {
    const y = Math.round(20 + x * t);
    if (y < 10 || y >= h - 10) continue;
    L[y * w + x] = L[y * w + x]! + depth;
    pts.push([x, y]);
  }
  return pts;
}

/** Within 2 px of a line's pixels. */
const nearLine = (pts: [number, number][]) => (x: number, y: number) => pts.some(([sx, sy]) => Math.abs(sx - x) <= 2 && Math.abs(sy - y) <= 2);

/** How far a line's pixels stand out of the plane 3 px above and below them (signed). */
function standsOut(P: Float32Array, pts: [number, number][]): number {
  const on = pts.reduce((s, [x, y]) => s + P[y * w + x]!, 0) / pts.length;
  const beside = pts.reduce((s, [x, y]) => s + (P[(y - 3) * w + x]! + P[(y + 3) * w + x]!) / 2, 0) / pts.length;
  return on - beside;
}

describe('withoutPeriodicTexture', () => {
  it('leaves planes without a fine periodic texture alone (null)', () => {
    expect(withoutPeriodicTexture(grainy(w, h, () => 50), w, h)).toBeNull();
    expect(withoutPeriodicTexture(grainy(w, h, (x, y) => 20 + x / 4 + y / 6), w, h)).toBeNull();
    // Blotches of every size (foliage-like): textured, but not repeating.
    const blotches = grainy(w, h, (x, y) => 50 + 12 * Math.sin(x * 0.37 + Math.sin(y * 0.21) * 3) * Math.cos(y * 0.29 + Math.sin(x * 0.13) * 2), 1.2, 5);
    expect(withoutPeriodicTexture(blotches, w, h)).toBeNull();
  });

  for (const [name, texture, period] of [['grid', grid, 3], ['grid', grid, 4], ['grid', grid, 5], ['weave', weave, 7]] as const) {
    it(`takes a ${name} of period ${period} px out and keeps a scratch across it`, () => {
      const L = grainy(w, h, texture(period), 0.8, period);
      const before = spread(L);
      const pts = scratch(L, 25, 30);
      const flat = withoutPeriodicTexture(L, w, h)!;
      expect(flat).not.toBeNull();
      // The texture is gone: what is left away from the scratch is about the grain (0.8 → mean |d| ≈ 1).
      expect(spread(flat, nearLine(pts))).toBeLessThan(0.25 * before);
      // The scratch still stands out of its surroundings by most of its depth (30).
      expect(standsOut(flat, pts)).toBeGreaterThan(24);
    });
  }

  it('takes out stripes (one direction only) and keeps a scratch across them', () => {
    const L = grainy(w, h, stripes(5), 0.8, 3);
    const before = spread(L);
    const pts = scratch(L, 35, -25);
    const flat = withoutPeriodicTexture(L, w, h)!;
    expect(spread(flat, nearLine(pts))).toBeLessThan(0.25 * before);
    expect(standsOut(flat, pts)).toBeLessThan(-20);
  });

  it('changes only the textured part of a plane', () => {
    const L = grainy(w, h, (x, y) => (x < 100 ? grid(4)(x, y) : 55), 0.8, 9);
    const flat = withoutPeriodicTexture(L, w, h)!;
    let changedRight = 0, changedLeft = 0;
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      if (flat[y * w + x] === L[y * w + x]) continue;
      if (x >= 124) changedRight++;
      if (x < 80) changedLeft++;
    }
    expect(changedRight).toBe(0);
    expect(changedLeft).toBeGreaterThan(0.9 * 80 * h);
  });
});
