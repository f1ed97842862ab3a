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
 * The inside range of every chain of one direction: chain c holds the pixel at step j (0 ≤ j < len, along the
 * major axis) whose minor coordinate c + lo + off[j] is in 0 … size − 1. off is monotonic, so that is one
 * interval of steps, found by bisection: first[c] … last[c] (len, −1 when empty).
 */
function chainRanges(off: Int32Array, len: number, lo: number, size: number, chains: number, first: Int32Array, last: Int32Array): void {
  const rising = off[len - 1]! >= off[0]!;
  // The first step where the minor coordinate is at or above `bound` (rising) or below it (falling): from there
  // on it stays so.
  const firstPast = (c: number, bound: number): number => {
    let a = 0;
    let b = len;
    while (a < b) {
      const m = (a + b) >> 1;
      const v = c + lo + off[m]!;
      if (rising ? v >= bound : v < bound) b = m;
      else a = m + 1;
    }
    return a;
  };
  for (let c = 0; c < chains; c++) {
    const from = rising ? firstPast(c, 0) : firstPast(c, size);
    const to = (rising ? firstPast(c, size) : firstPast(c, 0)) - 1;
    first[c] = from <= to ? from : len;
    last[c] = from <= to ? to : -1;
  }
}

/**
 * One direction of the line field of `p` (w × h): the line means over `half` steps each way along the digital
 * lines of slope `t` (|t| ≤ 1; x-major, or y-major when `yMajor`: x advances by t per row), for every pixel,
 * merged into the field as they come (NaN where fewer than half the steps fall inside the plane: not merged), and
 * kept in `keep` when given. Each line's running sum is taken along it from where it enters the plane, in double,
 * and kept (as a float) at each of its pixels in `P`: a line mean is the difference of two of them.
 */
function sweep(p: Float32Array, w: number, h: number, t: number, yMajor: boolean, half: number, k: number, field: FieldSums, keep: Float32Array | null): void {
  // Steps along the major axis, the minor axis's size.
  const len = yMajor ? h : w;
  const size = yMajor ? w : h;
  const off = new Int32Array(len);
  for (let j = 0; j < len; j++) off[j] = Math.round(j * t);
  // Chains c = minor − off[major] − lo, each a digital line; minor − off[major] runs from −max(off) (a line
  // entering from above or the left) to size − 1 − min(off).
  const lo = -Math.max(0, off[len - 1]!);
  const chains = size + Math.abs(off[len - 1]!);
  chainRanges(off, len, lo, size, chains, field.first, field.last);
  field.sums.fill(0, 0, chains);
  const lines: Lines = { p, w, h, off, lo, half, k, field };
  if (yMajor) {
    columnSums(lines);
    columnMeans(lines);
  } else {
    rowSums(lines);
    rowMeans(lines, keep);
  }
}

/** One direction's digital lines over the plane, and the field they are merged into. */
type Lines = { p: Float32Array; w: number; h: number; off: Int32Array; lo: number; half: number; k: number; field: FieldSums };

/** Merges line mean `v` of direction `k` at pixel `i` into the field (its mean over directions, its strongest). */
function record(field: FieldSums, i: number, v: number, k: number): void {
  const m = Math.abs(v);
  field.mean[i]! += m / LINE_DIRECTIONS;
  if (m > Math.abs(field.best[i]!)) {
    field.best[i] = v;
    field.direction[i] = k;
  }
}

/**
 * x-major lines' running sums: rows in the order the lines run through them (down when they descend, up when
 * they climb), so each line's pixels come in order of x.
 */
function rowSums({ p, w, h, off, lo, field: { sums, P } }: Lines): void {
  const down = off[w - 1]! >= 0;
  for (let r = 0; r < h; r++) {
    const y = down ? r : h - 1 - r;
    const o = y * w;
    for (let x = 0; x < w; x++) {
      const c = y - off[x]! - lo;
      const sum = sums[c]! + p[o + x]!;
      sums[c] = sum;
      P[o + x] = sum;
    }
  }
}

/** x-major lines' means at every pixel, merged (and kept in `keep`, NaN included, when given). */
function rowMeans({ w, h, off, lo, half, k, field }: Lines, keep: Float32Array | null): void {
  const { P, first, last } = field;
  const whole = 2 * half + 1;
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      // The line through (x, y) is at row base + off[j] at column j.
      const base = y - off[x]!;
      const c = base - lo;
      const f = first[c]!;
      const l = last[c]!;
      let v: number;
      if (x - half > f && x + half <= l) {
        // Inside: the whole line, and a sum before its start.
        v = Math.fround((P[(base + off[x + half]!) * w + x + half]! - P[(base + off[x - half - 1]!) * w + x - half - 1]!) / whole);
      } else {
        const x0 = Math.max(f, x - half);
        const x1 = Math.min(l, x + half);
        const n = x1 - x0 + 1;
        v = NaN;
        if (n > half) {
          const before = x0 > f ? P[(base + off[x0 - 1]!) * w + x0 - 1]! : 0;
          v = Math.fround((P[(base + off[x1]!) * w + x1]! - before) / n);
        }
      }
      if (keep) keep[o + x] = v;
      if (!Number.isNaN(v)) record(field, o + x, v, k);
    }
  }
}

/** y-major lines' running sums: every row holds one pixel of each line crossing it, so rows in order give each line's pixels in order of y. */
function columnSums({ p, w, h, off, lo, field: { sums, P } }: Lines): void {
  for (let y = 0; y < h; y++) {
    const c0 = -lo - off[y]!;
    const o = y * w;
    for (let x = 0; x < w; x++) {
      const c = c0 + x;
      const sum = sums[c]! + p[o + x]!;
      sums[c] = sum;
      P[o + x] = sum;
    }
  }
}

/** y-major lines' means at every pixel, merged where at least half their steps fall inside the plane. */
function columnMeans({ w, h, off, lo, half, k, field }: Lines): void {
  const { P, first, last } = field;
  const whole = 2 * half + 1;
  for (let y = 0; y < h; y++) {
    const o = y * w;
    // Where the line through (x, y) is half steps ahead and half + 1 behind, for lines inside there.
    const ahead = y + half < h ? (y + half) * w + off[y + half]! : 0;
    const behind = y - half - 1 >= 0 ? (y - half - 1) * w + off[y - half - 1]! : 0;
    for (let x = 0; x < w; x++) {
      // The line through (x, y) is at column base + off[j] in row j.
      const base = x - off[y]!;
      const c = base - lo;
      const f = first[c]!;
      const l = last[c]!;
      let v: number;
      if (y - half > f && y + half <= l) {
        v = Math.fround((P[ahead + base]! - P[behind + base]!) / whole);
      } else {
        const y0 = Math.max(f, y - half);
        const y1 = Math.min(l, y + half);
        const n = y1 - y0 + 1;
        if (n <= half) continue;
        const before = y0 > f ? P[(y0 - 1) * w + base + off[y0 - 1]!]! : 0;
        v = Math.fround((P[y1 * w + base + off[y1]!]! - before) / n);
      }
      if (!Number.isNaN(v)) record(field, o + x, v, k);
    }
  }
}

/** The field being built and the sweeps' scratch. */
type FieldSums = {
  best: Float32Array;
  mean: Float32Array;
  direction: Uint8Array;
  /** Running sums along the lines, at their pixels. */
  P: Float32Array;
  /** Per line: its running sum, and the steps where it enters and leaves the plane. */
  sums: Float64Array;
  first: Int32Array;
  last: Int32Array;
};

/** The line field of plane `p` (w × h) at `half` steps each way. */
export function lineField(p: Float32Array, w: number, h: number, half: number): LineField {
  const n = w * h;
  const chains = w + h;
  const field: FieldSums = {
    best: new Float32Array(n),
    mean: new Float32Array(n),
    direction: new Uint8Array(n),
    P: new Float32Array(n),
    sums: new Float64Array(chains),
    first: new Int32Array(chains),
    last: new Int32Array(chains),
  };
  const horizontal = new Float32Array(n);
  if (n) {
    for (let k = 0; k < LINE_DIRECTIONS; k++) {
      const a = (k * Math.PI) / LINE_DIRECTIONS;
      const xMajor = Math.abs(Math.cos(a)) >= Math.abs(Math.sin(a));
      // A y-major direction advances x by cot a per row.
      sweep(p, w, h, xMajor ? Math.tan(a) : 1 / Math.tan(a), !xMajor, half, k, field, k === 0 ? horizontal : null);
    }
  }
  const { best, mean, direction } = field;
  return { width: w, height: h, best, mean, direction, spread: spreadOf(horizontal) };
}

/** 1.4826 · median |x| of the finite values (a strided sample). */
function spreadOf(x: Float32Array): number {
  const step = Math.max(1, Math.floor(x.length / 50_000));
  const s = new Float64Array(Math.ceil(x.length / step));
  let count = 0;
  for (let i = 0; i < x.length; i += step) if (!Number.isNaN(x[i]!)) s[count++] = Math.abs(x[i]!);
  // A typed array sorts numerically, as the comparator a − b did.
  const sorted = s.subarray(0, count).sort();
  return Math.max(1e-3, 1.4826 * (sorted[count >> 1] ?? 0));
}
