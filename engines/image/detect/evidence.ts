import { boxMean } from '../../shared';
import { LINE_DIRECTIONS, type LineField } from './lines';
import { medianOfSteps, toStep, type Residual } from './residual';

// Per-pixel evidence of damage, the pixel network's inputs. Only candidates are measured: pixels whose residual
// (against the 5×5 median) stands out of the grain. For each, the line through it is found among 36 directions
// (every 5°, any orientation: film scratches are near vertical, print scratches and fibres run anywhere) and
// measured: how far the residual keeps its sign along it (9, 21 and 41 px), how quiet the ground is on the
// parallel lines 2 and 4 px away, and the picture's profile across it — a scratch is a narrow symmetric ridge,
// the edge of a wire or a letter is lopsided. A speck is a residual nothing around it matches. A speck 4–6 px
// across is half of its own 5×5 median and barely stands out there; the residual against the 9×9 median
// (`wide`) shows it whole.

/** Directions of the line search, every 5° over half a turn (0° is horizontal, 90° vertical). */
export const DIRECTION_COUNT = 36;
/** Half-lengths (px) of the three line means: 9, 21 and 41 px long. */
const HALVES = [4, 10, 20] as const;
/** Perpendicular distances (px) of the side lines. */
const SIDES = [2, 4] as const;
/** Half-width and half-length (px) of the cross profile. */
const PROFILE = { across: 3, along: 5 } as const;
/** Outer and inner half-sides of the speck test's ring. */
const RING = { outer: 5, inner: 2 } as const;
/** Side (px) of the window whose median |r| is a candidate's activity. */
const ACTIVITY_SIDE = 11;
/** Half-side (px) of the window of the median's spread, a candidate's `ground`. */
const GROUND_RADIUS = 3;
/** A step that wrapped around a row edge lands farther than this from its pixel's column (see onPlane). */
const MARGIN = HALVES[2] + SIDES[1] + 1;

/**
 * Which pixels are measured. A pixel whose residual stands `spreads` grain spreads out is a candidate if it is
 * `strong`, or if a line through it keeps the residual's sign (its best 21-px line mean at least `line` line
 * spreads): a weaker lone pixel is grain or texture. A fainter pixel (from `faint` spreads) is one too when the
 * line field (lines.ts, about 41 px long) finds a line through it with its sign at `field` spreads: a faint
 * scratch's pixels do not stand out one by one. From `field` spreads the field's direction is taken as the
 * line's (refined to 5°); below, the direction is searched every 10°.
 */
export const CANDIDATE = {
  spreads: 2.5,
  strong: 3.5,
  line: 3,
  faint: 1,
  field: 5,
  /** A pixel from `faint` spreads is a candidate too when the 9×9 residual, of the same sign, stands `wide` of its
   * own spreads out: the inside of a speck too wide for the 5×5 median. */
  wide: 4,
};

/**
 * A candidate's evidence, one named field per feature. This list is the one place the features are named: its
 * order is the networks' input order (FEATURE_NAMES, recorded in model.json and checked by model.ts `predict`),
 * so a feature is added at its end and the networks retrained (`npm run train:damage`).
 */
export const FEATURES = {
  /** |r| in grain spreads σ. */
  residual: 0,
  /** The candidate's line (its sign's best of 36 directions) at 9, 21 and 41 px, in line spreads. */
  line9: 0,
  line21: 0,
  line41: 0,
  /** How much that line stands out of the mean over directions. */
  directional: 0,
  /** The strongest parallel line 2 and 4 px to either side. */
  side2: 0,
  side4: 0,
  /** The ground's activity (median |r| over 11×11, in σ), filled in by withGroundActivity or withActivity. */
  activity: 0,
  /** The speck test: |r| above the ring 2–5 px out. */
  speck: 0,
  /** The spread of the 5×5 median around the pixel (how busy its ground is). */
  ground: 0,
  /** |dy| of the line's direction. */
  vertical: 0,
  /** The cross profile: its two sides' difference 2 px out, and at its ends (an edge is lopsided). */
  asymmetry: 0,
  edge: 0,
  /** How many of its 7 rows stand out by half the peak. */
  width: 0,
  /** +1 light, −1 dark. */
  light: 0,
  /** The 5×5 median's L* / 100. */
  level: 0,
  /** The line field at the pixel: its best line of the pixel's sign, and how directional it is. */
  field: 0,
  fieldDirectional: 0,
  /** The 9×9 residual of the pixel's sign in its own spreads σ₉. */
  wide: 0,
};
export type Features = typeof FEATURES;
export type FeatureName = keyof Features;
export const FEATURE_NAMES = Object.keys(FEATURES) as FeatureName[];
export const FEATURE_COUNT = FEATURE_NAMES.length;

export type Evidence = {
  /** Candidate pixels, as plane indices. */
  candidates: Int32Array;
  /** FEATURE_COUNT values per candidate, in FEATURE_NAMES order. */
  values: Float32Array;
  /** Index of each candidate's line direction (0 … DIRECTION_COUNT − 1). */
  direction: Uint8Array;
  /** The residual it was measured on, and the residual against the 9×9 median. */
  residual: Residual;
  wide: Residual;
  /** Spread of the grain's 21-px line means (the unit of line evidence). */
  lineSigma: number;
};

/** Unit vector of direction k. */
export function directionVector(k: number): readonly [number, number] {
  const a = (k * Math.PI) / DIRECTION_COUNT;
  return [Math.cos(a), Math.sin(a)];
}

/**
 * Steps along direction k, from the centre (0, +1, −1, +2, −2 …), `half` each way and `shift` px aside: as pixel
 * offsets in a plane `w` wide, and the x part of each (to check the plane's side borders without a division).
 */
type Steps = { offsets: Int32Array; dx: Int32Array };
function alongOffsets(k: number, half: number, w: number, shift = 0): Steps {
  const [ux, uy] = directionVector(k);
  const offsets = new Int32Array(2 * half + 1);
  const dx = new Int32Array(2 * half + 1);
  let j = 0;
  for (let s = 0; s <= half; s++) {
    for (const t of s === 0 ? [0] : [s, -s]) {
      const x = Math.round(t * ux - shift * uy);
      const y = Math.round(t * uy + shift * ux);
      offsets[j] = y * w + x;
      dx[j] = x;
      j++;
    }
  }
  return { offsets, dx };
}

/** The lines of every direction, and how far (px, in x or y) the farthest of their steps lies from the centre. */
type Geometry = { along: Steps[]; sides: Steps[][]; profile: Steps[][]; reach: number };

/** Offsets of every line measured, per direction, for a plane `w` wide. */
function geometry(w: number): Geometry {
  const along: Steps[] = [];
  const sides: Steps[][] = [];
  const profile: Steps[][] = [];
  for (let k = 0; k < DIRECTION_COUNT; k++) {
    along.push(alongOffsets(k, HALVES[2], w));
    sides.push(SIDES.flatMap((d) => [alongOffsets(k, HALVES[1], w, d), alongOffsets(k, HALVES[1], w, -d)]));
    const rows: Steps[] = [];
    for (let o = -PROFILE.across; o <= PROFILE.across; o++) rows.push(alongOffsets(k, PROFILE.along, w, o));
    profile.push(rows);
  }
  let reach = 0;
  for (const steps of [...along, ...sides.flat(), ...profile.flat()]) {
    for (let j = 0; j < steps.dx.length; j++) {
      const dx = steps.dx[j]!;
      reach = Math.max(reach, Math.abs(dx), Math.abs((steps.offsets[j]! - dx) / w));
    }
  }
  return { along, sides, profile, reach };
}

/*
 * onPlane: whether step j of `steps` from pixel i (column x) stays on the plane (n pixels), a step that wrapped
 * around a row edge landing more than the line's reach away in x: the pixel q reached is on the plane when
 * 0 ≤ q < n and |q mod w − x| ≤ MARGIN. Its column is x + dx[j] when that is inside the row (every dx is within
 * MARGIN), so the division is left for the steps past a side border (meanAt and prefixMeans test it inline).
 */

/** Mean of `p` over the first `count` steps from pixel i, those off the plane (onPlane) left out. */
function meanAt(p: Float32Array, i: number, steps: Steps, count: number, w: number): number {
  const { offsets, dx } = steps;
  const n = p.length;
  const x = i % w;
  let s = 0;
  let c = 0;
  for (let j = 0; j < count; j++) {
    const q = i + offsets[j]!;
    if (q < 0 || q >= n) continue;
    const xx = x + dx[j]!;
    if ((xx < 0 || xx >= w) && Math.abs((q % w) - x) > MARGIN) continue;
    s += p[q]!;
    c++;
  }
  return c ? s / c : 0;
}

/**
 * meanAt for several counts at once (ascending), into `out`: one pass over the longest, each shorter mean taken
 * on the way (the same sums in the same order, so the same values as separate calls).
 */
function prefixMeans(p: Float32Array, i: number, steps: Steps, counts: readonly number[], w: number, out: Float64Array): void {
  let s = 0;
  let c = 0;
  let next = 0;
  const x = i % w;
  const last = counts[counts.length - 1]!;
  const { offsets, dx } = steps;
  const n = p.length;
  for (let j = 0; j < last; j++) {
    const q = i + offsets[j]!;
    if (q >= 0 && q < n && ((x + dx[j]! >= 0 && x + dx[j]! < w) || Math.abs((q % w) - x) <= MARGIN)) {
      s += p[q]!;
      c++;
    }
    if (j + 1 === counts[next]) {
      out[next] = c ? s / c : 0;
      next++;
    }
  }
}

/** Spread of the grain's 21-px line means, from horizontal lines through a sample of pixels. */
function lineSpread(r: Float32Array, w: number, h: number): number {
  const half = HALVES[1];
  const samples: number[] = [];
  const step = Math.max(1, Math.floor((w * h) / 20_000));
  for (let i = 0; i < w * h; i += step) {
    const x = i % w;
    if (x < half || x >= w - half) continue;
    let s = 0;
    for (let t = -half; t <= half; t++) s += r[i + t]!;
    samples.push(Math.abs(s / (2 * half + 1)));
  }
  samples.sort((a, b) => a - b);
  return Math.max(0.02, 1.4826 * (samples[samples.length >> 1] ?? 0.1));
}

/** Local standard deviation over (2r+1)² windows. */
function localSpread(src: Float32Array, w: number, h: number, r: number): Float32Array {
  const sq = new Float32Array(src.length);
  for (let i = 0; i < src.length; i++) sq[i] = src[i]! * src[i]!;
  const m = boxMean(src, w, h, r);
  const m2 = boxMean(sq, w, h, r);
  for (let i = 0; i < m.length; i++) m[i] = Math.sqrt(Math.max(0, m2[i]! - m[i]! * m[i]!));
  return m;
}

/**
 * Whether every value of a plane is 0 or a multiple of 2⁻²⁵ in [0.25, 128): true of a median from medianPlane
 * (k / 2.55 as a float). Then every running sum boxMean takes over a 7×7 window of the plane or of its squares
 * (rows first, then the rows' means down the columns) is exact in double, so boxMean's value at a pixel is the
 * same whatever order the window is summed in — and localSpreadAt can take it at the candidates alone.
 */
function quantised(src: Float32Array): boolean {
  for (let i = 0; i < src.length; i++) {
    const v = src[i]!;
    if (v !== 0 && !(v >= 0.25 && v < 128 && Number.isInteger(v * 2 ** 25))) return false;
  }
  return true;
}

/**
 * localSpread(src, w, h, r)[i] for r ≤ 3 on a quantised plane, from the window around pixel i alone: boxMean's
 * row means (the row's sum over the columns inside the plane, divided by their count, as a float), their sum
 * down the rows inside divided by their count (as a float), for the plane and its squares (as floats).
 */
function localSpreadAt(src: Float32Array, w: number, h: number, r: number, i: number): number {
  const x = i % w;
  const y = (i - x) / w;
  const x0 = Math.max(0, x - r);
  const x1 = Math.min(w - 1, x + r);
  const y0 = Math.max(0, y - r);
  const y1 = Math.min(h - 1, y + r);
  const nx = x1 - x0 + 1;
  let col = 0;
  let col2 = 0;
  for (let yy = y0; yy <= y1; yy++) {
    let s = 0;
    let s2 = 0;
    for (let q = yy * w + x0, e = yy * w + x1; q <= e; q++) {
      const v = src[q]!;
      s += v;
      s2 += Math.fround(v * v);
    }
    col += Math.fround(s / nx);
    col2 += Math.fround(s2 / nx);
  }
  const ny = y1 - y0 + 1;
  const m = Math.fround(col / ny);
  const m2 = Math.fround(col2 / ny);
  return Math.fround(Math.sqrt(Math.max(0, m2 - m * m)));
}

/**
 * How busy the ground is around each pixel: the median |r| over an 11×11 window, in grain spreads. A median, so a
 * stroke through the window (a tenth of its pixels) does not make its own ground look busy, while texture does
 * (a mean let a strong scratch on a clean plane read as texture). Kept in 32 steps per spread.
 */
export function groundActivity(r: Float32Array, sigma: number, w: number, h: number): Promise<Float32Array> {
  return medianOfSteps(activitySteps(r, sigma), w, h, ACTIVITY_SIDE, ACTIVITY_STEPS);
}

/** Steps per grain spread of the ground activity. */
const ACTIVITY_STEPS = 32;

/** |r| in grain spreads, in ACTIVITY_STEPS steps per spread as medianPlane makes them of the spreads kept as floats. */
function activitySteps(r: Float32Array, sigma: number): Uint8Array {
  const u8 = new Uint8Array(r.length);
  for (let i = 0; i < r.length; i++) u8[i] = toStep(Math.fround(Math.abs(r[i]!) / sigma) * ACTIVITY_STEPS);
  return u8;
}

/**
 * groundActivity at the candidates of `evidence` alone, put into their activity feature: the median of the 11×11
 * window of steps around each, the plane extended past its borders by its edge pixels (as libvips's median takes
 * it: the 61st of the 121 values), read back as medianPlane reads it. The window's counts per step are slid
 * along a row from the previous candidate when it is near, else counted anew. A plane narrower or lower than
 * the window goes through groundActivity (where libvips refuses it, as before).
 */
export async function withGroundActivity(evidence: Evidence, w: number, h: number): Promise<Evidence> {
  const { candidates, values, residual } = evidence;
  if (Math.min(w, h) < ACTIVITY_SIDE) return withActivity(evidence, await groundActivity(residual.r, residual.sigma, w, h));
  const steps = activitySteps(residual.r, residual.sigma);
  const side = ACTIVITY_SIDE;
  const reach = side >> 1;
  const rank = (side * side) >> 1;
  const at = FEATURE_NAMES.indexOf('activity');
  const value = new Float32Array(256);
  for (let k = 0; k < 256; k++) value[k] = k / ACTIVITY_STEPS;
  // The window's counts per step, its median step m and how many of its values lie below m.
  const count = new Int32Array(256);
  let m = 0;
  let below = 0;
  // The window's rows (clamped to the plane), as offsets, for the current row.
  const rows = new Int32Array(side);
  let px = 0;
  let py = -1;
  for (let c = 0; c < candidates.length; c++) {
    const i = candidates[c]!;
    const x = i % w;
    const y = (i - x) / w;
    if (y === py && x > px && x - px < side) {
      // Slide the window right column by column: the column leaving it out, the one entering in (clamped).
      for (let xx = px + 1; xx <= x; xx++) {
        const out = Math.max(0, xx - reach - 1);
        const into = Math.min(w - 1, xx + reach);
        for (let j = 0; j < side; j++) {
          const a = steps[rows[j]! + out]!;
          const b = steps[rows[j]! + into]!;
          count[a]!--;
          count[b]!++;
          below += (b < m ? 1 : 0) - (a < m ? 1 : 0);
        }
      }
    } else {
      if (y !== py) for (let j = 0; j < side; j++) rows[j] = Math.min(h - 1, Math.max(0, y - reach + j)) * w;
      count.fill(0);
      for (let xx = x - reach; xx <= x + reach; xx++) {
        const cx = xx < 0 ? 0 : xx >= w ? w - 1 : xx;
        for (let j = 0; j < side; j++) count[steps[rows[j]! + cx]!]!++;
      }
      m = 0;
      below = 0;
    }
    px = x;
    py = y;
    // The median is the step m with at most `rank` values below it and more than `rank` up to it.
    while (below + count[m]! <= rank) below += count[m++]!;
    while (below > rank) below -= count[--m]!;
    values[c * FEATURE_COUNT + at] = value[m]!;
  }
  return evidence;
}

/** The line field's block of full-resolution pixel i (the field is at half size), or −1 outside it. */
function fieldIndex(field: LineField, i: number, w: number): number {
  const x = (i % w) >> 1;
  const y = Math.floor(i / w) >> 1;
  return x < field.width && y < field.height ? y * field.width + x : -1;
}

/**
 * The candidates of plane r (see CANDIDATE), as plane indices in order; one that is a candidate through its 9×9
 * residual alone (measured even when no line runs through it) as −1 − its index.
 */
function candidatesOf(r: Float32Array, sigma: number, w: number, h: number, wide: Residual, field: LineField): Int32Array {
  const spreads = CANDIDATE.spreads * sigma;
  const faint = CANDIDATE.faint * sigma;
  const fieldLine = CANDIDATE.field * field.spread;
  const wideLine = CANDIDATE.wide * wide.sigma;
  const { best } = field;
  let out = new Int32Array(Math.max(16, (w * h) >> 4));
  let count = 0;
  for (let y = 0; y < h; y++) {
    // The field's row, or −1 below it.
    const fy = y >> 1 < field.height ? (y >> 1) * field.width : -1;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      const v = r[i]!;
      const a = Math.abs(v);
      let c: number;
      if (a > spreads) c = i;
      else if (a > faint) {
        const f = fy >= 0 && x >> 1 < field.width ? fy + (x >> 1) : -1;
        if (f >= 0 && v * best[f]! > 0 && Math.abs(best[f]!) > fieldLine) c = i;
        else if (v * wide.r[i]! > 0 && Math.abs(wide.r[i]!) > wideLine) c = -1 - i;
        else continue;
      } else continue;
      if (count === out.length) {
        const grown = new Int32Array(2 * out.length);
        grown.set(out);
        out = grown;
      }
      out[count++] = c;
    }
  }
  return out.subarray(0, count);
}

/**
 * The sums of p along three lines around pixel i (their offsets at o0, o1 and o2 in `offsets`, steps from … to),
 * added to acc[0 … 2], with no bound checks. Each line is summed in its own order; the three are interleaved so
 * that no addition waits on the one before it.
 */
function sumsAlong3(p: Float32Array, i: number, offsets: Int32Array, o0: number, o1: number, o2: number, from: number, to: number, acc: Float64Array): void {
  let a = acc[0]!;
  let b = acc[1]!;
  let c = acc[2]!;
  for (let j = from; j < to; j++) {
    a += p[i + offsets[o0 + j]!]!;
    b += p[i + offsets[o1 + j]!]!;
    c += p[i + offsets[o2 + j]!]!;
  }
  acc[0] = a;
  acc[1] = b;
  acc[2] = c;
}

/** sumsAlong3 of four lines (o0 … o3), from 0, into acc[0 … 3]. */
function sumsAlong4(p: Float32Array, i: number, offsets: Int32Array, o0: number, o1: number, o2: number, o3: number, count: number, acc: Float64Array): void {
  let a = 0;
  let b = 0;
  let c = 0;
  let d = 0;
  for (let j = 0; j < count; j++) {
    a += p[i + offsets[o0 + j]!]!;
    b += p[i + offsets[o1 + j]!]!;
    c += p[i + offsets[o2 + j]!]!;
    d += p[i + offsets[o3 + j]!]!;
  }
  acc[0] = a;
  acc[1] = b;
  acc[2] = c;
  acc[3] = d;
}

/** Every direction's offsets of one kind in one array, `stride` apart (for the unchecked interior). */
function flat(lists: Steps[], stride: number): Int32Array {
  const out = new Int32Array(lists.length * stride);
  lists.forEach((steps, k) => out.set(steps.offsets, k * stride));
  return out;
}

/**
 * The evidence of every candidate pixel of plane L (w × h) with its residuals (5×5 and `wide`, 9×9), line field
 * and ground activity (groundActivity). Without `activity`, its feature is left for withGroundActivity (which
 * takes it at the candidates alone) or withActivity.
 */
export function measureEvidence(L: Float32Array, w: number, h: number, residual: Residual, wide: Residual, field: LineField, activity?: Float32Array): Evidence {
  const { r, sigma, median } = residual;
  const cand = candidatesOf(r, sigma, w, h, wide, field);
  const m = measurer(L, w, h, residual, field);
  // The ground's spread at the candidates alone when the median allows it (quantised), else as a plane.
  const ground = quantised(median) ? null : localSpread(median, w, h, GROUND_RADIUS);
  const values = new Float32Array(cand.length * FEATURE_COUNT);
  const direction = new Uint8Array(cand.length);
  const kept = new Int32Array(cand.length);
  const f: Features = { ...FEATURES };
  let c = 0;
  for (let q = 0; q < cand.length; q++) {
    const byWide = cand[q]! < 0;
    const i = byWide ? -1 - cand[q]! : cand[q]!;
    const x = i % w;
    const y = (i - x) / w;
    const at: At = { i, x, y, checked: x < m.inside || y < m.inside || x >= w - m.inside || y >= h - m.inside, sign: r[i]! >= 0 ? 1 : -1 };
    const abs = Math.abs(r[i]!);
    const start = startingLine(m, at, abs, byWide);
    if (!start) continue;
    const best = refineLine(m, at, start.best);
    const fi = fieldIndex(field, i, w);
    f.residual = abs / sigma;
    f.line9 = m.line[0]! / m.lineSigma;
    f.line21 = m.line[1]! / m.lineSigma;
    f.line41 = m.line[2]! / m.lineSigma;
    f.directional = start.directional;
    sideLines(m, at, best, f);
    f.activity = activity ? activity[i]! : 0;
    f.speck = (abs - (at.checked ? ringPeak(r, x, y, w, h, at.sign) : ringPeakInside(r, i, w, at.sign))) / sigma;
    f.ground = (ground ? ground[i]! : localSpreadAt(median, w, h, GROUND_RADIUS, i)) / sigma;
    f.vertical = m.vertical[best]!;
    crossProfile(m, at, best, sigma, f);
    f.light = at.sign;
    f.level = median[i]! / 100;
    f.field = fi >= 0 ? (at.sign * field.best[fi]!) / field.spread : 0;
    f.fieldDirectional = fi >= 0 ? (Math.abs(field.best[fi]!) - field.mean[fi]!) / field.spread : 0;
    f.wide = (at.sign * wide.r[i]!) / wide.sigma;
    const o = c * FEATURE_COUNT;
    for (let k = 0; k < FEATURE_COUNT; k++) values[o + k] = f[FEATURE_NAMES[k]!];
    direction[c] = best;
    kept[c] = i;
    c++;
  }
  return { candidates: kept.slice(0, c), values: values.slice(0, c * FEATURE_COUNT), direction: direction.slice(0, c), residual, wide, lineSigma: m.lineSigma };
}

/** A candidate: its plane index and place, whether its lines reach past a border (`checked`), its sign. */
type At = { i: number; x: number; y: number; checked: boolean; sign: number };
type Measurer = ReturnType<typeof measurer>;

/** What every candidate's measures share: the plane, the offsets (flat for the interior), and scratch buffers. */
function measurer(L: Float32Array, w: number, h: number, residual: Residual, field: LineField) {
  const geo = geometry(w);
  const counts = HALVES.map((half) => 2 * half + 1);
  const [n9, n21, n41] = counts as [number, number, number];
  if (DIRECTION_COUNT % 6 !== 0 || SIDES.length !== 2 || 2 * PROFILE.across + 1 !== 7) throw new Error('measureEvidence: line groups of 3 and 4 assumed');
  const rows = 2 * PROFILE.across + 1;
  const rowLength = 2 * PROFILE.along + 1;
  const lineSigma = lineSpread(residual.r, w, h);
  return {
    L,
    r: residual.r,
    w,
    h,
    field,
    geo,
    counts,
    n9,
    n21,
    n41,
    rows,
    rowLength,
    sideCount: 2 * SIDES.length,
    lineSigma,
    // The interior's offsets, flat: per direction the line (41), the four side lines (21 each), the profile's rows (11 each).
    alongFlat: flat(geo.along, n41),
    sidesFlat: flat(geo.sides.flat(), n21),
    profileFlat: flat(geo.profile.flat(), rowLength),
    coarse: new Float32Array(DIRECTION_COUNT / 2),
    profile: new Float32Array(rows),
    /** The best line's means at 9, 21 and 41 px, of the candidate's sign. */
    line: new Float64Array(3),
    means: new Float64Array(3),
    // Sums of three or four lines at a time (sumsAlong3, sumsAlong4), and the three refined lines' at 9, 21, 41 px.
    acc: new Float64Array(4),
    refined: new Float64Array(9),
    vertical: Float64Array.from({ length: DIRECTION_COUNT }, (_, k) => Math.abs(directionVector(k)[1])),
    strong: CANDIDATE.strong * residual.sigma,
    fieldLine: CANDIDATE.field * field.spread,
    // Pixels this far from every border have every step of their lines and of the speck ring on the plane: they are
    // measured without bound checks (the same sums: nothing to leave out).
    inside: Math.max(geo.reach, RING.outer),
  };
}

/**
 * The direction to refine from and how directional the pixel is: the field's line when the pixel lies on one of
 * its sign, else a coarse search every 10° at 21 px; null when that finds no line and the pixel is neither
 * strong nor a wide speck's (it is not measured further).
 */
function startingLine(m: Measurer, at: At, abs: number, byWide: boolean): { best: number; directional: number } | null {
  const { field, r, coarse, acc, n21, n41, w } = m;
  const f = fieldIndex(field, at.i, w);
  if (f >= 0 && at.sign * field.best[f]! > m.fieldLine) {
    return {
      best: Math.round((field.direction[f]! * DIRECTION_COUNT) / LINE_DIRECTIONS) % DIRECTION_COUNT,
      directional: (Math.abs(field.best[f]!) - field.mean[f]!) / field.spread,
    };
  }
  let coarseBest = 0;
  let coarseSum = 0;
  for (let k = 0; k < coarse.length; k++) {
    if (at.checked) coarse[k] = at.sign * meanAt(r, at.i, m.geo.along[2 * k]!, n21, w);
    else if (k % 3 === 0) {
      // Directions k, k + 1, k + 2 (every other of the 36) at once.
      const o = 2 * k * n41;
      acc[0] = acc[1] = acc[2] = 0;
      sumsAlong3(r, at.i, m.alongFlat, o, o + 2 * n41, o + 4 * n41, 0, n21, acc);
      for (let j = 0; j < 3; j++) coarse[k + j] = at.sign * (acc[j]! / n21);
    }
    coarseSum += coarse[k]!;
    if (coarse[k]! > coarse[coarseBest]!) coarseBest = k;
  }
  if (abs < m.strong && coarse[coarseBest]! < CANDIDATE.line * m.lineSigma && !byWide) return null;
  return { best: 2 * coarseBest, directional: (coarse[coarseBest]! - coarseSum / coarse.length) / m.lineSigma };
}

/** The best of the three directions around `around` at 21 px (to 5°), its means at 9/21/41 px left in `m.line`. */
function refineLine(m: Measurer, at: At, around: number): number {
  const { r, acc, refined, means, line, counts, n9, n21, n41, w } = m;
  line.fill(-Infinity);
  let best = around;
  if (!at.checked) {
    // The three directions' sums at 9, 21 and 41 px (refined[3 · step + t] for direction around − 1 + t).
    const o0 = ((around + DIRECTION_COUNT - 1) % DIRECTION_COUNT) * n41;
    const o1 = around * n41;
    const o2 = ((around + 1) % DIRECTION_COUNT) * n41;
    acc[0] = acc[1] = acc[2] = 0;
    for (let step = 0; step < 3; step++) {
      sumsAlong3(r, at.i, m.alongFlat, o0, o1, o2, step ? counts[step - 1]! : 0, counts[step]!, acc);
      for (let t = 0; t < 3; t++) refined[3 * step + t] = acc[t]!;
    }
  }
  for (let k = around - 1; k <= around + 1; k++) {
    const kk = (k + DIRECTION_COUNT) % DIRECTION_COUNT;
    if (at.checked) prefixMeans(r, at.i, m.geo.along[kk]!, counts, w, means);
    else {
      const t = k - around + 1;
      means[0] = refined[t]! / n9;
      means[1] = refined[3 + t]! / n21;
      means[2] = refined[6 + t]! / n41;
    }
    if (at.sign * means[1]! > line[1]!) {
      for (let j = 0; j < 3; j++) line[j] = at.sign * means[j]!;
      best = kk;
    }
  }
  return best;
}

/** The strongest parallel lines 2 and 4 px to either side of the line in direction `best`. */
function sideLines(m: Measurer, at: At, best: number, f: Features): void {
  const { r, acc, n21, sideCount, w } = m;
  let side2 = 0;
  let side4 = 0;
  if (!at.checked) {
    const o = best * sideCount * n21;
    sumsAlong4(r, at.i, m.sidesFlat, o, o + n21, o + 2 * n21, o + 3 * n21, n21, acc);
  }
  for (let j = 0; j < sideCount; j++) {
    const v = Math.abs(at.checked ? meanAt(r, at.i, m.geo.sides[best]![j]!, n21, w) : acc[j]! / n21);
    if (j < 2) side2 = Math.max(side2, v);
    else side4 = Math.max(side4, v);
  }
  f.side2 = side2 / m.lineSigma;
  f.side4 = side4 / m.lineSigma;
}

/** The profile of L across the line (7 rows of 11 px along it): its asymmetry, its ends' difference, its width. */
function crossProfile(m: Measurer, at: At, best: number, sigma: number, f: Features): void {
  const { L, acc, profile, rows, rowLength, w } = m;
  if (at.checked) for (let j = 0; j < rows; j++) profile[j] = meanAt(L, at.i, m.geo.profile[best]![j]!, rowLength, w);
  else {
    // Rows 0 … 3, then 4 … 6.
    const o = best * rows * rowLength;
    sumsAlong4(L, at.i, m.profileFlat, o, o + rowLength, o + 2 * rowLength, o + 3 * rowLength, rowLength, acc);
    for (let j = 0; j < 4; j++) profile[j] = acc[j]! / rowLength;
    acc[0] = acc[1] = acc[2] = 0;
    sumsAlong3(L, at.i, m.profileFlat, o + 4 * rowLength, o + 5 * rowLength, o + 6 * rowLength, 0, rowLength, acc);
    for (let j = 4; j < rows; j++) profile[j] = acc[j - 4]! / rowLength;
  }
  const last = profile.length - 1;
  const mid = PROFILE.across;
  const base = (profile[0]! + profile[last]!) / 2;
  const peak = at.sign * (profile[mid]! - base);
  let width = 0;
  for (let j = 0; j <= last; j++) if (at.sign * (profile[j]! - base) > 0.5 * peak) width++;
  f.asymmetry = Math.abs(profile[mid - 2]! - profile[mid + 2]!) / sigma;
  f.edge = Math.abs(profile[0]! - profile[last]!) / sigma;
  f.width = width;
}

/** The speck test's ring: the largest residual of the pixel's sign (at least 0) between RING.inner and RING.outer
 * px around (x, y), within the plane. */
function ringPeak(r: Float32Array, x: number, y: number, w: number, h: number, sign: number): number {
  let ring = 0;
  for (let oy = -RING.outer; oy <= RING.outer; oy++) {
    const yy = y + oy;
    if (yy < 0 || yy >= h) continue;
    for (let ox = -RING.outer; ox <= RING.outer; ox++) {
      if (Math.max(Math.abs(ox), Math.abs(oy)) <= RING.inner) continue;
      const xx = x + ox;
      if (xx < 0 || xx >= w) continue;
      const v = sign * r[yy * w + xx]!;
      if (v > ring) ring = v;
    }
  }
  return ring;
}

/** ringPeak for a pixel i at least RING.outer px from every border: the rows above and below the inner square
 * whole, the rows beside it in two pieces. */
function ringPeakInside(r: Float32Array, i: number, w: number, sign: number): number {
  const { outer, inner } = RING;
  let ring = 0;
  for (let oy = -outer; oy <= outer; oy++) {
    const row = i + oy * w;
    const beside = Math.abs(oy) <= inner;
    for (let ox = -outer; ox <= outer; ox++) {
      if (beside && ox === -inner) ox = inner + 1;
      const v = sign * r[row + ox]!;
      if (v > ring) ring = v;
    }
  }
  return ring;
}

/** Puts each candidate's ground activity (groundActivity) into evidence measured without it. */
export function withActivity(evidence: Evidence, activity: Float32Array): Evidence {
  const { candidates, values } = evidence;
  const at = FEATURE_NAMES.indexOf('activity');
  for (let c = 0; c < candidates.length; c++) values[c * FEATURE_COUNT + at] = activity[candidates[c]!]!;
  return evidence;
}
