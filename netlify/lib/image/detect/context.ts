import { boxMean } from '../planes';
import { directionVector, FEATURE_COUNT, type Evidence } from './evidence';

// Auto-context: the first pixel network's opinions, read around each candidate, are evidence too. A pixel on a
// scratch has likely pixels before and after it along its line and few beside it; a pixel of a texture or a
// lettering has likely pixels all around; a lone speck has none. The second pixel network decides on the
// candidate's own evidence and these.

export const CONTEXT_NAMES = ['own', 'along', 'alongMax', 'beside', 'density', 'candidates'] as const;
/** The second network's inputs: the evidence, then the context. */
export const CONTEXT_FEATURE_COUNT = FEATURE_COUNT + CONTEXT_NAMES.length;
/** Below this first probability a candidate is grain or texture: the context network is not asked. */
export const CONTEXT_FLOOR = 0.02;

/** Steps (px) along the line read each way, perpendicular offsets (px) read beside it, and the density window's radius. */
const ALONG = 10;
const BESIDE = [2, 3, 4] as const;
const BESIDE_ALONG = 3;
const DENSITY_RADIUS = 5;

/**
 * The candidates the context network decides on (first probability at least CONTEXT_FLOOR), as indices into the
 * candidates (`rows`), and for each its evidence followed by its context under the first probabilities `p`.
 */
export function withContext(ev: Evidence, p: Float32Array, w: number, h: number): { rows: Int32Array; values: Float32Array } {
  const n = w * h;
  const P = new Float32Array(n);
  const isCandidate = new Float32Array(n);
  ev.candidates.forEach((i, c) => {
    P[i] = p[c]!;
    isCandidate[i] = 1;
  });
  const density = boxMean(P, w, h, DENSITY_RADIUS);
  const crowd = boxMean(isCandidate, w, h, DENSITY_RADIUS);
  const at = (x: number, y: number) => {
    const xx = Math.round(x);
    const yy = Math.round(y);
    return xx >= 0 && yy >= 0 && xx < w && yy < h ? P[yy * w + xx]! : 0;
  };
  const rows: number[] = [];
  p.forEach((v, c) => {
    if (v >= CONTEXT_FLOOR) rows.push(c);
  });
  const out = new Float32Array(rows.length * CONTEXT_FEATURE_COUNT);
  rows.forEach((c, row) => {
    const i = ev.candidates[c]!;
    const x = i % w;
    const y = (i - x) / w;
    const [ux, uy] = directionVector(ev.direction[c]!);
    let along = 0;
    let alongMax = 0;
    for (let t = 1; t <= ALONG; t++) {
      const a = at(x + t * ux, y + t * uy);
      const b = at(x - t * ux, y - t * uy);
      along += a + b;
      alongMax = Math.max(alongMax, Math.min(a, b));
    }
    let beside = 0;
    let count = 0;
    for (const d of BESIDE) {
      for (let t = -BESIDE_ALONG; t <= BESIDE_ALONG; t++) {
        beside += at(x + t * ux - d * uy, y + t * uy + d * ux) + at(x + t * ux + d * uy, y + t * uy - d * ux);
        count += 2;
      }
    }
    const o = row * CONTEXT_FEATURE_COUNT;
    out.set(ev.values.subarray(c * FEATURE_COUNT, (c + 1) * FEATURE_COUNT), o);
    out[o + FEATURE_COUNT] = p[c]!;
    out[o + FEATURE_COUNT + 1] = along / (2 * ALONG);
    out[o + FEATURE_COUNT + 2] = alongMax;
    out[o + FEATURE_COUNT + 3] = beside / count;
    out[o + FEATURE_COUNT + 4] = density[i]!;
    out[o + FEATURE_COUNT + 5] = crowd[i]!;
  });
  return { rows: Int32Array.from(rows), values: out };
}
