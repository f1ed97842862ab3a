/**
 * Plain logic of the heal brush island: the keyboard crosshair, turning a mouse drag into a mark's points,
 * and the brush sizes offered. Points are in 0..1 of the picture's width and height, as the server takes them.
 */
export interface Point {
  x: number;
  y: number;
}

/** Brush sizes offered, as a share of the picture's long side (within the server's HEAL_RADIUS range). The
 * finest follows a 1–2 px scratch on a large scan, zoomed in the full-size viewer. */
export const BRUSH_SIZES = [
  { id: 'finest', label: 'Finest', radius: 0.003 },
  { id: 'fine', label: 'Fine', radius: 0.008 },
  { id: 'medium', label: 'Medium', radius: 0.016 },
  { id: 'wide', label: 'Wide', radius: 0.03 },
] as const;
export type BrushSize = (typeof BRUSH_SIZES)[number]['id'];
export const DEFAULT_BRUSH: BrushSize = 'medium';

/** Arrow-key steps of the crosshair: fine enough to sit on a thin scratch, Shift for crossing the picture. */
export const CROSSHAIR_STEP = 0.004;
export const CROSSHAIR_STEP_LARGE = 0.04;

/** A drag shorter than this (screen pixels) is a click: hands shake. */
export const CLICK_SLOP_PX = 4;
/** Consecutive points of a dragged stroke are at least this far apart (screen pixels). */
const STROKE_GAP_PX = 3;

const clamp01 = (v: number) => Math.min(1, Math.max(0, v));
/** Five decimals: well under a pixel of a 12 MP original, even when marked zoomed in. */
const round = (v: number) => Math.round(clamp01(v) * 100_000) / 100_000;
export const roundPoint = (p: Point): Point => ({ x: round(p.x), y: round(p.y) });

/** Crosshair steps as shares of the picture's width and height (the large step is ten of them). */
export type CrosshairStep = { x: number; y: number };
export const DEFAULT_CROSSHAIR_STEP: CrosshairStep = { x: CROSSHAIR_STEP, y: CROSSHAIR_STEP };
/** Screen pixels an arrow key moves the crosshair in the full-size viewer, whatever the zoom. */
export const VIEWER_CROSSHAIR_PX = 2;

/** Crosshair steps of VIEWER_CROSSHAIR_PX screen pixels on a picture shown `width` × `height` screen pixels. */
export const screenStep = (width: number, height: number): CrosshairStep => ({ x: VIEWER_CROSSHAIR_PX / Math.max(1, width), y: VIEWER_CROSSHAIR_PX / Math.max(1, height) });

/** The crosshair after an arrow key, or null when the key is not an arrow. */
export function moveCrosshair(p: Point, key: string, large: boolean, step: CrosshairStep = DEFAULT_CROSSHAIR_STEP): Point | null {
  const k = large ? CROSSHAIR_STEP_LARGE / CROSSHAIR_STEP : 1;
  const delta: Record<string, [number, number]> = { ArrowLeft: [-step.x, 0], ArrowRight: [step.x, 0], ArrowUp: [0, -step.y], ArrowDown: [0, step.y] };
  const d = delta[key];
  return d ? roundPoint({ x: p.x + k * d[0], y: p.y + k * d[1] }) : null;
}

/**
 * The points of a mark from a drag on a box of `width` × `height` screen pixels: one point when it barely
 * moved (a click on a speck), else the path thinned to points a few pixels apart, ends kept, at most
 * `maxPoints` of them.
 */
export function markPoints(path: Point[], width: number, height: number, maxPoints: number): Point[] {
  if (path.length === 0) return [];
  const dist = (a: Point, b: Point) => Math.hypot((a.x - b.x) * width, (a.y - b.y) * height);
  const first = path[0]!, last = path[path.length - 1]!;
  if (maxPoints < 2 || path.every((p) => dist(p, first) < CLICK_SLOP_PX)) return [roundPoint(first)];
  let kept = [first];
  for (const p of path.slice(1, -1)) if (dist(p, kept[kept.length - 1]!) >= STROKE_GAP_PX) kept.push(p);
  if (kept.length > 1 && dist(last, kept[kept.length - 1]!) < STROKE_GAP_PX) kept.pop();
  kept.push(last);
  if (kept.length > maxPoints) {
    const step = (kept.length - 1) / (maxPoints - 1);
    kept = Array.from({ length: maxPoints }, (_, i) => kept[Math.round(i * step)]!);
  }
  return kept.map(roundPoint);
}

export const marksLabel = (n: number) => (n === 1 ? '1 mark' : `${n} marks`);
