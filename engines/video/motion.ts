// Prompt → camera move. The path is plain numbers so it can be unit-tested and followed with sub-pixel
// precision by every frame (compose.ts): no integer rounding, so no zoompan-style jitter.

export type Speed = 'slow' | 'normal' | 'fast';
export type Easing = 'inOut' | 'in' | 'out' | 'linear';

export type CameraMotion = {
  zoom: 'in' | 'out' | null;
  pan: 'left' | 'right' | null;
  tilt: 'up' | 'down' | null;
  speed: Speed;
  easing: Easing;
  /** True when the prompt names no camera move: the engine pushes in toward the salient region. */
  auto: boolean;
};

/**
 * A window onto the base frame in normalised coordinates (0..1 of the frame's width and height).
 * `w` and `h` are equal fractions (1/zoom), so the window always keeps the output aspect ratio.
 */
export type CameraRect = { x: number; y: number; w: number; h: number };

/**
 * The whole camera move: the window at the first and last frame and the easing between them.
 * Size interpolates geometrically (constant perceived zoom speed), the centre linearly; any two
 * valid end rects give valid rects in between (left edge concave, right edge convex in t).
 */
export type CameraPath = { from: CameraRect; to: CameraRect; easing: Easing; frames: number };

type Rule = { re: RegExp; apply: (m: CameraMotion) => void };

// Order matters only within a group; every group is checked independently, so moves combine.
const ZOOM_RULES: Rule[] = [
  { re: /\b(zoom(s|ing|ed)?\s+out|pull(s|ing)?\s+(back|out|away)|dolly(ing)?\s+out|widen(s|ing)?|reveal(s|ing)?|move(s)?\s+back)\b/, apply: (m) => (m.zoom = 'out') },
  { re: /\b(zoom(s|ing|ed)?(\s+in(to)?)?|push(es|ing)?\s+in|dolly(ing)?\s+in|close[\s-]?up|move(s)?\s+(in|closer)|approach(es|ing)?)\b/, apply: (m) => (m.zoom ??= 'in') },
];
const PAN_RULES: Rule[] = [
  { re: /\b(pan(s|ning|ned)?|truck(s|ing)?|move(s|ing)?|slide(s|ing)?|drift(s|ing)?|track(s|ing)?|sweep(s|ing)?)\s+(to\s+the\s+)?left(wards?)?\b/, apply: (m) => (m.pan = 'left') },
  { re: /\b(pan(s|ning|ned)?|truck(s|ing)?|move(s|ing)?|slide(s|ing)?|drift(s|ing)?|track(s|ing)?|sweep(s|ing)?)\s+(to\s+the\s+)?right(wards?)?\b/, apply: (m) => (m.pan = 'right') },
];
const TILT_RULES: Rule[] = [
  { re: /\b(tilt(s|ing|ed)?|pan(s|ning)?|crane(s|ing)?|pedestal(s|ing)?|move(s|ing)?|rise(s)?|rising|look(s|ing)?)\s+up(wards?)?\b/, apply: (m) => (m.tilt = 'up') },
  { re: /\b(tilt(s|ing|ed)?|pan(s|ning)?|crane(s|ing)?|pedestal(s|ing)?|move(s|ing)?|descend(s|ing)?|look(s|ing)?)\s+down(wards?)?\b/, apply: (m) => (m.tilt = 'down') },
];
const FAST = /\b(fast|quick(ly)?|rapid(ly)?|swift(ly)?|dramatic(ally)?|dynamic|energetic)\b/;
const SLOW = /\b(slow(ly)?|gentl[ey]|subtle|subtly|calm(ly)?|soft(ly)?|gradual(ly)?|steady|steadily)\b/;

/**
 * Reads the camera move from a free-text prompt (English keywords, case-insensitive):
 * - zoom: "zoom in", "push in", "close-up", "dolly in" → in; "zoom out", "pull back", "reveal" → out;
 * - pan: "pan left/right" (also truck, move, slide, drift, track, sweep);
 * - tilt: "tilt up/down" (also "pan up", crane, pedestal, rise, look up/down);
 * - speed: slow/gentle/subtle/gradual → slow; fast/quick/rapid/dramatic → fast; otherwise normal;
 * - easing: ease in and out by default; "linear"/"constant" → linear; "accelerate"/"speed up" →
 *   ease in only; "decelerate"/"settle"/"come to rest" → ease out only.
 * Moves combine ("zoom out and pan right"). No move at all → `auto` (push-in toward the subject).
 */
export function parseMotion(prompt: string): CameraMotion {
  const text = prompt.toLowerCase().replace(/[^a-z0-9\s-]/g, ' ');
  const m: CameraMotion = { zoom: null, pan: null, tilt: null, speed: 'normal', easing: 'inOut', auto: false };
  for (const rule of TILT_RULES) if (rule.re.test(text)) rule.apply(m);
  // "pan up" is a tilt; only treat pan/move as horizontal when followed by left/right.
  for (const rule of PAN_RULES) if (rule.re.test(text)) rule.apply(m);
  for (const rule of ZOOM_RULES) if (rule.re.test(text)) rule.apply(m);
  if (FAST.test(text)) m.speed = 'fast';
  else if (SLOW.test(text)) m.speed = 'slow';
  if (/\b(linear|constant\s+speed|constant|uniform)\b/.test(text)) m.easing = 'linear';
  else if (/\b(accelerat\w*|speed(s|ing)?\s+up)\b/.test(text)) m.easing = 'in';
  else if (/\b(decelerat\w*|settl\w*|come(s)?\s+to\s+(a\s+)?rest|slow(s|ing)?\s+down)\b/.test(text)) m.easing = 'out';
  m.auto = !m.zoom && !m.pan && !m.tilt;
  return m;
}

// How far each move goes over the 5 s, by speed. Zoom is the relative change of the window's size;
// pans first zoom in by PAN_ZOOM so there is image beyond the frame edge to travel across.
const ZOOM_DELTA: Record<Speed, number> = { slow: 0.12, normal: 0.22, fast: 0.4 };
const PAN_ZOOM: Record<Speed, number> = { slow: 1.12, normal: 1.22, fast: 1.38 };
/** The automatic push-in is deliberately gentle. */
export const AUTO_PUSH_ZOOM = 1.15;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

function rectAround(cx: number, cy: number, zoom: number): CameraRect {
  const w = 1 / zoom;
  const x = clamp(cx - w / 2, 0, 1 - w);
  const y = clamp(cy - w / 2, 0, 1 - w);
  return { x, y, w, h: w };
}

/**
 * Turns a motion into start/end windows. `focus` (normalised point in the base frame) is where
 * an automatic push-in heads — the image's most salient region.
 */
export function planCameraPath(
  motion: CameraMotion,
  frames: number,
  focus: { x: number; y: number } = { x: 0.5, y: 0.5 },
): CameraPath {
  if (motion.auto) {
    return { from: rectAround(0.5, 0.5, 1), to: rectAround(focus.x, focus.y, AUTO_PUSH_ZOOM), easing: motion.easing, frames };
  }
  const base = motion.pan || motion.tilt ? PAN_ZOOM[motion.speed] : 1;
  const delta = ZOOM_DELTA[motion.speed];
  const z0 = motion.zoom === 'out' ? base * (1 + delta) : base;
  const z1 = motion.zoom === 'in' ? base * (1 + delta) : base;
  const w0 = 1 / z0;
  const w1 = 1 / z1;
  // Pans run the full travel available: from one edge of the photo to the other.
  const ends = (dir: -1 | 0 | 1, s0: number, s1: number): [number, number] =>
    dir === 0 ? [0.5, 0.5] : dir > 0 ? [s0 / 2, 1 - s1 / 2] : [1 - s0 / 2, s1 / 2];
  const [cx0, cx1] = ends(motion.pan === 'right' ? 1 : motion.pan === 'left' ? -1 : 0, w0, w1);
  // Tilting up shows what is above: the window travels from the bottom to the top.
  const [cy0, cy1] = ends(motion.tilt === 'down' ? 1 : motion.tilt === 'up' ? -1 : 0, w0, w1);
  return { from: rectAround(cx0, cy0, z0), to: rectAround(cx1, cy1, z1), easing: motion.easing, frames };
}

/** Easing curve value for t in 0..1. */
export function ease(easing: Easing, t: number): number {
  const u = clamp(t, 0, 1);
  switch (easing) {
    case 'linear':
      return u;
    case 'in':
      return 1 - Math.cos((Math.PI * u) / 2);
    case 'out':
      return Math.sin((Math.PI * u) / 2);
    default:
      return 0.5 - 0.5 * Math.cos(Math.PI * u);
  }
}

/** Eased progress (0..1) of the move at frame `n` (0-based). */
export function progressAt(path: CameraPath, n: number): number {
  return ease(path.easing, path.frames > 1 ? n / (path.frames - 1) : 1);
}

/**
 * The window at a progress along the move: 0 is `from`, 1 is `to`, and anything between is a window inside the
 * photo. A layer that follows only part of the move (parallax) uses its share of the progress.
 */
export function progressRect(path: CameraPath, progress: number): CameraRect {
  const { from: a, to: b } = path;
  const w = a.w * Math.pow(b.w / a.w, progress);
  const h = a.h * Math.pow(b.h / a.h, progress);
  const cx = a.x + a.w / 2 + (b.x + b.w / 2 - (a.x + a.w / 2)) * progress;
  const cy = a.y + a.h / 2 + (b.y + b.h / 2 - (a.y + a.h / 2)) * progress;
  return { x: cx - w / 2, y: cy - h / 2, w, h };
}

/** The camera window at frame `n` (0-based), with sub-pixel precision. */
export function cameraRectAt(path: CameraPath, n: number): CameraRect {
  return progressRect(path, progressAt(path, n));
}
