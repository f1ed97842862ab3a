// Line evidence everywhere at once: for every pixel of a plane, the mean of the residual along the best of
// LINE_DIRECTIONS straight lines through it (its sign kept), and the mean over all directions (a line has one
// direction, a blob all of them). Each direction is swept along digital straight lines (one pixel per step
// along the major axis, the minor coordinate rounded), with running sums, so a direction costs two passes over
// the plane whatever the length. Run on a half-size copy of the residual (2×2 sums: a 1-px line keeps its
// strength), it finds faint scratches whose pixels alone do not stand out of the grain.

export const LINE_DIRECTIONS = 24;

export type LineField = {
  width: number;
  height: number;
  /** Signed mean along the best direction (the sign of the residual along it). */
  best: Float32Array;
  /** Mean |line mean| over all directions. */
  mean: Float32Array;
  /** Index of the best direction: angle = index · 180° / LINE_DIRECTIONS, 0 horizontal. */
  direction: Uint8Array;
  /** Spread of the grain's line means (the unit of `best`). */
  spread: number;
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
function sweep(p: Float32Array, w: number, h: number, t: number, half: number, out: Float32Array): void {
  const off = new Int32Array(w);
  for (let x = 0; x < w; x++) off[x] = Math.round(x * t);
  // Chains c = y − off[x] − lo, each a digital line; running sums per chain, chain-major with one leading 0.
  // y − off[x] runs from −max(off) (a line entering from above) to h − 1 − min(off) (one entering from below).
  const lo = -Math.max(0, off[w - 1]!);
  const chains = h + Math.abs(off[w - 1]!);
  const S = new Float32Array(chains * (w + 1));
  // The x range where each chain is inside the plane (off is monotonic, so it is one interval).
  const first = new Int32Array(chains).fill(w);
  const last = new Int32Array(chains).fill(-1);
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

function transpose(p: Float32Array, w: number, h: number): Float32Array {
  const t = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) t[x * h + y] = p[y * w + x]!;
  return t;
}

/** The line field of plane `p` (w × h) at `half` steps each way. */
export function lineField(p: Float32Array, w: number, h: number, half: number): LineField {
  const n = w * h;
  const best = new Float32Array(n);
  const mean = new Float32Array(n);
  const direction = new Uint8Array(n);
  const pt = transpose(p, w, h);
  const out = new Float32Array(n);
  const outT = new Float32Array(n);
  let horizontal: Float32Array | null = null;
  for (let k = 0; k < LINE_DIRECTIONS; k++) {
    const a = (k * Math.PI) / LINE_DIRECTIONS;
    const xMajor = Math.abs(Math.cos(a)) >= Math.abs(Math.sin(a));
    // A y-major direction is swept on the transposed plane, where x advances by cot a per row.
    if (xMajor) sweep(p, w, h, Math.tan(a), half, out);
    else sweep(pt, h, w, 1 / Math.tan(a), half, outT);
    if (k === 0) horizontal = out.slice();
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        const v = xMajor ? out[i]! : outT[x * h + y]!;
        if (Number.isNaN(v)) continue;
        const m = Math.abs(v);
        mean[i]! += m / LINE_DIRECTIONS;
        if (m > Math.abs(best[i]!)) {
          best[i] = v;
          direction[i] = k;
        }
      }
    }
  }
  return { width: w, height: h, best, mean, direction, spread: spreadOf(horizontal!) };
}

/** 1.4826 · median |x| of the finite values (a strided sample). */
function spreadOf(x: Float32Array): number {
  const step = Math.max(1, Math.floor(x.length / 50_000));
  const s: number[] = [];
  for (let i = 0; i < x.length; i += step) if (!Number.isNaN(x[i]!)) s.push(Math.abs(x[i]!));
  s.sort((a, b) => a - b);
  return Math.max(1e-3, 1.4826 * (s[s.length >> 1] ?? 0));
}
