import { HEAL_RADIUS, type HealMark } from './image-schema';

/**
 * How much healing one request may ask for: the heal endpoint refuses past it with a 400 before anything
 * is rendered (browser-safe, so a page can check marks before sending them).
 *
 * The cost of healing grows with the area the brush covers, so the budget is that area as a share of the
 * picture: every re-render heals the whole stored set of marks again, so the budget holds for the set.
 * `healWork` then cuts long slanted strokes into short pieces, because the engine works each mark on the
 * rectangle around it: one corner-to-corner stroke would otherwise cost the whole picture however thin it is.
 */
export const HEAL_BUDGET = {
  /** The marks may cover at most this share of the picture (overlaps counted twice). */
  maxShare: 0.1,
  /** A stroke is cut when the rectangle around it is more than this many times the area it covers. */
  maxBoxToArea: 6,
  /** …into pieces this many brush radii long. */
  pieceRadii: 8,
} as const;

type Point = { x: number; y: number };

const radiusOf = (mark: HealMark) => mark.radius ?? HEAL_RADIUS.default;

/** The brush's area for one mark in pixels of a `width`×`height` picture: its path's length × 2r plus the round ends. */
function markArea(mark: HealMark, width: number, height: number): number {
  const r = radiusOf(mark) * Math.max(width, height);
  let length = 0;
  for (let k = 1; k < mark.points.length; k++) length += segmentLength(mark.points[k - 1]!, mark.points[k]!, width, height);
  return length * 2 * r + Math.PI * r * r;
}

const segmentLength = (a: Point, b: Point, width: number, height: number) => Math.hypot((b.x - a.x) * width, (b.y - a.y) * height);

/** The share of a `width`×`height` picture the marks' brush covers (0..n; overlaps counted twice). */
export function healMarkedShare(marks: readonly HealMark[], width: number, height: number): number {
  if (!(width > 0 && height > 0)) return 0;
  return marks.reduce((sum, mark) => sum + markArea(mark, width, height), 0) / (width * height);
}

/** Whether the marks fit the budget on a picture of this size. */
export const withinHealBudget = (marks: readonly HealMark[], width: number, height: number) =>
  healMarkedShare(marks, width, height) <= HEAL_BUDGET.maxShare;

/**
 * The marks as the engine should work them: a stroke whose bounding rectangle is much larger than the area
 * its brush covers (a long slanted stroke) becomes a run of short, overlapping strokes along the same path,
 * so the work stays proportional to the area marked. Straight-up, level and short strokes and clicks stay
 * as they are. Same brush, same path, same pixels covered.
 */
export function healWork(marks: readonly HealMark[], width: number, height: number): HealMark[] {
  const side = Math.max(width, height);
  return marks.flatMap((mark) => {
    if (mark.points.length < 2) return [mark];
    const r = radiusOf(mark) * side;
    const xs = mark.points.map((p) => p.x * width), ys = mark.points.map((p) => p.y * height);
    const box = (Math.max(...xs) - Math.min(...xs) + 2 * r) * (Math.max(...ys) - Math.min(...ys) + 2 * r);
    if (box <= HEAL_BUDGET.maxBoxToArea * markArea(mark, width, height)) return [mark];
    const step = Math.max(1, HEAL_BUDGET.pieceRadii * r);
    const pieces: HealMark[] = [];
    for (let k = 1; k < mark.points.length; k++) {
      const a = mark.points[k - 1]!, b = mark.points[k]!;
      const n = Math.max(1, Math.ceil(segmentLength(a, b, width, height) / step));
      for (let i = 0; i < n; i++) {
        const at = (t: number) => ({ x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t });
        pieces.push({ ...(mark.radius !== undefined && { radius: mark.radius }), points: [at(i / n), at((i + 1) / n)] });
      }
    }
    return pieces;
  });
}
