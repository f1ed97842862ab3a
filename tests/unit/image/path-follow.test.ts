import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../../engines/image/detect/evidence';
import type { DamageObjects } from '../../../engines/image/detect/objects';
import { followPath } from '../../../engines/image/detect/paths';

// followPath (detect/paths.ts) on a residual drawn by hand: a grain of spread 1, a light scratch at 37° whose
// first stretch is the kept component and which is fainter past the point where it crosses a short, stronger
// real line (polynesian_dancers: its scratch's path was drawn along the strand across the hands, and lost).

const w = 200, h = 160;
const DEG = Math.PI / 180;

function scene(seed: number, strandAngle: number) {
  let a = seed;
  const rnd = () => ((a = (a * 1664525 + 1013904223) >>> 0) / 4294967296);
  const r = Float32Array.from({ length: w * h }, () => (rnd() + rnd() + rnd() - 1.5) * 2);
  /** Pixels of a line from (x0, y0) at `deg`, from `from` to `to` px along it, drawn in quarter steps. */
  const line = (x0: number, y0: number, deg: number, from: number, to: number, value: number) => {
    const pts: number[] = [];
    for (let t = from; t <= to; t += 0.25) {
      const i = Math.round(y0 - t * Math.sin(deg * DEG)) * w + Math.round(x0 + t * Math.cos(deg * DEG));
      if (pts.at(-1) === i) continue;
      pts.push(i);
      r[i] = value;
    }
    return pts;
  };
  const component = line(20, 140, 37, 0, 40, 6);
  const scratch = line(20, 140, 37, 41, 170, 3);
  line(20 + 41 * Math.cos(37 * DEG), 140 - 41 * Math.sin(37 * DEG), strandAngle, 1, 12, 8);
  const ev = { residual: { r, sigma: 1, median: r }, lineSigma: 0.45 } as unknown as Evidence;
  const objects = {
    pixels: [Int32Array.from(component)],
    sign: Int8Array.from([1]),
    axis: Float32Array.from([Math.cos(37 * DEG), -Math.sin(37 * DEG)]),
    values: new Float32Array(0),
  } as DamageObjects;
  return { ev, objects, scratch };
}

describe('a scratch followed as a path', () => {
  it('keeps its course past a stronger real line it crosses', () => {
    for (const strandAngle of [0, 10, 20]) {
      for (const seed of [7, 8, 9, 10, 11]) {
        const { ev, objects, scratch } = scene(seed, strandAngle);
        const core = new Uint8Array(w * h);
        followPath(core, ev, objects, 0, w, h);
        // A line drawn in quarter steps holds more pixels than a path takes (one a step): a pixel counts when the
        // path took it or a neighbour. Drawn aside by the strand (before the pixel on the course came first), the
        // path found none of it.
        const near = (i: number) => [-w - 1, -w, -w + 1, -1, 0, 1, w - 1, w, w + 1].some((o) => core[i + o]);
        const beyond = scratch.slice(20);
        expect(beyond.filter(near).length / beyond.length, `strand at ${strandAngle}°, seed ${seed}`).toBeGreaterThan(0.9);
      }
    }
  });
});
