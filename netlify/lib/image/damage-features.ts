import sharp from 'sharp';
import { boxMean } from './planes';

// Per-pixel evidence of damage on an L* plane (0..100), the inputs of the learned detector (damage-detect.ts).
// Damage is what a median cannot explain (residuals against 5×5 and 9×9 medians), and a scratch is a
// residual that keeps its sign along a line (line means at three lengths over 20 directions), on ground
// that is quiet beside it (residuals on the parallel lines 2 and 4 px away), while texture is a crowd of
// residuals of both signs. A speck is a residual that nothing around it matches (a ring 3–5 px out).

/** Integer steps of the line directions: near-vertical film scratches get the finest angles. */
export const DIRECTIONS: readonly (readonly [number, number])[] = [
  [1, 0], [4, 1], [3, 1], [2, 1], [3, 2], [1, 1], [2, 3], [1, 2], [1, 3], [1, 4], [1, 6], [0, 1],
  [-1, 6], [-1, 4], [-1, 3], [-1, 2], [-2, 3], [-1, 1], [-3, 2], [-2, 1], [-3, 1], [-4, 1],
];
/** Line lengths, in pixels, of the three coherence features. */
const LENGTHS = [9, 21, 41] as const;

/** A pixel is classified when its residual, or a line through it, stands this far out of the grain (the line
 * maximum is taken over 22 directions, so its threshold sits higher). Lower values cost time, not quality. */
const CANDIDATE = { residual: 2.5, line: 4.5 };

export const FEATURE_NAMES = ['residual5', 'residual9', 'line9', 'line21', 'line41', 'side2', 'side4', 'activity', 'speck', 'ground', 'vertical', 'coarse', 'edge'] as const;
export const FEATURE_COUNT = FEATURE_NAMES.length;

export type DamageFeatures = {
  /** Pixels worth classifying (anything standing out of the grain at all), as plane indices. */
  candidates: Int32Array;
  /** FEATURE_COUNT values per candidate, in FEATURE_NAMES order. */
  values: Float32Array;
  /** Index into DIRECTIONS of each candidate's best line direction (length 21). */
  direction: Uint8Array;
  /** Residual against the 5×5 median, and its robust spread (the grain). */
  residual: Float32Array;
  sigma: number;
};

/** Median of a plane through libvips on an 8-bit copy (2.55 steps per L*: finer than any damage). */
export async function medianPlane(src: Float32Array, w: number, h: number, size: number): Promise<Float32Array> {
  const u8 = new Uint8Array(w * h);
  for (let i = 0; i < u8.length; i++) u8[i] = Math.max(0, Math.min(255, Math.round(src[i] * 2.55)));
  const out = await sharp(u8, { raw: { width: w, height: h, channels: 1 } }).median(size).toColourspace('b-w').raw().toBuffer();
  const med = new Float32Array(w * h);
  for (let i = 0; i < med.length; i++) med[i] = out[i] / 2.55;
  return med;
}

/** 1.4826 · median |x| over a strided sample: the spread of the grain, robust to the damage itself. */
export function robustSpread(x: Float32Array): number {
  const step = Math.max(1, Math.floor(x.length / 200_000));
  const s = new Float32Array(Math.ceil(x.length / step));
  for (let i = 0, j = 0; i < x.length; i += step) s[j++] = Math.abs(x[i]!);
  return Math.max(0.05, 1.4826 * select(s, s.length >> 1));
}

/** The k-th smallest value of `a` (Hoare's quickselect, reorders `a` in place). */
function select(a: Float32Array, k: number): number {
  let lo = 0, hi = a.length - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) { const t = a[i]!; a[i] = a[j]!; a[j] = t; i++; j--; }
    }
    if (k <= j) hi = j; else if (k >= i) lo = i; else return a[k]!;
  }
  return a[k] ?? 0;
}

/** How many steps of (dx, dy) fit from (x, y) forwards (+1) or backwards (−1) inside the plane. */
function room(x: number, y: number, w: number, h: number, dx: number, dy: number, dir: 1 | -1): number {
  let n = 1 << 30;
  const sx = dx * dir, sy = dy * dir;
  if (sy > 0) n = Math.min(n, Math.floor((h - 1 - y) / sy)); else if (sy < 0) n = Math.min(n, Math.floor(y / -sy));
  if (sx > 0) n = Math.min(n, Math.floor((w - 1 - x) / sx)); else if (sx < 0) n = Math.min(n, Math.floor(x / -sx));
  return n;
}

/**
 * Means of `r` along lines of direction (dx, dy) through every pixel at the three lengths, signed by the
 * pixel's own residual, kept where they beat `best` (and the direction `k` where the middle length does).
 * Prefix sums along each chain of pixels p, p + d, p + 2d … make every length O(1) per pixel.
 */
function bestLineMeans(
  r: Float32Array, w: number, h: number, dx: number, dy: number, k: number, halves: readonly [number, number, number],
  best: readonly [Float32Array, Float32Array, Float32Array], bestDir: Uint8Array, P: Float64Array,
  sample?: { step: number; out: readonly [Float32Array, Float32Array, Float32Array] },
): void {
  const d = dy * w + dx;
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x, px = x - dx, py = y - dy;
    P[i] = r[i]! + (py >= 0 && px >= 0 && px < w ? P[i - d]! : 0);
  }
  const [h0, h1, h2] = halves, [b0, b1, b2] = best;
  // Pixels this far from the borders have the whole line inside: no room() needed there.
  const top = Math.max(h0, h1, h2), mx = top * Math.abs(dx), my = top * Math.abs(dy);
  const mean = (i: number, half: number, fwd: number, back: number) => {
    const f = Math.min(half, fwd), b = Math.min(half, back), s = i - b * d;
    return (P[i + f * d]! - P[s]! + r[s]!) / (f + b + 1);
  };
  for (let y = 0; y < h; y++) {
    const inner = y >= my && y < h - my;
    for (let x = 0; x < w; x++) {
      const i = y * w + x, sign = r[i]! >= 0 ? 1 : -1;
      let v0: number, v1: number, v2: number;
      if (inner && x >= mx && x < w - mx) {
        v0 = (P[i + h0 * d]! - P[i - h0 * d]! + r[i - h0 * d]!) / (2 * h0 + 1);
        v1 = (P[i + h1 * d]! - P[i - h1 * d]! + r[i - h1 * d]!) / (2 * h1 + 1);
        v2 = (P[i + h2 * d]! - P[i - h2 * d]! + r[i - h2 * d]!) / (2 * h2 + 1);
      } else {
        const fwd = room(x, y, w, h, dx, dy, 1), back = room(x, y, w, h, dx, dy, -1);
        v0 = mean(i, h0, fwd, back); v1 = mean(i, h1, fwd, back); v2 = mean(i, h2, fwd, back);
      }
      if (sample && i % sample.step === 0) { const j = i / sample.step; sample.out[0][j] = v0; sample.out[1][j] = v1; sample.out[2][j] = v2; }
      v0 *= sign; v1 *= sign; v2 *= sign;
      if (v0 > b0[i]!) b0[i] = v0;
      if (v1 > b1[i]!) { b1[i] = v1; bestDir[i] = k; }
      if (v2 > b2[i]!) b2[i] = v2;
    }
  }
}

/** Mean of `r` along the line of direction (dx, dy) through (x, y), `half` steps each way. */
function lineMeanAt(r: Float32Array, w: number, h: number, x: number, y: number, dx: number, dy: number, half: number): number {
  const f = Math.min(half, room(x, y, w, h, dx, dy, 1)), b = Math.min(half, room(x, y, w, h, dx, dy, -1));
  let s = 0;
  for (let k = -b; k <= f; k++) s += r[(y + k * dy) * w + x + k * dx];
  return s / (f + b + 1);
}

/** `median5`: the plane's 5×5 median when the caller already has it. */
export async function damageFeatures(L: Float32Array, w: number, h: number, median5?: Float32Array): Promise<DamageFeatures> {
  const n = w * h;
  const [med5, med9, med15] = await Promise.all([median5 ?? medianPlane(L, w, h, 5), medianPlane(L, w, h, 9), medianPlane(L, w, h, 15)]);
  const r5 = new Float32Array(n), r9 = new Float32Array(n), abs5 = new Float32Array(n);
  for (let i = 0; i < n; i++) { r5[i] = L[i] - med5[i]; r9[i] = L[i] - med9[i]; abs5[i] = Math.abs(r5[i]); }
  const sigma = robustSpread(r5), sigma9 = robustSpread(r9);

  // Best signed line coherence per length, and the best direction at 21 px. The grain's own spread of the
  // line means (on the horizontal and vertical lines, residual signs ignored) scales each length.
  const best = [new Float32Array(n).fill(-Infinity), new Float32Array(n).fill(-Infinity), new Float32Array(n).fill(-Infinity)] as const;
  const bestDir = new Uint8Array(n);
  const P = new Float64Array(n);
  const lineSigma = LENGTHS.map(() => 0), sampleStep = Math.max(1, Math.floor(n / 200_000));
  DIRECTIONS.forEach(([dx, dy], k) => {
    const step = Math.hypot(dx, dy);
    const halves = LENGTHS.map((len) => Math.max(1, Math.round((len - 1) / 2 / step))) as [number, number, number];
    const sample = k === 0 || k === 11 ? { step: sampleStep, out: [0, 1, 2].map(() => new Float32Array(Math.ceil(n / sampleStep))) as [Float32Array, Float32Array, Float32Array] } : undefined;
    bestLineMeans(r5, w, h, dx, dy, k, halves, best, bestDir, P, sample);
    if (sample) sample.out.forEach((v, j) => (lineSigma[j] += robustSpread(v) / 2));
  });

  const activity = boxMean(abs5, w, h, 5);
  const ground = localSpread(med9, w, h, 3);
  // Structure at the 5–15 px scale (what damage, being thin, lacks), and the edges of the 9×9 median.
  const coarseDiff = new Float32Array(n);
  for (let i = 0; i < n; i++) coarseDiff[i] = Math.abs(med5[i] - med15[i]);
  const coarse = localMax(coarseDiff, w, h, 2);
  const edge = gradient(med9, w, h);

  // Candidates: anything that stands out of the grain on its own or along a line.
  const cand: number[] = [];
  for (let i = 0; i < n; i++) if (abs5[i] > CANDIDATE.residual * sigma || best[1][i] > CANDIDATE.line * lineSigma[1] || best[2][i] > CANDIDATE.line * lineSigma[2]) cand.push(i);
  const candidates = Int32Array.from(cand);
  const values = new Float32Array(candidates.length * FEATURE_COUNT);
  const direction = new Uint8Array(candidates.length);
  candidates.forEach((i, c) => {
    const x = i % w, y = (i - x) / w, k = bestDir[i], [dx, dy] = DIRECTIONS[k]!;
    const step = Math.hypot(dx, dy), half = Math.max(1, Math.round(10 / step));
    // Unit normal, rounded to whole pixels at 2 and 4 px.
    const nx = -dy / step, ny = dx / step;
    const sideAt = (xx: number, yy: number) => (xx >= 0 && yy >= 0 && xx < w && yy < h ? Math.abs(lineMeanAt(r5, w, h, xx, yy, dx, dy, half)) : 0);
    const side = (dist: number) => Math.max(sideAt(Math.round(x + dist * nx), Math.round(y + dist * ny)), sideAt(Math.round(x - dist * nx), Math.round(y - dist * ny)));
    let ring = 0;
    for (let oy = -5; oy <= 5; oy++) for (let ox = -5; ox <= 5; ox++) {
      if (Math.max(Math.abs(ox), Math.abs(oy)) < 3) continue;
      const xx = x + ox, yy = y + oy;
      if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
      const v = Math.sign(r9[i]) * r9[yy * w + xx];
      if (v > ring) ring = v;
    }
    const o = c * FEATURE_COUNT;
    values[o] = abs5[i] / sigma;
    values[o + 1] = Math.abs(r9[i]) / sigma9;
    values[o + 2] = best[0][i] / lineSigma[0];
    values[o + 3] = best[1][i] / lineSigma[1];
    values[o + 4] = best[2][i] / lineSigma[2];
    values[o + 5] = side(2) / lineSigma[1];
    values[o + 6] = side(4) / lineSigma[1];
    values[o + 7] = activity[i] / sigma;
    values[o + 8] = (Math.abs(r9[i]) - ring) / sigma9;
    values[o + 9] = ground[i] / sigma;
    values[o + 10] = Math.abs(dy) / step;
    values[o + 11] = coarse[i] / sigma;
    values[o + 12] = edge[i] / sigma;
    direction[c] = k;
  });
  return { candidates, values, direction, residual: r5, sigma };
}

/** Standard deviation of a plane over (2r+1)² windows. */
function localSpread(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const sq = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) sq[i] = src[i] * src[i];
  const m = boxMean(src, w, h, r), m2 = boxMean(sq, w, h, r);
  for (let i = 0; i < m.length; i++) m[i] = Math.sqrt(Math.max(0, m2[i] - m[i] * m[i]));
  return m;
}

/** Maximum over (2r+1)² windows (separable). */
function localMax(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const tmp = new Float32Array(src.length), out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let m = -Infinity;
    for (let k = Math.max(0, x - r); k <= Math.min(w - 1, x + r); k++) m = Math.max(m, src[y * w + k]);
    tmp[y * w + x] = m;
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let m = -Infinity;
    for (let k = Math.max(0, y - r); k <= Math.min(h - 1, y + r); k++) m = Math.max(m, tmp[k * w + x]);
    out[y * w + x] = m;
  }
  return out;
}

/** Gradient magnitude (central differences). */
function gradient(src: Float32Array, w: number, h: number): Float32Array {
  const out = new Float32Array(src.length);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const gx = src[y * w + Math.min(w - 1, x + 1)] - src[y * w + Math.max(0, x - 1)];
    const gy = src[Math.min(h - 1, y + 1) * w + x] - src[Math.max(0, y - 1) * w + x];
    out[y * w + x] = Math.hypot(gx, gy) / 2;
  }
  return out;
}
