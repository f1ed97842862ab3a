import { describe, expect, it } from 'vitest';
import { guidedCoefficients, guidedUpsampleRows, upsample } from '../../../engines/shared';
import { sharpen } from '../../../engines/image/restore/detail';

// The full-resolution passes run a row at a time, fused with their neighbours, so a 12 MP photo is not read and
// written once per step. Each must give the same bits as the plain whole-plane arithmetic written out here.
let seed = 5;
const rnd = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 4294967296;
};

/** Sharpening as one whole-plane blur, then the thresholded mask, then the clamp to L*'s range. */
function sharpenedPlainly(L: Float32Array, W: number, H: number, thr: number, amount: number, leave?: Uint8Array): Float32Array {
  const out = L.slice();
  const tmp = new Float32Array(W * H);
  const at = (x: number, y: number) => L[Math.min(H - 1, Math.max(0, y)) * W + Math.min(W - 1, Math.max(0, x))]!;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) tmp[y * W + x] = (at(x - 1, y) + 2 * at(x, y) + at(x + 1, y)) / 4;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const i = y * W + x;
      if (leave?.[i]) continue;
      const blur = (tmp[Math.max(0, y - 1) * W + x]! + 2 * tmp[i]! + tmp[Math.min(H - 1, y + 1) * W + x]!) / 4;
      const d = L[i]! - blur;
      if (Math.abs(d) > thr) out[i]! += amount * Math.sign(d) * (Math.abs(d) - thr);
    }
  }
  return out.map((v) => Math.min(100, Math.max(0, v)));
}

describe('full-resolution passes a row at a time', () => {
  it('sharpen equals the whole-plane unsharp mask, clamped, with and without pixels left alone', () => {
    for (const [W, H] of [[37, 23], [1, 9], [8, 1]] as const) {
      // Strong texture near both ends of the range, so the mask pushes values past 0 and 100.
      const L = Float32Array.from({ length: W * H }, () => (rnd() < 0.5 ? rnd() * 8 : 92 + rnd() * 8));
      const leave = Uint8Array.from({ length: W * H }, () => (rnd() < 0.3 ? 1 : 0));
      for (const mask of [undefined, leave]) {
        const out = L.slice();
        sharpen(out, W, H, 1, 1.2, 0.5, mask && { mask, width: W, height: H });
        expect(out).toEqual(sharpenedPlainly(L, W, H, 1.5 * 1 * 1.2, 0.5, mask));
      }
    }
  });

  it('the guided upsampling equals its coefficients upsampled as planes, then A·guide + B', () => {
    const w = 13, h = 9, W = 47, H = 31;
    const guideLow = Float32Array.from({ length: w * h }, () => rnd() * 100);
    const srcs = [0, 1].map(() => Float32Array.from({ length: w * h }, () => rnd() * 60 - 30));
    const guideFull = Float32Array.from({ length: W * H }, () => rnd() * 100);
    const got = srcs.map(() => new Float32Array(W * H));
    guidedUpsampleRows(guideFull, W, H, guideLow, srcs, w, h, 2, 16, (Y, rows) => rows.forEach((row, k) => got[k]!.set(row, Y * W)));
    srcs.forEach((src, k) => {
      const { A, B } = guidedCoefficients(guideLow, src, w, h, 2, 16);
      const Au = upsample(A, w, h, W, H), Bu = upsample(B, w, h, W, H);
      expect(got[k]).toEqual(Float32Array.from(guideFull, (g, i) => Au[i]! * g + Bu[i]!));
    });
  });
});
