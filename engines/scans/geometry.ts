// Plane geometry for the scan splitter: convex hulls, the rotated rectangle of least area, a print's corners, and
// polygon areas and overlaps (the bench scores a found print against the truth with quadIoU).
//
// Coordinates are image pixels, x to the right and y down. An angle θ (degrees) turns a print clockwise on the
// screen: its top side runs along (cos θ, sin θ) and its left side down along (−sin θ, cos θ).

export type Point = readonly [number, number];
/** Four corners: top left, top right, bottom right, bottom left of the print as it reads once straightened. */
export type Quad = readonly [Point, Point, Point, Point];
/** An upright box: its top left corner and size. */
export type Box = { left: number; top: number; width: number; height: number };
/** A rotated rectangle: its centre, its size along its own axes, and its turn in degrees. */
export type RotatedRect = { cx: number; cy: number; width: number; height: number; angle: number };

const RAD = Math.PI / 180;

/** The convex hull of points given as [x0, y0, x1, y1, …], counter-clockwise on the screen (monotone chain). */
export function convexHull(xy: ArrayLike<number>): Point[] {
  const n = xy.length >> 1;
  const idx = Array.from({ length: n }, (_, i) => i).sort((a, b) => xy[2 * a]! - xy[2 * b]! || xy[2 * a + 1]! - xy[2 * b + 1]!);
  const pts: Point[] = idx.map((i) => [xy[2 * i]!, xy[2 * i + 1]!]);
  if (pts.length < 3) return pts;
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Point[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Point[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  return lower.slice(0, -1).concat(upper.slice(0, -1));
}

/** A polygon's area (absolute; any orientation). */
export function polygonArea(poly: readonly Point[]): number {
  let s = 0;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!, b = poly[(i + 1) % poly.length]!;
    s += a[0] * b[1] - b[0] * a[1];
  }
  return Math.abs(s) / 2;
}

/** Folds an angle in degrees into (−45°, 45°]: a rectangle turned by θ and by θ ± 90° is the same rectangle. */
export function foldAngle(deg: number): number {
  let a = deg % 90;
  if (a <= -45) a += 90;
  if (a > 45) a -= 90;
  return a;
}

/** The smallest difference between two rectangle angles (degrees), whatever their quarter turns: 0…45. */
export function angleGap(a: number, b: number): number {
  return Math.abs(foldAngle(a - b));
}

/** A rectangle whose top side runs at `angle` (folded into (−45°, 45°]) with its width along that side. */
export function uprightRect(cx: number, cy: number, along: number, across: number, angle: number): RotatedRect {
  const folded = foldAngle(angle);
  // An odd number of quarter turns between the two angles swaps which side is the top.
  const swapped = Math.abs(Math.round((angle - folded) / 90)) % 2 === 1;
  return swapped ? { cx, cy, width: across, height: along, angle: folded } : { cx, cy, width: along, height: across, angle: folded };
}

/**
 * The rotated rectangle of least area around a convex polygon (rotating calipers: one side of the best rectangle
 * lies along an edge of the hull), with its angle folded into (−45°, 45°].
 */
export function minAreaRect(hull: readonly Point[]): RotatedRect {
  if (hull.length === 0) return { cx: 0, cy: 0, width: 0, height: 0, angle: 0 };
  let best: RotatedRect | null = null;
  let bestArea = Infinity;
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i]!, b = hull[(i + 1) % hull.length]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (len === 0 && hull.length > 1) continue;
    const ux = len ? (b[0] - a[0]) / len : 1, uy = len ? (b[1] - a[1]) / len : 0;
    let minU = Infinity, maxU = -Infinity, minV = Infinity, maxV = -Infinity;
    for (const p of hull) {
      const u = p[0] * ux + p[1] * uy, v = -p[0] * uy + p[1] * ux;
      if (u < minU) minU = u;
      if (u > maxU) maxU = u;
      if (v < minV) minV = v;
      if (v > maxV) maxV = v;
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < bestArea) {
      bestArea = area;
      const mu = (minU + maxU) / 2, mv = (minV + maxV) / 2;
      best = uprightRect(mu * ux - mv * uy, mu * uy + mv * ux, maxU - minU, maxV - minV, Math.atan2(uy, ux) / RAD);
    }
  }
  return best!;
}

/** The unit vectors of a rectangle's top side (u) and left side (v, pointing down the print). */
export function rectAxes(angle: number): { ux: number; uy: number; vx: number; vy: number } {
  const c = Math.cos(angle * RAD), s = Math.sin(angle * RAD);
  return { ux: c, uy: s, vx: -s, vy: c };
}

/** A rectangle's corners: top left, top right, bottom right, bottom left. */
export function rectCorners(r: RotatedRect): Quad {
  const { ux, uy, vx, vy } = rectAxes(r.angle);
  const hw = r.width / 2, hh = r.height / 2;
  const at = (a: number, b: number): Point => [r.cx + a * ux + b * vx, r.cy + a * uy + b * vy];
  return [at(-hw, -hh), at(hw, -hh), at(hw, hh), at(-hw, hh)];
}

/** The part of `subject` inside the convex polygon `clip` (Sutherland–Hodgman); both in either orientation. */
export function clipConvex(subject: readonly Point[], clip: readonly Point[]): Point[] {
  // Orient the clip counter-clockwise in the maths sense (positive shoelace sum) so "inside" is one sign.
  let s = 0;
  for (let i = 0; i < clip.length; i++) {
    const a = clip[i]!, b = clip[(i + 1) % clip.length]!;
    s += a[0] * b[1] - b[0] * a[1];
  }
  const cw = s < 0 ? [...clip].reverse() : clip;
  let out: Point[] = [...subject];
  for (let i = 0; i < cw.length && out.length; i++) {
    const a = cw[i]!, b = cw[(i + 1) % cw.length]!;
    const side = (p: Point) => (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0]);
    const input = out;
    out = [];
    for (let j = 0; j < input.length; j++) {
      const p = input[j]!, q = input[(j + 1) % input.length]!;
      const sp = side(p), sq = side(q);
      if (sp >= 0) out.push(p);
      if (sp >= 0 !== sq >= 0) {
        const t = sp / (sp - sq);
        out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
      }
    }
  }
  return out;
}

/** Intersection over union of two convex polygons (prints' quads). */
export function quadIoU(a: readonly Point[], b: readonly Point[]): number {
  const inter = polygonArea(clipConvex(a, b));
  const union = polygonArea(a) + polygonArea(b) - inter;
  return union > 0 ? inter / union : 0;
}

/** The distance from a point to a polygon's outline (its nearest edge). */
export function distanceToPolygon(p: Point, poly: readonly Point[]): number {
  let best = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!, b = poly[(i + 1) % poly.length]!;
    const dx = b[0] - a[0], dy = b[1] - a[1], len2 = dx * dx + dy * dy;
    const t = len2 ? Math.max(0, Math.min(1, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / len2)) : 0;
    best = Math.min(best, Math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy));
  }
  return best;
}
