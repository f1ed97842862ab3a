import { eachNeighbour } from '../../shared';
import type { Evidence } from './evidence';
import type { DamageObjects } from './objects';

// A kept scratch is followed as a path: from each end, step by step along its direction (which may bend
// slowly, as print scratches and wavy film scratches do, by at most PATH.maxTurn a step), taking the pixel on
// the course while it stands out with the scratch's sign, else the one beside it that stands out more, across
// gaps where a structure interrupts it. Then the mask is made exact: the
// stroke's soft flanks that still stand out join it, and nothing else does (an untouched pixel filled is
// detail lost).

export const PATH = {
  /** A kept component at least this long and straight is a scratch: followed beyond its ends. */
  length: 12,
  straightness: 0.9,
  /** Steps without support crossed before following stops (a gap where the scratch crosses a structure). */
  gap: 8,
  /** A pixel supports the path when its residual has the scratch's sign and this many grain spreads… */
  pixel: 1,
  /** …and the mean residual along 11 px of the path through it this many line spreads. */
  line: 1.5,
  /** How fast the followed direction turns toward the path's recent course (0: never, 1: at once)… */
  turn: 0.25,
  /** …and by at most this much per step (radians; 0.1 ≈ 6°): a scratch bends slowly, so a path that meets a
   * structure crossing it is not drawn along that structure. */
  maxTurn: 0.1,
};

/** Residual spreads from which a pixel beside the damage, with its sign, is taken as the stroke's flank. */
export const FLANK = 1.5;
/** How many pixels out from the damage its flanks are looked for. One: a second step added mostly the edges of
 * real structures beside the strokes (2 steps: lower precision and SSIM on the fixtures and the validation set). */
export const FLANK_STEPS = 1;

/**
 * A scratch's twin: film scratches often come in pairs a few pixels apart (grit dragged along the film), the
 * second often fainter. Beside a kept line, a second ridge of its sign `offsets` px across (standing out by
 * `spreads` grain spreads and above the pixel between, so it is a line of its own and not the first one's
 * flank) along at least `share` of the line's pixels is damage too. Measured: parrot (a pair of film scratches)
 * 62 → 67 % removed; the validation photos (single strokes, painted wires, grids) unchanged.
 */
export const TWIN = { offsets: [2, 3], spreads: 1.5, share: 0.2, min: 8 };

/** Mean signed residual over 11 px along (ux, uy) through (x, y). */
function lineMean(r: Float32Array, w: number, h: number, x: number, y: number, ux: number, uy: number): number {
  let s = 0;
  let c = 0;
  for (let k = -5; k <= 5; k++) {
    const xx = Math.round(x + k * ux);
    const yy = Math.round(y + k * uy);
    if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
    s += r[yy * w + xx]!;
    c++;
  }
  return c ? s / c : 0;
}

/** Follows component k from both ends, adding the path's pixels to `core`; returns how many were added. */
export function followPath(core: Uint8Array, ev: Evidence, objects: DamageObjects, k: number, w: number, h: number): number {
  const members = objects.pixels[k]!;
  const r = ev.residual.r;
  const sigma = ev.residual.sigma;
  const sign = objects.sign[k]!;
  const ax = objects.axis[2 * k]!;
  const ay = objects.axis[2 * k + 1]!;
  let lo = Infinity;
  let hi = -Infinity;
  let loI = members[0]!;
  let hiI = members[0]!;
  for (const i of members) {
    const t = (i % w) * ax + Math.floor(i / w) * ay;
    if (t < lo) {
      lo = t;
      loI = i;
    }
    if (t > hi) {
      hi = t;
      hiI = i;
    }
  }
  let added = 0;
  for (const [start, sx, sy] of [[hiI, ax, ay], [loI, -ax, -ay]] as const) {
    let fx = start % w;
    let fy = Math.floor(start / w);
    let ux = sx;
    let uy = sy;
    let missed = 0;
    const pending: number[] = [];
    // A pixel supports the path (see PATH.pixel, PATH.line) along the course followed at this step.
    const supports = (v: number, x: number, y: number) => v > PATH.pixel * sigma && sign * lineMean(r, w, h, x, y, ux, uy) > (PATH.line * ev.lineSigma * Math.sqrt(21)) / Math.sqrt(11);
    for (let step = 0; step < w + h; step++) {
      const cx = fx + ux;
      const cy = fy + uy;
      if (cx < 0 || cy < 0 || cx > w - 1 || cy > h - 1) break;
      let best = -1;
      let bestV = 0;
      // The pixel on the course first: while it supports the path, the path keeps its course, so a stronger
      // structure beside it (one the scratch crosses) does not draw it aside.
      for (const o of [0, -1, 1]) {
        const xx = Math.round(cx - o * uy);
        const yy = Math.round(cy + o * ux);
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const v = sign * r[yy * w + xx]!;
        if (o === 0 && supports(v, xx, yy)) {
          bestV = v;
          best = yy * w + xx;
          break;
        }
        if (v > bestV) {
          bestV = v;
          best = yy * w + xx;
        }
      }
      const bx = best % w;
      const by = Math.floor(best / w);
      const supported = best >= 0 && supports(bestV, bx, by);
      if (supported) {
        for (const i of pending) {
          if (!core[i]) added++;
          core[i] = 1;
        }
        pending.length = 0;
        if (!core[best]) added++;
        core[best] = 1;
        missed = 0;
        // Turn slowly toward where the scratch went, so a bending one is kept.
        const mx = bx - fx;
        const my = by - fy;
        const len = Math.hypot(mx, my) || 1;
        const nx = (1 - PATH.turn) * ux + (PATH.turn * mx) / len;
        const ny = (1 - PATH.turn) * uy + (PATH.turn * my) / len;
        const norm = Math.hypot(nx, ny) || 1;
        const turn = Math.atan2(ux * ny - uy * nx, ux * nx + uy * ny);
        if (Math.abs(turn) <= PATH.maxTurn) {
          ux = nx / norm;
          uy = ny / norm;
        } else {
          const a = Math.sign(turn) * PATH.maxTurn;
          [ux, uy] = [ux * Math.cos(a) - uy * Math.sin(a), ux * Math.sin(a) + uy * Math.cos(a)];
        }
        fx = bx;
        fy = by;
      } else {
        missed++;
        if (missed > PATH.gap) break;
        pending.push(Math.round(cy) * w + Math.round(cx));
        fx = cx;
        fy = cy;
      }
    }
  }
  return added;
}

/** Marks the twin of kept line k (see TWIN) in `core`; returns how many pixels it added. */
export function followTwin(core: Uint8Array, ev: Evidence, objects: DamageObjects, k: number, w: number, h: number, taken?: Uint8Array): number {
  const members = objects.pixels[k]!;
  const r = ev.residual.r;
  const sign = objects.sign[k]!;
  // Across the line's axis.
  const nx = -objects.axis[2 * k + 1]!;
  const ny = objects.axis[2 * k]!;
  const at = (x: number, y: number, d: number) => {
    const xx = Math.round(x + d * nx);
    const yy = Math.round(y + d * ny);
    return xx < 0 || yy < 0 || xx >= w || yy >= h ? -1 : yy * w + xx;
  };
  let twin: number[] = [];
  for (const side of [1, -1]) {
    for (const offset of TWIN.offsets) {
      const found: number[] = [];
      for (const i of members) {
        const x = i % w;
        const y = (i - x) / w;
        const q = at(x, y, side * offset);
        const between = at(x, y, side * (offset - 1));
        const beyond = at(x, y, side * (offset + 1));
        if (q < 0 || between < 0 || beyond < 0) continue;
        const v = sign * r[q]!;
        if (v > TWIN.spreads * ev.residual.sigma && v > sign * r[between]! && v >= sign * r[beyond]!) found.push(q);
      }
      if (found.length > twin.length) twin = found;
    }
  }
  if (twin.length < Math.max(TWIN.min, TWIN.share * members.length)) return 0;
  let added = 0;
  for (const q of twin) {
    if (!core[q]) added++;
    core[q] = 1;
    if (taken) taken[q] = 1;
  }
  return added;
}

/**
 * The pixels to fill: the damage found and its flanks — neighbours whose residual against a wider median `r`
 * (spread `sigma`; a stroke 3 px wide hides from the 5×5 median) has the sign of the damage pixel beside them
 * and stands FLANK spreads out. Grown `steps` pixels at most, so a stroke's soft edges are taken and no untouched
 * pixel is replaced.
 */
export function withFlanks(core: Uint8Array, r: Float32Array, sigma: number, w: number, h: number, steps = FLANK_STEPS): Uint8Array {
  const weight = weightedFlanks(Float32Array.from(core), r, sigma, w, h, steps);
  const mask = new Uint8Array(core.length);
  for (let i = 0; i < mask.length; i++) {
    if (weight[i]! > 0) mask[i] = 1;
  }
  return mask;
}

/** withFlanks for fill weights (0..1): each flank pixel takes the largest weight of the damage pixels it grew from. */
export function weightedFlanks(core: Float32Array, r: Float32Array, sigma: number, w: number, h: number, steps = FLANK_STEPS): Float32Array {
  const weight = core.slice();
  let front = core;
  for (let step = 0; step < steps; step++) {
    const next = new Float32Array(core.length);
    for (let i = 0; i < front.length; i++) {
      const v = front[i]!;
      if (!v) continue;
      const x = i % w;
      const sign = r[i]! >= 0 ? 1 : -1;
      eachNeighbour(x, (i - x) / w, w, h, (j) => {
        if (weight[j]! >= v || sign * r[j]! <= FLANK * sigma) return;
        weight[j] = v;
        next[j] = v;
      });
    }
    front = next;
  }
  return weight;
}
