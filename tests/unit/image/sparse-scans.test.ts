import { describe, expect, it } from 'vitest';
import { maskRegions, setScanner, bilinearReach, downsample, refreshDownsample, upsample } from '../../../engines/shared';

// A large photo's damage is a few thousandths of its pixels: the full-resolution steps visit only what can be
// damage. Each shortcut must find exactly what a visit of every pixel finds.
let seed = 3;
const rnd = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 4294967296;
};

describe('sparse scans find what a full visit finds', () => {
  it('the set-pixel scan, at any alignment, from any start to any end', () => {
    const buffer = new Uint8Array(203);
    for (let i = 0; i < buffer.length; i++) buffer[i] = rnd() < 0.03 ? 1 : 0;
    for (const [offset, length] of [[0, 190], [1, 190], [2, 190], [3, 190], [1, 2], [2, 0], [5, 7]]) {
      const mask = buffer.subarray(offset!, offset! + length!);
      const next = setScanner(mask);
      for (let from = 0; from <= mask.length; from += 7) {
        for (const end of [from, from + 1, from + 5, from + 40, mask.length]) {
          if (end > mask.length) continue;
          let expected = from;
          while (expected < end && !mask[expected]) expected++;
          expect(next(from, end)).toBe(expected);
        }
      }
    }
  });

  it('the regions of a mask: the same pixels, order and boxes as a flood fill of a label plane', () => {
    const W = 53, H = 41;
    const mask = Uint8Array.from({ length: W * H }, () => (rnd() < 0.2 ? 1 : 0));
    const { pixels, boxes } = maskRegions(mask, W, H, 2);
    // Labels in order of each region's first pixel, 8-connected.
    const want = new Int32Array(W * H);
    let count = 0;
    for (let s = 0; s < W * H; s++) {
      if (!mask[s] || want[s]) continue;
      want[s] = ++count;
      const todo = [s];
      while (todo.length) {
        const p = todo.pop()!;
        const x = p % W, y = (p - x) / W;
        for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
          const xx = x + dx, yy = y + dy, q = yy * W + xx;
          if (xx < 0 || yy < 0 || xx >= W || yy >= H || !mask[q] || want[q]) continue;
          want[q] = count;
          todo.push(q);
        }
      }
    }
    expect(pixels.length).toBe(count);
    expect(boxes.length).toBe(count);
    pixels.forEach((members, k) => {
      const own: number[] = [];
      want.forEach((id, i) => id === k + 1 && own.push(i));
      expect([...members].sort((a, b) => a - b)).toEqual(own);
      const xs = own.map((i) => i % W), ys = own.map((i) => Math.floor(i / W));
      expect(boxes[k]).toEqual({ x0: Math.max(0, Math.min(...xs) - 2), y0: Math.max(0, Math.min(...ys) - 2), x1: Math.min(W - 1, Math.max(...xs) + 2), y1: Math.min(H - 1, Math.max(...ys) + 2) });
    });
  });

  it('an enlargement reads a source pixel only from the output rows and columns its reach names', () => {
    for (const [w, h, W, H] of [[17, 11, 61, 40], [9, 7, 9, 7], [2, 3, 13, 29], [1, 1, 5, 4]] as const) {
      const reach = bilinearReach(w, h, W, H);
      for (let s = 0; s < w * h; s++) {
        const src = new Float32Array(w * h);
        src[s] = 1;
        const up = upsample(src, w, h, W, H);
        const c = s % w, r = (s - c) / w;
        const [from, to] = reach.readers(c);
        for (let Y = 0; Y < H; Y++) for (let X = 0; X < W; X++) {
          if (!up[Y * W + X]) continue;
          expect(reach.rowsOf(Y)).toContain(r);
          expect(X >= from && X < to).toBe(true);
        }
      }
    }
  });

  it('a downsample refreshed where its source changed equals a new downsample, to the bit', () => {
    // Whole and fractional ratios, a plane made no smaller, and an enlargement (made anew).
    for (const [w, h, W, H] of [[60, 40, 20, 10], [97, 61, 23, 17], [50, 30, 50, 30], [40, 10, 7, 10], [13, 9, 20, 15]]) {
      const src = Float32Array.from({ length: w! * h! }, () => rnd() * 100);
      const out = downsample(src, w!, h!, W!, H!);
      const changed = new Uint8Array(w! * h!);
      // Changed pixels: the four corners (the last row and column among them), and about 2 % more at random.
      for (const i of [0, w! - 1, w! * h! - 1, (h! - 1) * w!]) changed[i] = 1;
      for (let i = 0; i < changed.length; i++) if (rnd() < 0.02) changed[i] = 1;
      for (let i = 0; i < changed.length; i++) if (changed[i]) src[i] = rnd() * 100;
      refreshDownsample(src, w!, h!, out, W!, H!, changed);
      expect(Array.from(out)).toEqual(Array.from(downsample(src, w!, h!, W!, H!)));
    }
  });
});
