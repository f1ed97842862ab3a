import { boxMean } from '../../shared';

// Fine regular textures (a window screen, a fence, woven cloth, a carved facade) repeat every few pixels. Every
// one of their pixels is explained by its copies one period away, while a scratch across them is not: a scratch
// at an angle never lands on its own copy. So the search looks at such a texture with the texture taken out —
// each pixel minus what its copies predict, on the local mean — where a scratch is a plain line on flat ground
// and the texture's own lines, explained by their copies, are nothing at all.

export const PERIODIC = {
  /** Periods tried along each axis, px. */
  longest: 8,
  /** Side of the blocks the periodicity is judged in, px, and the reach of the judgement in blocks (a 20 px square). */
  block: 4,
  reach: 2,
  /** A difference counts when it exceeds this many grain spreads (and at least `minStep` L*). */
  spreads: 4,
  minStep: 2,
  /** Periodic along an axis: at most `atPeriod` of the pixels differ from their copy one period away, and at least
   * `between` from every shorter shift (a texture, not flat ground, and not a longer period's multiple). */
  atPeriod: 0.2,
  between: 0.3,
  /** A block's period stands when at least this many of the 3×3 blocks around it (itself included) share it: a
   * texture covers an area, a lone block is chance. */
  agree: 4,
} as const;

/**
 * The plane with its fine periodic textures taken out (each periodic pixel L − prediction + local mean), or null
 * when the plane has none (the search then runs on L itself).
 */
export function withoutPeriodicTexture(L: Float32Array, w: number, h: number): Float32Array | null {
  const { block, longest } = PERIODIC;
  const bw = Math.ceil(w / block);
  const bh = Math.ceil(h / block);
  const step = Math.max(PERIODIC.minStep, PERIODIC.spreads * copyNoise(L, w, h));
  // The period of every block across and down (0: none there).
  const periods = [axisPeriods(L, w, h, 1, step, bw, bh), axisPeriods(L, w, h, w, step, bw, bh)];
  if (!periods[0] && !periods[1]) return null;
  const px = periods[0] ?? new Uint8Array(bw * bh);
  const py = periods[1] ?? new Uint8Array(bw * bh);
  const local = boxMean(L, w, h, longest);
  const out = L.slice();
  const samples = new Float32Array(8);
  for (let y = 0; y < h; y++) {
    const brow = Math.floor(y / block) * bw;
    for (let x = 0; x < w; x++) {
      const b = brow + Math.floor(x / block);
      const sx = px[b]!;
      const sy = py[b]!;
      if (!sx && !sy) continue;
      const offsets = copyOffsets(sx, sy);
      let n = 0;
      for (let k = 0; k < offsets.length; k += 2) {
        const u = x + offsets[k]!;
        const v = y + offsets[k + 1]!;
        if (u >= 0 && u < w && v >= 0 && v < h) samples[n++] = L[v * w + u]!;
      }
      if (n < 2) continue;
      const i = y * w + x;
      out[i] = L[i]! - medianOf(samples, n) + local[i]!;
    }
  }
  return out;
}

/** Where a pixel's copies are (dx, dy pairs): one period away every way on a 2-D texture, one and two periods along a 1-D one. */
const copies = new Map<number, Int8Array>();
function copyOffsets(sx: number, sy: number): Int8Array {
  const key = sx * 64 + sy;
  let o = copies.get(key);
  if (!o) {
    o = Int8Array.from(
      sx && sy
        ? [sx, 0, -sx, 0, 0, sy, 0, -sy, sx, sy, -sx, sy, sx, -sy, -sx, -sy]
        : [sx, sy, -sx, -sy, 2 * sx, 2 * sy, -2 * sx, -2 * sy],
    );
    copies.set(key, o);
  }
  return o;
}

/**
 * The period of every block along one axis (`stride` 1: across, w: down), 0 where it is not periodic; null when
 * no block is. Shift 1 is counted everywhere first: only where many pixels differ from their neighbour (a texture)
 * are the longer shifts counted.
 */
function axisPeriods(L: Float32Array, w: number, h: number, stride: number, step: number, bw: number, bh: number): Uint8Array | null {
  const { reach, longest, atPeriod, between } = PERIODIC;
  const nb = bw * bh;
  const total = new Float32Array(nb);
  const counts = Array.from({ length: longest }, () => new Float32Array(nb));
  countNeighbours(L, w, h, stride, step, bw, total, counts[0]!);
  const norm = boxMean(total, bw, bh, reach);
  const shareOf = (s: number) => {
    const m = boxMean(counts[s - 1]!, bw, bh, reach);
    for (let b = 0; b < nb; b++) m[b] = m[b]! / Math.max(1, norm[b]!);
    return m;
  };
  // Blocks near a textured one (their counts enter its judgement) get the longer shifts counted.
  const textured = shareOf(1);
  const near = new Float32Array(nb);
  let any = false;
  for (let b = 0; b < nb; b++) {
    if (textured[b]! >= between) {
      near[b] = 1;
      any = true;
    }
  }
  if (!any) return null;
  const needed = boxMean(near, bw, bh, reach);
  const todo = new Uint8Array(nb);
  for (let b = 0; b < nb; b++) todo[b] = needed[b]! > 0 ? 1 : 0;
  countShifts(L, w, h, stride, step, bw, todo, 2, longest, counts);
  // The longer shifts' shares are read at the blocks near a texture alone: shareOf(s)[b], taken there.
  const shareAt = (s: number, b: number) => Math.fround(wholeBoxMeanAt(counts[s - 1]!, bw, bh, reach, b) / Math.max(1, norm[b]!));
  const period = new Uint8Array(nb);
  any = false;
  for (let b = 0; b < nb; b++) {
    if (!near[b]) continue;
    let shorter = Infinity;
    for (let s = 1; s <= longest; s++) {
      const f = s === 1 ? textured[b]! : shareAt(s, b);
      if (s >= 2 && f <= atPeriod && shorter >= between) {
        period[b] = s;
        any = true;
        break;
      }
      shorter = Math.min(shorter, f);
    }
  }
  return any ? agreed(period, bw, bh) : null;
}

/**
 * boxMean(plane, bw, bh, r)[b] of a plane of whole numbers (counts) of at most 2¹⁶ per block, from the window
 * around b alone: each row's sum over the columns inside, divided by their count (as a float), those summed down
 * the rows inside and divided by their count (as a float). On such a plane every running sum boxMean takes is
 * exact in double (whole sums, then sums of at most 2r + 1 floats k / n with n ≤ 2r + 1), so its value at b does
 * not depend on the order of the sums.
 */
function wholeBoxMeanAt(plane: Float32Array, bw: number, bh: number, r: number, b: number): number {
  const bx = b % bw;
  const by = (b - bx) / bw;
  const x0 = Math.max(0, bx - r);
  const x1 = Math.min(bw - 1, bx + r);
  const y0 = Math.max(0, by - r);
  const y1 = Math.min(bh - 1, by + r);
  const nx = x1 - x0 + 1;
  let col = 0;
  for (let y = y0; y <= y1; y++) {
    let s = 0;
    for (let x = x0; x <= x1; x++) s += plane[y * bw + x]!;
    col += Math.fround(s / nx);
  }
  return Math.fround(col / (y1 - y0 + 1));
}

/** The periods shared by at least PERIODIC.agree of the 3×3 blocks around; null when none is. */
function agreed(period: Uint8Array, bw: number, bh: number): Uint8Array | null {
  const out = new Uint8Array(period.length);
  let any = false;
  for (let by = 0; by < bh; by++) {
    for (let bx = 0; bx < bw; bx++) {
      const p = period[by * bw + bx]!;
      if (!p) continue;
      let same = 0;
      for (let v = Math.max(0, by - 1); v <= Math.min(bh - 1, by + 1); v++) {
        for (let u = Math.max(0, bx - 1); u <= Math.min(bw - 1, bx + 1); u++) if (period[v * bw + u] === p) same++;
      }
      if (same >= PERIODIC.agree) {
        out[by * bw + bx] = p;
        any = true;
      }
    }
  }
  return any ? out : null;
}

/**
 * The shift of 1 px over every block: how many pixels differ by more than `step` from their neighbour one pixel
 * on (into `ones`), and how many pixels each block has (into `total`). Row by row, each pixel counted into its
 * block in integers, made floats once per block: the same whole numbers as a float increment per pixel.
 */
function countNeighbours(L: Float32Array, w: number, h: number, stride: number, step: number, bw: number, total: Float32Array, ones: Float32Array): void {
  const { block } = PERIODIC;
  const differ = new Int32Array(ones.length);
  const column = new Int32Array(w);
  for (let x = 0; x < w; x++) column[x] = Math.floor(x / block);
  // The last column (across) or row (down) has no copy one pixel on.
  const xe = stride === 1 ? w - 1 : w;
  const ye = stride === 1 ? h : h - 1;
  for (let y = 0; y < ye; y++) {
    const brow = Math.floor(y / block) * bw;
    const o = y * w;
    for (let x = 0; x < xe; x++) {
      const d = L[o + x]! - L[o + x + stride]!;
      if (d > step || d < -step) differ[brow + column[x]!]!++;
    }
  }
  for (let b = 0; b < ones.length; b++) {
    ones[b] = differ[b]!;
    const bx = (b % bw) * block;
    const by = Math.floor(b / bw) * block;
    total[b] = (Math.min(w, bx + block) - bx) * (Math.min(h, by + block) - by);
  }
}

/** Per block marked in `blocks`: how many pixels differ by more than `step` from their copy s = from…to px on. */
function countShifts(L: Float32Array, w: number, h: number, stride: number, step: number, bw: number, blocks: Uint8Array, from: number, to: number, counts: Float32Array[]): void {
  const { block } = PERIODIC;
  const along = stride === 1 ? w : h;
  for (let b = 0; b < blocks.length; b++) {
    if (!blocks[b]) continue;
    const bx = (b % bw) * block;
    const by = Math.floor(b / bw) * block;
    const xe = Math.min(w, bx + block);
    const ye = Math.min(h, by + block);
    for (let y = by; y < ye; y++) {
      for (let x = bx; x < xe; x++) {
        const i = y * w + x;
        const v = L[i]!;
        const reachable = Math.min(to, along - 1 - (stride === 1 ? x : y));
        for (let s = from; s <= reachable; s++) {
          const d = v - L[i + s * stride]!;
          if (d > step || d < -step) counts[s - 1]![b]!++;
        }
      }
    }
  }
}

/**
 * The grain's spread, from what a texture cannot hide: in each 16 px block the smallest mean difference of a
 * pixel to its copy 1…longest px on (across or down; on a periodic texture, its period), the median of those
 * over the blocks, as a spread (pixelNoise would count a fine texture's own lines as noise). Every 4th pixel.
 */
function copyNoise(L: Float32Array, w: number, h: number): number {
  const { longest } = PERIODIC;
  const side = 16;
  const gap = 4;
  const bw = Math.ceil(w / side);
  const nb = bw * Math.ceil(h / side);
  const sums = new Float32Array(nb * longest * 2);
  const counts = new Float32Array(nb);
  for (let y = 0; y < h - longest; y += gap) {
    for (let x = 0; x < w - longest; x += gap) {
      const b = Math.floor(y / side) * bw + Math.floor(x / side);
      const i = y * w + x;
      const v = L[i]!;
      counts[b]!++;
      const o = b * longest * 2;
      for (let s = 1; s <= longest; s++) {
        sums[o + 2 * s - 2] += Math.abs(v - L[i + s]!);
        sums[o + 2 * s - 1] += Math.abs(v - L[i + s * w]!);
      }
    }
  }
  const least: number[] = [];
  for (let b = 0; b < nb; b++) {
    if (!counts[b]) continue;
    let m = Infinity;
    for (let k = 0; k < longest * 2; k++) m = Math.min(m, sums[b * longest * 2 + k]! / counts[b]!);
    least.push(m);
  }
  if (!least.length) return 0;
  least.sort((p, q) => p - q);
  // Mean |a − b| of two pixels with grain σ each is σ·√2·√(2/π) = 1.128 σ.
  return least[least.length >> 1]! / 1.128;
}

/** Median of the first n values of `a` (n ≤ 8; sorts them in place). */
function medianOf(a: Float32Array, n: number): number {
  for (let i = 1; i < n; i++) {
    const v = a[i]!;
    let j = i - 1;
    while (j >= 0 && a[j]! > v) {
      a[j + 1] = a[j]!;
      j--;
    }
    a[j + 1] = v;
  }
  return n % 2 ? a[n >> 1]! : (a[n / 2 - 1]! + a[n / 2]!) / 2;
}
