import { describe, expect, it } from 'vitest';
import { angleGap, convexHull, foldAngle, minAreaRect, quadIoU, rectCorners, type Point } from '../../../engines/scans/geometry';
import { refineRect, sideSteps } from '../../../engines/scans/piece';
import { rectOf } from '../../../engines/scans';

/** The outline of a filled rectangle as pixel centres: every pixel whose centre is inside, on the boundary. */
function rasterOutline(r: { cx: number; cy: number; width: number; height: number; angle: number }, jitter = 0): Float64Array {
  const t = (r.angle * Math.PI) / 180, c = Math.cos(t), s = Math.sin(t);
  const inside = (x: number, y: number) => {
    const dx = x - r.cx, dy = y - r.cy;
    return Math.abs(dx * c + dy * s) <= r.width / 2 && Math.abs(-dx * s + dy * c) <= r.height / 2;
  };
  const xy: number[] = [];
  const reach = Math.ceil(Math.hypot(r.width, r.height) / 2) + 2;
  let k = 0;
  for (let y = Math.floor(r.cy - reach); y <= r.cy + reach; y++) {
    for (let x = Math.floor(r.cx - reach); x <= r.cx + reach; x++) {
      const px = x + 0.5, py = y + 0.5;
      if (!inside(px, py)) continue;
      if (inside(px - 1, py) && inside(px + 1, py) && inside(px, py - 1) && inside(px, py + 1)) continue;
      // A deterministic wobble of up to `jitter` pixels, as a scanned edge has.
      const j = jitter * Math.sin(++k * 12.9898);
      xy.push(px + j, py - j);
    }
  }
  return Float64Array.from(xy);
}

/** The points [x0, y0, x1, y1, …] for which `test` holds. */
function keep(xy: Float64Array, test: (x: number, y: number) => boolean): Float64Array {
  const out: number[] = [];
  for (let k = 0; k < xy.length; k += 2) if (test(xy[k]!, xy[k + 1]!)) out.push(xy[k]!, xy[k + 1]!);
  return Float64Array.from(out);
}

describe('scan geometry', () => {
  it('folds rectangle angles into (−45°, 45°] and compares them modulo quarter turns', () => {
    expect(foldAngle(10)).toBe(10);
    expect(foldAngle(100)).toBe(10);
    expect(foldAngle(-80)).toBe(10);
    expect(foldAngle(45)).toBe(45);
    expect(foldAngle(-45)).toBe(45);
    expect(angleGap(89.5, -0.3)).toBeCloseTo(0.2, 6);
    expect(angleGap(12, -3)).toBeCloseTo(15, 6);
  });

  it('finds the rectangle of least area around a turned rectangle, with its size along its own top side', () => {
    for (const angle of [-20, -7.5, 0, 3, 19]) {
      const corners = rectCorners({ cx: 300, cy: 200, width: 240, height: 160, angle });
      const rect = minAreaRect(convexHull(corners.flat()));
      expect(angleGap(rect.angle, angle)).toBeLessThan(1e-6);
      expect(rect.cx).toBeCloseTo(300, 6);
      expect(rect.cy).toBeCloseTo(200, 6);
      expect([rect.width, rect.height].sort((a, b) => a - b)).toEqual([expect.closeTo(160, 6), expect.closeTo(240, 6)]);
    }
  });

  it('gives corners clockwise on the screen from the top left, and rectOf reads them back', () => {
    const r = { cx: 50, cy: 40, width: 30, height: 20, angle: 10 };
    const [tl, tr, br, bl] = rectCorners(r);
    expect(tl[0]).toBeLessThan(tr[0]);
    expect(bl[1]).toBeGreaterThan(tl[1]);
    expect(br[0]).toBeGreaterThan(bl[0]);
    const back = rectOf(rectCorners(r));
    for (const k of ['cx', 'cy', 'width', 'height', 'angle'] as const) expect(back[k]).toBeCloseTo(r[k], 9);
  });

  it('measures the overlap of quads as intersection over union', () => {
    const a: Point[] = [[0, 0], [10, 0], [10, 10], [0, 10]];
    expect(quadIoU(a, a)).toBeCloseTo(1, 9);
    expect(quadIoU(a, [[20, 0], [30, 0], [30, 10], [20, 10]])).toBe(0);
    // Half of each overlaps: 50 / (100 + 100 − 50).
    expect(quadIoU(a, [[5, 0], [15, 0], [15, 10], [5, 10]])).toBeCloseTo(1 / 3, 9);
    // Orientation does not matter.
    expect(quadIoU([...a].reverse(), [[5, 0], [15, 0], [15, 10], [5, 10]])).toBeCloseTo(1 / 3, 9);
  });

  it('fits a print’s sides to its outline to a fraction of a degree, with ragged edges, a lost corner and a smear', () => {
    for (const angle of [-17.3, -4.2, 0.4, 8.8, 19.6]) {
      const truth = { cx: 400, cy: 300, width: 260, height: 180, angle };
      const [tl, tr, br] = rectCorners(truth);
      // A dark patch eats one corner away (30 pixels of each side near it) …
      const xy = [...keep(rasterOutline(truth, 0.8), (x, y) => Math.hypot(x - tl[0], y - tl[1]) > 30)];
      // … and a smear of shadow sticks out of the right side, 10 pixels at the top right corner, nothing half-way down.
      const out = [Math.cos((angle * Math.PI) / 180), Math.sin((angle * Math.PI) / 180)];
      for (let t = 0; t <= 1; t += 0.01) {
        const along = 0.5 * t, lift = 10 * (1 - t);
        xy.push(tr[0] + along * (br[0] - tr[0]) + lift * out[0]!, tr[1] + along * (br[1] - tr[1]) + lift * out[1]!);
      }
      const points = Float64Array.from(xy);
      const rect = refineRect(points, minAreaRect(convexHull(points)));
      expect(angleGap(rect.angle, angle)).toBeLessThan(0.25);
      // The rectangle of least area reaches out to the smear's tip (IoU 0.96); the fitted sides stay on the print.
      expect(quadIoU(rectCorners(rect), rectCorners(truth))).toBeGreaterThan(0.985);
    }
  });

  it('sees a step in a side where two prints lined up stick out of each other, and none in one print', () => {
    const one = { cx: 300, cy: 300, width: 300, height: 200, angle: 6 };
    expect(sideSteps(rasterOutline(one, 0.5), one).every((s) => s === 0)).toBe(true);
    // Two prints side by side, the right one 14 pixels lower: the union's top and bottom sides each have a step.
    const left = rasterOutline({ cx: 200, cy: 300, width: 200, height: 200, angle: 0 });
    const right = rasterOutline({ cx: 400, cy: 314, width: 200, height: 200, angle: 0 });
    // Only the union's outline: the points along the seam at x = 300 go.
    const both = keep(Float64Array.from([...left, ...right]), (x) => Math.abs(x - 300) > 1.5);
    const rect = refineRect(both, minAreaRect(convexHull(both)));
    const steps = sideSteps(both, rect);
    expect(steps[0]).toBeGreaterThan(10);
    expect(steps[2]).toBeGreaterThan(10);
  });
});
