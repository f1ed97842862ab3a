import { DIRECTION_COUNT, directionVector, type Evidence } from './evidence';
import { objectProbabilities } from './model';
import { describeObjects, OBJECT_FLOOR } from './objects';

// A long faint scratch is a row of candidates the pixel network scores low one by one (p ≈ 0.05–0.4: each
// could be grain or texture) and too broken for a component or a joined line. What gives it away is the row
// itself: many candidates of one sign, each measured with the same direction, one after another along that
// direction for a long way. A trace starts at a likely candidate and follows its direction (turning slowly, a
// print scratch bends), stepping onto the candidate across the path that has the seed's sign and agrees in
// direction, across short gaps, a hysteresis along a line. A long, dense trace is accepted only when it is not a
// real straight structure: the picture is the same on its two sides (the edge of a bar, a horizon or a shadow
// separates two different things), and no other trace of its kind runs beside it (the bars of a grid, a railing,
// a bundle of wires), and the object network, given the whole trace as one object, takes it for damage.
// Measured and not kept (see the README's "What was tried"): off unless TRACES=1.

export const TRACE = {
  /** Pixel probability of a seed. */
  seed: Number(process.env.TR_SEED ?? 0.2),
  /** Direction steps (5° each) a candidate's own direction may differ from the trace's. */
  angle: Number(process.env.TR_ANGLE ?? 2),
  /** Steps without support crossed before the trace stops. */
  gap: Number(process.env.TR_GAP ?? 5),
  /** Shortest accepted trace (px along it), and the share of its steps that must have support. */
  length: Number(process.env.TR_LEN ?? 40),
  density: Number(process.env.TR_DENSITY ?? 0.7),
  /** Mean pixel probability of its candidates. */
  meanP: Number(process.env.TR_MEANP ?? 0.1),
  /** Largest difference of the two sides (3 px out, in grain spreads of the median). */
  sides: Number(process.env.TR_SIDES ?? 1.5),
  /** Largest support of a parallel line 3…`reach` px beside it, as a share of its own. */
  parallel: Number(process.env.TR_PARALLEL ?? 0.5),
  reach: 16,
  /** The object network's probability the trace, described as one object, must pass. */
  object: Number(process.env.TR_OBJ ?? 0.5),
};

export type Trace = {
  /** Supporting candidates, as plane indices. */
  pixels: number[];
  /** Path positions (x, y) of every step, supported or not, in order. */
  path: number[];
  sign: number;
  steps: number;
  density: number;
  meanP: number;
  sides: number;
  parallel: number;
  /** The object network's probability for the trace as one object. */
  q: number;
};

/** Candidate index of every plane pixel (−1: not a candidate). */
function candidateIndex(ev: Evidence, n: number): Int32Array {
  const index = new Int32Array(n).fill(-1);
  ev.candidates.forEach((i, c) => {
    index[i] = c;
  });
  return index;
}

const angleApart = (a: number, b: number) => {
  const d = Math.abs(a - b) % DIRECTION_COUNT;
  return Math.min(d, DIRECTION_COUNT - d);
};

/** Direction index of the unit vector (ux, uy) (0 … DIRECTION_COUNT − 1, half a turn). */
function directionOf(ux: number, uy: number): number {
  let a = Math.atan2(uy, ux);
  if (a < 0) a += Math.PI;
  return Math.round((a * DIRECTION_COUNT) / Math.PI) % DIRECTION_COUNT;
}

type Support = (x: number, y: number, direction: number) => number;

/**
 * Follows a line from (x, y) along ±(ux, uy): at each step the supporting pixel across the path (−1, 0, +1) is
 * taken; `support` gives a pixel's candidate index when it supports the line in that direction, else −1.
 * Returns the supported pixels and the path, in order from one end to the other.
 */
function follow(x: number, y: number, ux: number, uy: number, w: number, h: number, support: Support): { pixels: number[]; path: number[] } {
  const ends: { pixels: number[]; path: number[] }[] = [];
  for (const dir of [1, -1]) {
    let fx = x;
    let fy = y;
    let vx = dir * ux;
    let vy = dir * uy;
    let missed = 0;
    const pixels: number[] = [];
    const path: number[] = [];
    const pending: number[] = [];
    for (let step = 0; step < w + h; step++) {
      const cx = fx + vx;
      const cy = fy + vy;
      if (cx < 0 || cy < 0 || cx > w - 1 || cy > h - 1) break;
      const k = directionOf(vx, vy);
      let best = -1;
      for (const o of [0, -1, 1]) {
        const xx = Math.round(cx - o * vy);
        const yy = Math.round(cy + o * vx);
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        if (support(xx, yy, k) >= 0) {
          best = yy * w + xx;
          break;
        }
      }
      if (best < 0) {
        missed++;
        if (missed > TRACE.gap) break;
        pending.push(cx, cy);
        fx = cx;
        fy = cy;
        continue;
      }
      const bx = best % w;
      const by = (best - bx) / w;
      path.push(...pending, bx, by);
      pending.length = 0;
      pixels.push(best);
      missed = 0;
      // Turn slowly toward where the line went, so a bending scratch is kept.
      const mx = bx - fx;
      const my = by - fy;
      const len = Math.hypot(mx, my) || 1;
      const nx = 0.75 * vx + (0.25 * mx) / len;
      const ny = 0.75 * vy + (0.25 * my) / len;
      const norm = Math.hypot(nx, ny) || 1;
      vx = nx / norm;
      vy = ny / norm;
      fx = bx;
      fy = by;
    }
    ends.push({ pixels, path });
  }
  const [fwd, back] = ends as [{ pixels: number[]; path: number[] }, { pixels: number[]; path: number[] }];
  const backPath: number[] = [];
  for (let j = back.path.length - 2; j >= 0; j -= 2) backPath.push(back.path[j]!, back.path[j + 1]!);
  return { pixels: [...back.pixels.reverse(), y * w + x, ...fwd.pixels], path: [...backPath, x, y, ...fwd.path] };
}

/** Unit normal of the path at step j (from its neighbours 3 steps away). */
function normalAt(path: number[], j: number): [number, number] {
  const n = path.length / 2;
  const a = Math.max(0, j - 3);
  const b = Math.min(n - 1, j + 3);
  const dx = path[2 * b]! - path[2 * a]!;
  const dy = path[2 * b + 1]! - path[2 * a + 1]!;
  const len = Math.hypot(dx, dy) || 1;
  return [-dy / len, dx / len];
}

/** Every trace of the candidates, accepted or not (for diagnostics); `accepted` marks those that pass. */
export function lineTraces(L: Float32Array, ev: Evidence, p: Float32Array, w: number, h: number): { traces: Trace[]; accepted: boolean[] } {
  const { r, median, sigma } = ev.residual;
  const index = candidateIndex(ev, w * h);
  const used = new Uint8Array(w * h);
  const supportOf = (sign: number): Support => (x, y, k) => {
    const c = index[y * w + x]!;
    if (c < 0 || sign * r[y * w + x]! <= 0) return -1;
    return angleApart(ev.direction[c]!, k) <= TRACE.angle ? c : -1;
  };
  const seeds = [...ev.candidates.keys()].filter((c) => p[c]! >= TRACE.seed).sort((a, b) => p[b]! - p[a]!);
  const traces: Trace[] = [];
  const accepted: boolean[] = [];
  for (const c of seeds) {
    const i = ev.candidates[c]!;
    if (used[i]) continue;
    const x = i % w;
    const y = (i - x) / w;
    const sign = r[i]! >= 0 ? 1 : -1;
    const [ux, uy] = directionVector(ev.direction[c]!);
    const support = supportOf(sign);
    const { pixels, path } = follow(x, y, ux, uy, w, h, support);
    // A trace's pixels and their neighbours seed no other trace (a 2-px scratch would be traced twice).
    for (const j of pixels) {
      const jx = j % w;
      const jy = (j - jx) / w;
      for (let oy = Math.max(0, jy - 1); oy <= Math.min(h - 1, jy + 1); oy++) for (let ox = Math.max(0, jx - 1); ox <= Math.min(w - 1, jx + 1); ox++) used[oy * w + ox] = 1;
    }
    const steps = path.length / 2;
    if (steps < TRACE.length) continue;
    let sp = 0;
    for (const j of pixels) sp += p[index[j]!]!;
    // The two sides 3 px out, and the support of the same path shifted sideways.
    let sideDiff = 0;
    const shifted = new Float64Array(2 * TRACE.reach + 1);
    for (let j = 0; j < steps; j++) {
      const px = path[2 * j]!;
      const py = path[2 * j + 1]!;
      const [nx, ny] = normalAt(path, j);
      const k = directionOf(-ny, nx);
      const a = Math.round(px + 3 * nx);
      const b = Math.round(py + 3 * ny);
      const c2 = Math.round(px - 3 * nx);
      const d = Math.round(py - 3 * ny);
      if (a >= 0 && b >= 0 && a < w && b < h && c2 >= 0 && d >= 0 && c2 < w && d < h) sideDiff += median[b * w + a]! - median[d * w + c2]!;
      for (let s = 3; s <= TRACE.reach; s++) {
        for (const side of [1, -1]) {
          const sx = Math.round(px + side * s * nx);
          const sy = Math.round(py + side * s * ny);
          if (sx < 0 || sy < 0 || sx >= w || sy >= h) continue;
          if (support(sx, sy, k) >= 0) shifted[TRACE.reach + side * s]!++;
        }
      }
    }
    const own = pixels.length;
    const trace: Trace = {
      pixels,
      path,
      sign,
      steps,
      density: own / steps,
      meanP: sp / own,
      sides: Math.abs(sideDiff / steps) / sigma,
      parallel: Math.max(...shifted) / own,
      q: 0,
    };
    traces.push(trace);
  }
  // Described as the components are: crowding counts the likely pixels around, and the trace's own.
  const likely = new Int32Array(w * h).fill(-1);
  ev.candidates.forEach((i, c) => {
    if (p[c]! > OBJECT_FLOOR) likely[i] = c;
  });
  for (const t of traces) for (const i of t.pixels) likely[i] = index[i]!;
  const described = describeObjects(L, ev, p, w, h, traces.map((t) => Int32Array.from(t.pixels).sort()), likely);
  const q = objectProbabilities(described.values);
  traces.forEach((t, k) => {
    t.q = q[k]!;
    accepted.push(t.density >= TRACE.density && t.meanP >= TRACE.meanP && t.sides <= TRACE.sides && t.parallel <= TRACE.parallel && t.q > TRACE.object);
  });
  return { traces, accepted };
}

/** Marks the candidates of every accepted trace in `core`; returns how many were added. */
export function keepTraces(core: Uint8Array, L: Float32Array, ev: Evidence, p: Float32Array, w: number, h: number): number {
  const { traces, accepted } = lineTraces(L, ev, p, w, h);
  let added = 0;
  traces.forEach((t, k) => {
    if (!accepted[k]) return;
    for (const i of t.pixels) {
      if (!core[i]) added++;
      core[i] = 1;
    }
  });
  return added;
}
