// Single-channel float planes: resampling, box filtering and the guided filter (He, Sun, Tang 2013),
// which is what lets heavy steps run at a working resolution while full-resolution luminance guides the result.

import { setScanner } from './masks';

export type Plane = { data: Float32Array; width: number; height: number };

/** Downsample by averaging each output pixel's footprint (anti-aliased). */
export function downsample(src: Float32Array, w: number, h: number, W: number, H: number): Float32Array {
  if (W === w && H === h) return src.slice();
  const out = new Float32Array(W * H);
  const { from: x0s, to: x1s } = footprints(w, W);
  const { from: y0s, to: y1s } = footprints(h, H);
  const row = new Float64Array(W);
  for (let Y = 0; Y < H; Y++) {
    const y0 = y0s[Y]!, y1 = y1s[Y]!;
    row.fill(0);
    for (let y = y0; y < y1; y++) {
      const base = y * w;
      for (let X = 0; X < W; X++) {
        let s = 0;
        for (let x = x0s[X], e = x1s[X]; x < e; x++) s += src[base + x];
        row[X] += s;
      }
    }
    const o = Y * W;
    for (let X = 0; X < W; X++) out[o + X] = row[X] / ((y1 - y0) * (x1s[X] - x0s[X]));
  }
  return out;
}

/** downsample's footprints along an axis of n pixels made N: output pixel X sums source pixels from[X] … to[X] − 1. */
function footprints(n: number, N: number): { from: Int32Array; to: Int32Array } {
  const s = n / N;
  const from = new Int32Array(N);
  const to = new Int32Array(N);
  for (let X = 0; X < N; X++) {
    from[X] = Math.floor(X * s);
    to[X] = Math.max(from[X]! + 1, Math.min(n, Math.floor((X + 1) * s)));
  }
  return { from, to };
}

/**
 * Brings `out`, downsample(src, w, h, W, H) before the pixels set in `changed` (w × h) changed, up to date: only
 * the output pixels whose footprint holds a changed pixel are summed again, in downsample's order, so `out` is
 * what a new downsample would give, without a pass over the whole source (a 12 MP plane after its fill).
 */
export function refreshDownsample(src: Float32Array, w: number, h: number, out: Float32Array, W: number, H: number, changed: Uint8Array): void {
  // An enlargement's footprints overlap (each has at least one pixel): made anew.
  if (W > w || H > h) {
    out.set(downsample(src, w, h, W, H));
    return;
  }
  const cols = footprints(w, W);
  const rows = footprints(h, H);
  // The output column (row) whose footprint holds each source column (row); −1 for one no footprint reaches.
  const ownerOf = ({ from, to }: { from: Int32Array; to: Int32Array }, n: number) => {
    const owner = new Int32Array(n).fill(-1);
    for (let X = 0; X < from.length; X++) owner.fill(X, from[X]!, to[X]!);
    return owner;
  };
  const colOf = ownerOf(cols, w);
  const rowOf = ownerOf(rows, h);
  const stale = new Uint8Array(W * H);
  const nextChanged = setScanner(changed);
  for (let i = nextChanged(0); i < changed.length; i = nextChanged(i + 1)) {
    const x = i % w;
    const X = colOf[x]!;
    const Y = rowOf[(i - x) / w]!;
    if (X >= 0 && Y >= 0) stale[Y * W + X] = 1;
  }
  const nextStale = setScanner(stale);
  for (let o = nextStale(0); o < stale.length; o = nextStale(o + 1)) {
    const X = o % W;
    const Y = (o - X) / W;
    const x0 = cols.from[X]!, x1 = cols.to[X]!, y0 = rows.from[Y]!, y1 = rows.to[Y]!;
    let sum = 0;
    for (let y = y0; y < y1; y++) {
      let s = 0;
      for (let x = x0; x < x1; x++) s += src[y * w + x]!;
      sum += s;
    }
    out[o] = sum / ((y1 - y0) * (x1 - x0));
  }
}

/** bilinearRows' columns: each output column's left source column and its weight (as a float). */
function bilinearColumns(w: number, W: number) {
  const sx = w / W;
  const xi = new Int32Array(W), xf = new Float32Array(W);
  for (let X = 0; X < W; X++) {
    const fx = Math.min(Math.max((X + 0.5) * sx - 0.5, 0), w - 1);
    xi[X] = Math.min(Math.floor(fx), w - 2 < 0 ? 0 : w - 2);
    xf[X] = w > 1 ? fx - xi[X] : 0;
  }
  return { xi, xf, x1off: w > 1 ? 1 : 0 };
}

/** bilinearRows' output row Y: the offsets of its two source rows and the lower one's weight. */
function bilinearRowOf(w: number, h: number, H: number, Y: number) {
  const fy = Math.min(Math.max((Y + 0.5) * (h / H) - 0.5, 0), h - 1);
  const y0 = Math.min(Math.floor(fy), h - 2 < 0 ? 0 : h - 2);
  return { ty: h > 1 ? fy - y0 : 0, r0: y0 * w, r1: (h > 1 ? y0 + 1 : y0) * w };
}

/**
 * Bilinear resampling with pixel-centre alignment, one output row at a time, as the two source rows it blends
 * (interpolated across, in reused buffers) and the lower one's weight `ty`: output row Y is
 * `top[X] + (bot[X] − top[X]) · ty`, rounded to a float. For callers that fuse the blend with what consumes it.
 */
export function bilinearRowPairs(w: number, h: number, W: number, H: number) {
  const { xi, xf, x1off } = bilinearColumns(w, W);
  // An enlargement reads each source row for several output rows in a row: each plane's last two source rows
  // interpolated across are kept (in double, the arithmetic of the one-step formula), so the next output row
  // only blends them. The planes are read, never written, while a caller goes through its rows.
  const kept = new Map<Float32Array, { at: [number, number]; rows: [Float64Array, Float64Array] }>();
  const across = (src: Float32Array, r: number, into: Float64Array) => {
    for (let X = 0; X < W; X++) {
      const x = xi[X], t = xf[X];
      into[X] = src[r + x] + (src[r + x + x1off] - src[r + x]) * t;
    }
  };
  /** Source row r (an offset) of `src` interpolated across, computed unless kept; never evicts row `keep`. */
  const sourceRow = (src: Float32Array, r: number, keep: number): Float64Array => {
    let k = kept.get(src);
    if (!k) {
      k = { at: [-1, -1], rows: [new Float64Array(W), new Float64Array(W)] };
      kept.set(src, k);
    }
    if (k.at[0] === r) return k.rows[0];
    if (k.at[1] === r) return k.rows[1];
    const free = k.at[0] === keep ? 1 : 0;
    across(src, r, k.rows[free]);
    k.at[free] = r;
    return k.rows[free];
  };
  /** Output row Y of `src` (w×h) as its two source rows and the weight of the lower one. */
  return (src: Float32Array, Y: number): { top: Float64Array; bot: Float64Array; ty: number } => {
    const { ty, r0, r1 } = bilinearRowOf(w, h, H, Y);
    const top = sourceRow(src, r0, -1);
    const bot = r1 === r0 ? top : sourceRow(src, r1, r0);
    return { top, bot, ty };
  };
}

/** Pixel X of an output row given as its two source rows and weight (bilinearRowPairs), rounded as a row stores it. */
export const between = (top: Float64Array, bot: Float64Array, ty: number, X: number): number => Math.fround(top[X]! + (bot[X]! - top[X]!) * ty);

/**
 * Bilinear resampling with pixel-centre alignment, one output row at a time: lets callers fuse
 * upsampling with what consumes it instead of holding full-resolution planes.
 */
export function bilinearRows(w: number, h: number, W: number, H: number) {
  const pair = bilinearRowPairs(w, h, W, H);
  /** Writes output row Y of `src` (w×h) into `out` (length W). */
  return (src: Float32Array, Y: number, out: Float32Array) => {
    const { top, bot, ty } = pair(src, Y);
    for (let X = 0; X < W; X++) out[X] = top[X] + (bot[X] - top[X]) * ty;
  };
}

/**
 * One pixel at a time of bilinearRows (the same arithmetic, the value rounded to a float as a row stores it):
 * for callers that need a few pixels of an upsampled plane. Pixels asked for row by row reuse the row's setup.
 */
export function bilinearSampler(w: number, h: number, W: number, H: number) {
  const { xi, xf, x1off } = bilinearColumns(w, W);
  let row = bilinearRowOf(w, h, H, 0);
  let rowY = 0;
  return (src: Float32Array, X: number, Y: number): number => {
    if (Y !== rowY) {
      row = bilinearRowOf(w, h, H, Y);
      rowY = Y;
    }
    const { ty, r0, r1 } = row;
    const x = xi[X], t = xf[X];
    const top = src[r0 + x] + (src[r0 + x + x1off] - src[r0 + x]) * t;
    const bot = src[r1 + x] + (src[r1 + x + x1off] - src[r1 + x]) * t;
    return Math.fround(top + (bot - top) * ty);
  };
}

/** An operation on one row of a full-resolution plane: row Y (W values), changed in place. */
export type RowPass = (Y: number, row: Float32Array) => void;

/**
 * Runs each pass over a row before the next row: the row stays in cache between them, where whole-plane passes
 * one after another would read and write a 12 MP plane each (null passes are skipped).
 */
export function applyRows(plane: Float32Array, W: number, H: number, passes: (RowPass | null)[]): void {
  const live = passes.filter((p): p is RowPass => p !== null);
  if (!live.length) return;
  for (let Y = 0; Y < H; Y++) {
    const row = plane.subarray(Y * W, (Y + 1) * W);
    for (const pass of live) pass(Y, row);
  }
}

/**
 * Which output pixels of a bilinear enlargement (bilinearRows' geometry) can read a source pixel, for callers that
 * visit only the output near a sparse set of source pixels: output row Y reads source rows `rowsOf(Y)`; source
 * column c is read by output columns `readers(c)` = [from, to). Every other output pixel is blind to it.
 */
export function bilinearReach(w: number, h: number, W: number, H: number) {
  const { xi } = bilinearColumns(w, W);
  // first[c]: the first output column whose left source column is c or more (W if none).
  const first = new Int32Array(w + 2).fill(W);
  for (let X = W - 1; X >= 0; X--) first[xi[X]!] = X;
  for (let c = w; c >= 0; c--) first[c] = Math.min(first[c]!, first[c + 1]!);
  return {
    rowsOf: (Y: number): [number, number] => {
      const { r0, r1 } = bilinearRowOf(w, h, H, Y);
      return [r0 / w, r1 / w];
    },
    readers: (c: number): [number, number] => [first[Math.max(0, c - 1)]!, first[Math.min(w, c + 1)]!],
  };
}

/** Bilinear resampling with pixel-centre alignment (used for upsampling). */
export function upsample(src: Float32Array, w: number, h: number, W: number, H: number): Float32Array {
  if (W === w && H === h) return src.slice();
  const out = new Float32Array(W * H);
  const row = bilinearRows(w, h, W, H);
  for (let Y = 0; Y < H; Y++) row(src, Y, out.subarray(Y * W, (Y + 1) * W));
  return out;
}

export function resize(src: Float32Array, w: number, h: number, W: number, H: number): Float32Array {
  return W * H < w * h ? downsample(src, w, h, W, H) : upsample(src, w, h, W, H);
}

/** boxMean's row pass where the window is clipped (x in [from, to)): running sum `s` in, and out. */
function edgeSums(src: Float32Array, tmp: Float32Array, base: number, from: number, to: number, r: number, w: number, s: number): number {
  for (let x = from; x < to; x++) {
    const lo = x - r, hi = x + r;
    tmp[base + x] = s / (Math.min(hi, w - 1) - Math.max(lo, 0) + 1);
    if (hi + 1 < w) s += src[base + hi + 1];
    if (lo >= 0) s -= src[base + lo];
  }
  return s;
}

/** Mean over a (2r+1)² window, clipped at the borders (divides by the pixels actually inside). */
export function boxMean(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  // The same sums in the same order as one loop with bounds checks, but the interior, where the window is
  // whole, runs without them (this runs a dozen times per photo).
  const whole = 2 * r + 1;
  const start = Math.min(r, w);
  const end = Math.max(start, w - r - 1);
  for (let y = 0; y < h; y++) {
    const base = y * w;
    let s = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++) s += src[base + x];
    s = edgeSums(src, tmp, base, 0, start, r, w, s);
    for (let x = start; x < end; x++) {
      tmp[base + x] = s / whole;
      s += src[base + x + r + 1];
      s -= src[base + x - r];
    }
    edgeSums(src, tmp, base, end, w, r, w, s);
  }
  const col = new Float64Array(w);
  for (let y = 0; y <= Math.min(r, h - 1); y++) for (let x = 0; x < w; x++) col[x] += tmp[y * w + x];
  for (let y = 0; y < h; y++) {
    const lo = y - r, hi = y + r;
    const cnt = Math.min(hi, h - 1) - Math.max(lo, 0) + 1;
    const o = y * w;
    if (hi + 1 < h && lo >= 0) {
      // Both updates in one pass, in the same order per column as the two loops below.
      const b = (hi + 1) * w;
      const d = lo * w;
      for (let x = 0; x < w; x++) {
        out[o + x] = col[x] / cnt;
        col[x] = col[x] + tmp[b + x] - tmp[d + x];
      }
      continue;
    }
    for (let x = 0; x < w; x++) out[o + x] = col[x] / cnt;
    if (hi + 1 < h) {
      const b = (hi + 1) * w;
      for (let x = 0; x < w; x++) col[x] += tmp[b + x];
    }
    if (lo >= 0) {
      const b = lo * w;
      for (let x = 0; x < w; x++) col[x] -= tmp[b + x];
    }
  }
  return out;
}

/** A guide's box means (of I and of I²) over (2r+1)² windows, for guidedCoefficients. */
export type GuideMeans = { r: number; mI: Float32Array; mII: Float32Array };

export function guideMeans(I: Float32Array, w: number, h: number, r: number): GuideMeans {
  const II = new Float32Array(w * h);
  for (let i = 0; i < II.length; i++) II[i] = I[i] * I[i];
  return { r, mI: boxMean(I, w, h, r), mII: boxMean(II, w, h, r) };
}

/**
 * Linear coefficients (A, B) of the guided filter of `p` guided by `I`: output ≈ A·I + B. The guide's means
 * (guideMeans of I at r) can be given when several planes share a guide; a self-guided filter (`p` the same plane
 * as `I`: the denoise, the local contrast's base) reads them for p's own.
 */
export function guidedCoefficients(I: Float32Array, p: Float32Array, w: number, h: number, r: number, eps: number, guide?: GuideMeans) {
  const n = w * h;
  const { mI, mII } = guide && guide.r === r && guide.mI.length === n ? guide : guideMeans(I, w, h, r);
  let mp = mI, mIp = mII;
  if (p !== I) {
    const Ip = new Float32Array(n);
    for (let i = 0; i < n; i++) Ip[i] = I[i] * p[i];
    mp = boxMean(p, w, h, r);
    mIp = boxMean(Ip, w, h, r);
  }
  const a = new Float32Array(n), b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const varI = mII[i] - mI[i] * mI[i];
    a[i] = (mIp[i] - mI[i] * mp[i]) / (varI + eps);
    b[i] = mp[i] - a[i] * mI[i];
  }
  return { A: boxMean(a, w, h, r), B: boxMean(b, w, h, r) };
}

/**
 * Fast guided filter (He & Sun 2015): coefficients are computed on the low-resolution pair
 * (guideLow, srcLow) and applied to the full-resolution guide, so edges come from the full-res guide.
 * Several sources share one pass and arrive row by row (`onRow` gets row Y of each, reused buffers),
 * so a 12 MP photo never holds full-resolution copies of them.
 */
export function guidedUpsampleRows(
  guideFull: Float32Array, W: number, H: number,
  guideLow: Float32Array, srcsLow: Float32Array[], w: number, h: number,
  r: number, eps: number,
  onRow: (Y: number, rows: Float32Array[]) => void,
): void {
  const guide = guideMeans(guideLow, w, h, r);
  const coeffs = srcsLow.map((src) => guidedCoefficients(guideLow, src, w, h, r, eps, guide));
  const pair = bilinearRowPairs(w, h, W, H);
  const rows = srcsLow.map(() => new Float32Array(W));
  for (let Y = 0; Y < H; Y++) {
    const o = Y * W;
    coeffs.forEach((c, k) => {
      // A and B upsampled and applied in one loop.
      const { top: tA, bot: bA, ty } = pair(c.A, Y);
      const { top: tB, bot: bB } = pair(c.B, Y);
      const out = rows[k];
      for (let X = 0; X < W; X++) out[X] = between(tA, bA, ty, X) * guideFull[o + X] + between(tB, bB, ty, X);
    });
    onRow(Y, rows);
  }
}

/** guidedUpsample of one plane into a full-resolution plane. */
export function guidedUpsample(
  guideFull: Float32Array, W: number, H: number,
  guideLow: Float32Array, srcLow: Float32Array, w: number, h: number,
  r: number, eps: number,
): Float32Array {
  const out = new Float32Array(W * H);
  guidedUpsampleRows(guideFull, W, H, guideLow, [srcLow], w, h, r, eps, (Y, [row]) => out.set(row, Y * W));
  return out;
}

/** Size with the long side at most `maxSide`, keeping the aspect ratio. */
export function fitSize(w: number, h: number, maxSide: number): { width: number; height: number } {
  const s = Math.min(1, maxSide / Math.max(w, h));
  return { width: Math.max(1, Math.round(w * s)), height: Math.max(1, Math.round(h * s)) };
}

/** The q-quantiles of a plane (each 0..1), from one histogram of `bins` levels over [lo, hi]. */
export function percentiles(data: Float32Array, qs: number[], lo = 0, hi = 100, bins = 1024): number[] {
  const hist = new Uint32Array(bins);
  const scale = (bins - 1) / (hi - lo);
  for (let i = 0; i < data.length; i++) {
    const v = data[i];
    hist[v <= lo ? 0 : v >= hi ? bins - 1 : ((v - lo) * scale) | 0]++;
  }
  return qs.map((q) => {
    const target = q * data.length;
    let acc = 0;
    for (let k = 0; k < bins; k++) {
      acc += hist[k];
      if (acc >= target) return lo + k / scale;
    }
    return hi;
  });
}
