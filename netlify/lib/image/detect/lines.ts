import { select } from './residual';

// Line evidence everywhere at once: for every pixel of a plane, the largest and the most negative mean of the
// residual along LINE_DIRECTIONS straight lines through it (a light and a dark line), each in the spread of its
// own direction's means, and the mean over all directions (a line has one direction, a blob all of them). Each direction is swept along digital straight lines (one pixel per step
// along the major axis, the minor coordinate rounded), with running sums, so a direction costs two passes over
// the plane whatever the length. Run on a half-size copy of the residual (2×2 sums: a 1-px line keeps its
// strength), it finds faint scratches whose pixels alone do not stand out of the grain.

export const LINE_DIRECTIONS = 24;

export type LineField = {
  width: number;
  height: number;
  /** The largest line mean through each pixel (a light line), in its direction's spreads, and that direction. */
  light: Float32Array;
  lightDirection: Uint8Array;
  /** The largest negated line mean (a dark line), in spreads, and its direction. */
  dark: Float32Array;
  darkDirection: Uint8Array;
  /** Mean |line mean| over all directions, in spreads. */
  mean: Float32Array;
};

/** 2×2 sums of a plane (odd last row or column dropped). */
export function halfSums(r: Float32Array, w: number, h: number): { plane: Float32Array; width: number; height: number } {
  const hw = w >> 1;
  const hh = h >> 1;
  const plane = new Float32Array(hw * hh);
  for (let y = 0; y < hh; y++) {
    const a = 2 * y * w;
    const b = a + w;
    for (let x = 0; x < hw; x++) plane[y * hw + x] = r[a + 2 * x]! + r[a + 2 * x + 1]! + r[b + 2 * x]! + r[b + 2 * x + 1]!;
  }
  return { plane, width: hw, height: hh };
}

/**
 * Line means of `p` (w × h) over `half` steps each way along the digital lines of slope `t` (|t| ≤ 1: x-major),
 * for every pixel, into `out` (NaN where fewer than half the steps fall inside the plane).
 */
function sweep(p: Float32Array, w: number, h: number, t: number, half: number, out: Float32Array, scratch: SweepScratch): void {
  const off = scratch.off.subarray(0, w);
  for (let x = 0; x < w; x++) off[x] = Math.round(x * t);
  const lo = Math.min(0, off[w - 1]!);
  const hi = Math.max(0, off[w - 1]!);
  // Chains c = y − off[x] − lo, each a digital line; running sums per chain, chain-major with one leading 0.
  const chains = h + hi - lo;
  const S = scratch.sums.subarray(0, chains * (w + 1));
  // The x range where each chain is inside the plane (off is monotonic, so it is one interval).
  const first = scratch.first.subarray(0, chains).fill(w);
  const last = scratch.last.subarray(0, chains).fill(-1);
  for (let c = 0; c < chains; c++) {
    const row = c * (w + 1);
    let sum = 0;
    for (let x = 0; x < w; x++) {
      const y = c + lo + off[x]!;
      if (y >= 0 && y < h) {
        sum += p[y * w + x]!;
        if (first[c] === w) first[c] = x;
        last[c] = x;
      }
      S[row + x + 1] = sum;
    }
  }
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      const c = y - off[x]! - lo;
      const row = c * (w + 1);
      const x0 = Math.max(first[c]!, x - half);
      const x1 = Math.min(last[c]!, x + half);
      const n = x1 - x0 + 1;
      out[o + x] = n > half ? (S[row + x1 + 1]! - S[row + x0]!) / n : NaN;
    }
  }
}

/** Buffers a sweep reuses from one direction to the next (a plane's digital lines number at most w + 2h). */
type SweepScratch = { off: Int32Array; sums: Float32Array; first: Int32Array; last: Int32Array };

function sweepScratch(w: number, h: number): SweepScratch {
  const side = Math.max(w, h);
  const chains = 2 * (w + h);
  return { off: new Int32Array(side), sums: new Float32Array(chains * (side + 1)), first: new Int32Array(chains), last: new Int32Array(chains) };
}

function transpose(p: Float32Array, w: number, h: number): Float32Array {
  const t = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) t[x * h + y] = p[y * w + x]!;
  return t;
}

/** The line field of plane `p` (w × h) at `half` steps each way. */
export function lineField(p: Float32Array, w: number, h: number, half: number): LineField {
  const n = w * h;
  const light = new Float32Array(n);
  const dark = new Float32Array(n);
  const lightDirection = new Uint8Array(n);
  const darkDirection = new Uint8Array(n);
  const mean = new Float32Array(n);
  const pt = transpose(p, w, h);
  const out = new Float32Array(n);
  const outT = new Float32Array(n);
  const scratch = sweepScratch(w, h);
  for (let k = 0; k < LINE_DIRECTIONS; k++) {
    const a = (k * Math.PI) / LINE_DIRECTIONS;
    const xMajor = Math.abs(Math.cos(a)) >= Math.abs(Math.sin(a));
    // A y-major direction is swept on the transposed plane, where x advances by cot a per row.
    if (xMajor) sweep(p, w, h, Math.tan(a), half, out, scratch);
    else sweep(pt, h, w, 1 / Math.tan(a), half, outT, scratch);
    // Each direction's means in its own spreads: a regular texture's lines do not drown a scratch at an angle.
    const unit = 1 / spreadOf(xMajor ? out : outT);
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const v = (xMajor ? out[i]! : outT[x * h + y]!) * unit;
        if (Number.isNaN(v)) continue;
        mean[i]! += Math.abs(v) / LINE_DIRECTIONS;
        if (v > light[i]!) {
          light[i] = v;
          lightDirection[i] = k;
        } else if (-v > dark[i]!) {
          dark[i] = -v;
          darkDirection[i] = k;
        }
      }
    }
  }
  return { width: w, height: h, light, lightDirection, dark, darkDirection, mean };
}

/** 1.4826 · median |x| of the finite values (a strided sample of about 4000). */
function spreadOf(x: Float32Array): number {
  const step = Math.max(1, Math.floor(x.length / 4000));
  const s = new Float32Array(Math.ceil(x.length / step));
  let n = 0;
  for (let i = 0; i < x.length; i += step) {
    if (Number.isNaN(x[i]!)) continue;
    s[n] = Math.abs(x[i]!);
    n++;
  }
  return n ? Math.max(1e-3, 1.4826 * select(s.subarray(0, n), n >> 1)) : 1;
}
