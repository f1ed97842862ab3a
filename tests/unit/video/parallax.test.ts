import { describe, expect, it } from 'vitest';
import { cameraRectAt, parseMotion, planCameraPath, progressAt } from '../../../engines/video/motion';
import { BackgroundMap, FLAT, MIN_FACTOR, Motion, subjectFactors, subjectSource, type Depth } from '../../../engines/video/parallax/plan';
import { chooseDepth } from '../../../engines/video/parallax/depth';

const FRAMES = 150;
const PROMPTS = [
  'a gentle move',
  'zoom in slowly',
  'zoom out fast',
  'pan left',
  'pan right',
  'tilt up',
  'tilt down',
  'zoom in and pan right quickly',
  'pull back and tilt down',
];
const path = (prompt: string, focus = { x: 0.62, y: 0.4 }) => planCameraPath(parseMotion(prompt), FRAMES, focus);

describe('layer maps', () => {
  const [W, H] = [960, 720];

  it('the flat depth is exactly the prompt camera move', () => {
    for (const prompt of PROMPTS) {
      const p = path(prompt);
      const map = new BackgroundMap(new Motion(p, W, H), FLAT);
      const row = new Float64Array(3);
      for (const n of [0, 40, 100, 149]) {
        const r = cameraRectAt(p, n);
        map.at(progressAt(p, n));
        for (const y of [0, 333, 719]) {
          map.row(y, row);
          expect(row[0]).toBeCloseTo(H * r.y + y * r.h, 6);
          expect(row[1]).toBeCloseTo(W * r.x, 6);
          expect(row[2]).toBeCloseTo(r.w, 9);
        }
      }
    }
  });

  it('never reads the background or the subject outside the photo, whatever the move and depth', () => {
    const depths: Depth[] = [
      FLAT,
      { subjectEdge: 0.74, backgroundTop: MIN_FACTOR, backgroundBottom: 0.67 },
      { subjectEdge: 0.9, backgroundTop: 0.8, backgroundBottom: 0.9 },
    ];
    const mask = new Uint8Array(40 * 30);
    for (let y = 8; y < 30; y++) for (let x = 12; x < 28; x++) mask[y * 40 + x] = 1;
    const row = new Float64Array(3);
    const uv = new Float64Array(3);
    // Every row and corner of every frame is checked; the out-of-bounds reads are collected and compared once
    // (an expect per value would cost more than the computation).
    const outside: string[] = [];
    const within = (value: number, max: number) => value >= -1e-6 && value <= max + 1e-6;
    for (const prompt of PROMPTS) {
      const p = path(prompt);
      const motion = new Motion(p, W, H);
      for (const [d, depth] of depths.entries()) {
        const map = new BackgroundMap(motion, depth);
        const factors = subjectFactors(mask, 40, 30, depth.subjectEdge);
        for (let n = 0; n < FRAMES; n++) {
          map.at(progressAt(p, n));
          for (let y = 0; y < H; y += 7) {
            map.row(y, row);
            // Within the photo's area: at most the far edge of its last pixel (the output's last column reads a
            // fraction of a pixel beyond that pixel's centre on a zoomed window, which the sampler clamps).
            if (!within(row[0]!, H) || !within(row[1]!, W) || !within(row[1]! + row[2]! * (W - 1), W)) {
              outside.push(`${prompt}, depth ${d}, frame ${n}: background row ${y} reads ${row.join(' ')}`);
            }
          }
          for (const [x, y] of [[0, 0], [W, 0], [0, H], [W, H], [W / 2, H / 2]] as const) {
            subjectSource(motion, factors, progressAt(p, n), x, y, uv);
            if (!within(uv[0]!, W) || !within(uv[1]!, H)) outside.push(`${prompt}, depth ${d}, frame ${n}: subject at ${x},${y} reads ${uv[0]},${uv[1]}`);
          }
        }
      }
    }
    expect(outside).toEqual([]);
  });

  it('moves the subject more than the background, in the direction of the camera path', () => {
    const depth: Depth = { subjectEdge: 0.8, backgroundTop: 0.5, backgroundBottom: 0.7 };
    for (const prompt of ['zoom in slowly', 'zoom out', 'pan left', 'pan right', 'tilt up', 'tilt down']) {
      const p = path(prompt);
      const motion = new Motion(p, W, H);
      const row = new Float64Array(3);
      // Where source point (u, v) shows in the output at a progress: the row maps inverted (Newton on v).
      const shownAt = (depth: Depth, progress: number, u: number, v: number): [number, number] => {
        const map = new BackgroundMap(motion, depth).at(progress);
        let y = v;
        for (let i = 0; i < 30; i++) {
          map.row(y, row);
          y += (v - row[0]!) / row[2]!;
        }
        map.row(y, row);
        return [(u - row[1]!) / row[2]!, y];
      };
      const far: Depth = { ...depth, backgroundBottom: depth.backgroundTop };
      const [u, v] = [W * 0.3, H * 0.3];
      const [sx0, sy0] = shownAt(FLAT, 0, u, v);
      const [sx, sy] = shownAt(FLAT, 1, u, v);
      const [bx0, by0] = shownAt(far, 0, u, v);
      const [bx, by] = shownAt(far, 1, u, v);
      expect(Math.hypot(sx0 - bx0, sy0 - by0), 'the layers start aligned').toBeLessThan(1e-6);
      const subject = Math.hypot(sx - sx0, sy - sy0);
      const background = Math.hypot(bx - bx0, by - by0);
      expect(subject, prompt).toBeGreaterThan(background * 1.3);
      // Same direction: the background makes part of the subject's move.
      expect((sx - sx0) * (bx - bx0) + (sy - sy0) * (by - by0), prompt).toBeGreaterThan(0);
    }
  });

  it('keeps what the subject uncovers within its budget', () => {
    const cues = { area: 0.3, focusRatio: 1.5, groundRatio: 1 };
    const points: [number, number][] = Array.from({ length: 40 }, (_, i) => [480 + 200 * Math.cos(i / 6), 360 + 200 * Math.sin(i / 6)]);
    for (const prompt of PROMPTS) {
      const p = path(prompt);
      const d = chooseDepth(p, cues, points, W, H, 200);
      expect(d.backgroundTop).toBeGreaterThanOrEqual(MIN_FACTOR);
      expect(d.backgroundTop).toBeLessThanOrEqual(d.backgroundBottom);
      expect(d.backgroundBottom).toBeLessThanOrEqual(d.subjectEdge);
      expect(d.subjectEdge).toBeLessThan(1);
      // A narrow subject gets little relief: its outline lags its core by at most 15 % of its half-width.
      const narrow = chooseDepth(p, cues, points, W, H, 10);
      expect(narrow.backgroundTop).toBe(d.backgroundTop);
      expect(narrow.subjectEdge).toBeGreaterThanOrEqual(d.subjectEdge);
      const motion = new Motion(p, W, H);
      let worst = 0;
      for (let n = 0; n < FRAMES; n++) {
        const [nx, ny, nw] = motion.window(progressAt(p, n));
        const [fx, fy, fw] = motion.window(d.backgroundTop * progressAt(p, n));
        for (const [u, v] of points) worst = Math.max(worst, Math.hypot((u - nx!) / nw! - (u - fx!) / fw!, (v - ny!) / nw! - (v - fy!) / fw!));
      }
      // The budget is 4 % to 6.5 % of the short side by the cues (checked every 5th frame, hence the slack). A
      // sideways move uncovers as much as it moves; a push-in only covers more, and may move 2.5 times as far.
      const budget = 720 * 0.065 + 1;
      const m = parseMotion(prompt);
      const sideways = !m.auto && m.zoom !== 'in';
      expect(worst, prompt).toBeLessThanOrEqual(sideways ? budget : 2.5 * budget);
      expect(worst, prompt).toBeGreaterThan(5);
    }
  });
});
