import { maskRegions } from '../../shared';
import { FEATURE_COUNT, FEATURE_NAMES, type Evidence } from './evidence';
import { joinCollinear } from './chains';
import { shape } from './shape';

// Damage as objects: the pixels the pixel network finds likely are grouped into 8-connected components, and
// each is described as a whole — size, length and width along its principal axis, straightness, contrast,
// how crowded its surroundings are — and in its context: does the line go on past its ends (a scratch broken
// where it crosses a structure does; a twig or a letter stroke stops), is the picture the same on both sides of
// it (a scratch crosses the ground; the edge of a wire, a window bar or a shadow separates two different
// things), do other lines run parallel beside it (the bars of a grid or railing, a bundle of wires or hairs;
// a scratch is usually alone), and how much of the picture it spans. The object network (model.ts) decides.

export const OBJECT_FEATURE_NAMES = [
  'size', 'length', 'width', 'meanP', 'maxP', 'residual', 'line41', 'activity', 'ground', 'upright', 'crowding', 'side2',
  'speck', 'straightness', 'asymmetry', 'edge', 'beyond', 'sidesDiffer', 'light', 'parallels', 'span', 'wide',
] as const;
export const OBJECT_FEATURE_COUNT = OBJECT_FEATURE_NAMES.length;

/** Pixel probability above which a pixel joins a component. */
export const OBJECT_FLOOR = 0.2;
/** How far (px) past a component's ends the line is looked for, and how far beside it the two sides are read. */
const BEYOND = 12;
const BESIDE = 3;
/** Lines at least this long are compared with each other for `parallels`: within this angle (cosine) and distance (px). */
const PARALLEL = { length: 10, cos: 0.985, distance: 60 };

export type DamageObjects = {
  /** Pixels of each component. */
  pixels: Int32Array[];
  /** OBJECT_FEATURE_COUNT values per component. */
  values: Float32Array;
  /** Unit principal axis of each component (x, y). */
  axis: Float32Array;
  /** Dominant sign of each component's residual (+1 light, −1 dark). */
  sign: Int8Array;
};

const feature = (name: (typeof FEATURE_NAMES)[number]) => FEATURE_NAMES.indexOf(name);
const SUMMED = ['residual', 'line41', 'activity', 'ground', 'side2', 'speck', 'asymmetry', 'edge', 'light', 'wide'].map((n) => feature(n as (typeof FEATURE_NAMES)[number]));

/**
 * The likely pixels (candidates whose probability passes OBJECT_FLOOR): their 8-connected components, each pixel's
 * candidate index (−1 for the others), and their count per integral image (w + 1) × (h + 1), for crowding.
 */
export type LikelyPixels = { parts: Int32Array[]; index: Int32Array; S: Int32Array };

export function likelyPixels(ev: Evidence, p: Float32Array, w: number, h: number): LikelyPixels {
  const index = new Int32Array(w * h).fill(-1);
  const likely = new Uint8Array(w * h);
  const { candidates } = ev;
  for (let c = 0; c < candidates.length; c++) {
    if (p[c]! <= OBJECT_FLOOR) continue;
    index[candidates[c]!] = c;
    likely[candidates[c]!] = 1;
  }
  // Each part's pixels in raster order.
  const parts = maskRegions(likely, w, h, 0).pixels.map((members) => members.sort());
  const S = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const own = likely[y * w + x]!;
      S[(y + 1) * (w + 1) + x + 1] = own + S[y * (w + 1) + x + 1]! + S[(y + 1) * (w + 1) + x]! - S[y * (w + 1) + x]!;
    }
  }
  return { parts, index, S };
}

/** Mean of `plane` at (x, y) rounded, or NaN outside. */
function at(plane: Float32Array, w: number, h: number, x: number, y: number): number {
  const xx = Math.round(x);
  const yy = Math.round(y);
  if (xx < 0 || yy < 0 || xx >= w || yy >= h) return NaN;
  return plane[yy * w + xx]!;
}

/**
 * How far the line goes on past the component's ends: the mean residual with the component's sign over BEYOND
 * px along its axis past each end, the better end, in line-mean spreads.
 */
function beyondEnds(members: Int32Array, s: ReturnType<typeof shape>, sign: number, ev: Evidence, w: number, h: number): number {
  let lo = Infinity;
  let hi = -Infinity;
  for (const i of members) {
    const t = ((i % w) - s.cx) * s.ax + (Math.floor(i / w) - s.cy) * s.ay;
    lo = Math.min(lo, t);
    hi = Math.max(hi, t);
  }
  let best = 0;
  for (const [from, dir] of [[hi, 1], [lo, -1]] as const) {
    let sum = 0;
    let count = 0;
    for (let k = 1; k <= BEYOND; k++) {
      const t = from + dir * k;
      const v = at(ev.residual.r, w, h, s.cx + t * s.ax, s.cy + t * s.ay);
      if (Number.isNaN(v)) break;
      sum += sign * v;
      count++;
    }
    if (count) best = Math.max(best, sum / count);
  }
  return best / ev.lineSigma;
}

/** How different the picture is on the two sides of the component (BESIDE px out), in grain spreads. */
function sidesDiffer(members: Int32Array, s: ReturnType<typeof shape>, L: Float32Array, ev: Evidence, w: number, h: number): number {
  let left = 0;
  let right = 0;
  let count = 0;
  for (const i of members) {
    const x = i % w;
    const y = Math.floor(i / w);
    const a = at(L, w, h, x - s.ay * BESIDE, y + s.ax * BESIDE);
    const b = at(L, w, h, x + s.ay * BESIDE, y - s.ax * BESIDE);
    if (Number.isNaN(a) || Number.isNaN(b)) continue;
    left += a;
    right += b;
    count++;
  }
  return count ? Math.abs(left - right) / count / ev.residual.sigma : 0;
}

/**
 * For each line, how many other lines of its sign run parallel to it nearby (the bars of a grid or a railing,
 * a bundle of wires or hairs; a scratch is usually alone), into its `parallels` value.
 */
function countParallels(values: Float32Array, axis: Float32Array, centres: Float32Array, sign: Int8Array): void {
  const count = sign.length;
  const lengthAt = OBJECT_FEATURE_NAMES.indexOf('length');
  const lines: number[] = [];
  for (let k = 0; k < count; k++) if (values[k * OBJECT_FEATURE_COUNT + lengthAt]! >= PARALLEL.length) lines.push(k);
  for (const k of lines) {
    let n = 0;
    for (const j of lines) {
      if (j === k || sign[j] !== sign[k]) continue;
      const cos = Math.abs(axis[2 * k]! * axis[2 * j]! + axis[2 * k + 1]! * axis[2 * j + 1]!);
      if (cos < PARALLEL.cos) continue;
      const dx = centres[2 * j]! - centres[2 * k]!;
      const dy = centres[2 * j + 1]! - centres[2 * k + 1]!;
      // Distance across k's axis, and along it within both lines' reach.
      const across = Math.abs(-axis[2 * k + 1]! * dx + axis[2 * k]! * dy);
      const along = Math.abs(axis[2 * k]! * dx + axis[2 * k + 1]! * dy);
      const reach = (values[k * OBJECT_FEATURE_COUNT + lengthAt]! + values[j * OBJECT_FEATURE_COUNT + lengthAt]!) / 2;
      if (across <= PARALLEL.distance && along <= reach) n++;
    }
    values[k * OBJECT_FEATURE_COUNT + OBJECT_FEATURE_NAMES.indexOf('parallels')] = n;
  }
}

/**
 * Components of likely pixels (probability `p` per candidate) and their descriptions; with `join`, the pieces of
 * one straight line are joined first (chains.ts). `likely` (likelyPixels of the same evidence and probabilities)
 * is found once when both descriptions are made.
 */
export function damageObjects(L: Float32Array, ev: Evidence, p: Float32Array, w: number, h: number, join = false, likely: LikelyPixels = likelyPixels(ev, p, w, h)): DamageObjects {
  const { parts, index, S } = likely;
  const pixels = join ? joinCollinear(parts, ev.residual.r, w) : parts;
  // Likely pixels per integral image (S), for crowding: how many others share the neighbourhood.
  const boxCount = (x0: number, y0: number, x1: number, y1: number) =>
    S[(y1 + 1) * (w + 1) + x1 + 1]! - S[y0 * (w + 1) + x1 + 1]! - S[(y1 + 1) * (w + 1) + x0]! + S[y0 * (w + 1) + x0]!;
  const values = new Float32Array(pixels.length * OBJECT_FEATURE_COUNT);
  const axis = new Float32Array(pixels.length * 2);
  const sign = new Int8Array(pixels.length);
  const centres = new Float32Array(pixels.length * 2);
  const sums = new Float64Array(SUMMED.length);
  pixels.forEach((members, k) => {
    let x0 = w;
    let y0 = h;
    let x1 = 0;
    let y1 = 0;
    let sp = 0;
    let mp = 0;
    let signSum = 0;
    sums.fill(0);
    for (let q = 0; q < members.length; q++) {
      const i = members[q]!;
      const c = index[i]!;
      const x = i % w;
      const y = (i - x) / w;
      x0 = Math.min(x0, x);
      y0 = Math.min(y0, y);
      x1 = Math.max(x1, x);
      y1 = Math.max(y1, y);
      for (let j = 0; j < SUMMED.length; j++) sums[j]! += ev.values[c * FEATURE_COUNT + SUMMED[j]!]!;
      sp += p[c]!;
      mp = Math.max(mp, p[c]!);
      signSum += ev.residual.r[i]! >= 0 ? 1 : -1;
    }
    const m = members.length;
    const s = shape(members, w);
    const sg = signSum >= 0 ? 1 : -1;
    axis[2 * k] = s.ax;
    axis[2 * k + 1] = s.ay;
    sign[k] = sg;
    const margin = 8;
    const bx0 = Math.max(0, x0 - margin);
    const by0 = Math.max(0, y0 - margin);
    const bx1 = Math.min(w - 1, x1 + margin);
    const by1 = Math.min(h - 1, y1 + margin);
    const others = boxCount(bx0, by0, bx1, by1) - m;
    const area = (bx1 - bx0 + 1) * (by1 - by0 + 1) - m;
    const mean = (name: string) => sums[SUMMED.indexOf(feature(name as (typeof FEATURE_NAMES)[number]))]! / m;
    const o = k * OBJECT_FEATURE_COUNT;
    values[o] = m;
    values[o + 1] = s.length;
    values[o + 2] = s.width;
    values[o + 3] = sp / m;
    values[o + 4] = mp;
    values[o + 5] = mean('residual');
    values[o + 6] = mean('line41');
    values[o + 7] = mean('activity');
    values[o + 8] = mean('ground');
    values[o + 9] = Math.abs(s.ay);
    values[o + 10] = area > 0 ? (100 * others) / area : 0;
    values[o + 11] = mean('side2');
    values[o + 12] = mean('speck');
    values[o + 13] = s.straightness;
    values[o + 14] = mean('asymmetry');
    values[o + 15] = mean('edge');
    values[o + 16] = beyondEnds(members, s, sg, ev, w, h);
    values[o + 17] = sidesDiffer(members, s, L, ev, w, h);
    values[o + 18] = mean('light');
    values[o + 20] = s.length / (Math.abs(s.ax) * w + Math.abs(s.ay) * h);
    values[o + 21] = mean('wide');
    centres[2 * k] = s.cx;
    centres[2 * k + 1] = s.cy;
  });
  countParallels(values, axis, centres, sign);
  return { pixels, values, axis, sign };
}
