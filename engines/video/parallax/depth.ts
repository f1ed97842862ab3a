// Coarse depth order: subject (near), the background's lower part (middle), its upper part (far), from
// three cues: size (a subject filling more of the frame is closer), focus (a background softer than the
// subject is far behind it) and position (a background sharper at the bottom than at the top is ground
// running away from the camera). The cues set how strongly the layers separate, within a budget of relative
// motion that keeps the uncovered band small enough to fill well.

import { progressAt, type CameraPath } from '../motion';
import { MIN_FACTOR, Motion, type Depth } from './plan';

export type DepthCues = {
  /** Share of the frame the subject covers. */
  area: number;
  /** Mean focus inside the subject over mean focus of the background. */
  focusRatio: number;
  /** Mean focus of the background's bottom third over its top third. */
  groundRatio: number;
};

/**
 * Largest width (share of the short side) of background the subject may uncover by moving against the far
 * background; a move that only covers more (the subject growing over it in a push-in) may go TOTAL times as
 * far.
 */
const BUDGET = { base: 0.04, cues: 0.025 } as const;
const TOTAL = 2.5;
/**
 * Largest relative move between the subject's core and its silhouette, as a share of the subject's half-width
 * (its largest distance to its outline): more would bend straight lines across a narrow subject.
 */
const RELIEF = 0.15;

export function depthCues(mask: Uint8Array, focus: Float32Array, width: number, height: number): DepthCues {
  let area = 0;
  let inside = 0;
  let outside = 0;
  let top = 0;
  let topCount = 0;
  let bottom = 0;
  let bottomCount = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (mask[i]) {
        area++;
        inside += focus[i]!;
        continue;
      }
      outside += focus[i]!;
      if (y < height / 3) {
        top += focus[i]!;
        topCount++;
      } else if (y >= (height * 2) / 3) {
        bottom += focus[i]!;
        bottomCount++;
      }
    }
  }
  const n = width * height;
  const meanOut = outside / Math.max(1, n - area);
  return {
    area: area / n,
    focusRatio: inside / Math.max(1, area) / Math.max(0.02, meanOut),
    groundRatio: topCount && bottomCount ? bottom / bottomCount / Math.max(0.02, top / topCount) : 1,
  };
}

/** Strength 0..1 of the cues that put the background far behind the subject. */
export function separation(cues: DepthCues): number {
  const size = Math.min(1, Math.max(0, (cues.area - 0.05) / 0.4));
  const focus = Math.min(1, Math.max(0, (cues.focusRatio - 1) / 1.5));
  return 0.5 * size + 0.5 * focus;
}

/**
 * The factors for this photo and move: the far background's is the lowest (down to MIN_FACTOR) whose move
 * against the subject at `points` (output pixels, the subject's silhouette) uncovers no more than the budget;
 * the silhouette's lags the core by at most RELIEF of `halfWidth` (output pixels).
 */
export function chooseDepth(
  path: CameraPath,
  cues: DepthCues,
  points: [number, number][],
  width: number,
  height: number,
  halfWidth: number,
): Depth {
  const budget = Math.min(width, height) * (BUDGET.base + BUDGET.cues * separation(cues));
  const motion = new Motion(path, width, height);
  let cx = 0;
  let cy = 0;
  for (const [u, v] of points) {
    cx += u / points.length;
    cy += v / points.length;
  }
  /** How far the subject's outline moves against a layer with factor k: in all, and inwards (uncovering it). */
  const against = (k: number) => {
    let total = 0;
    let uncover = 0;
    for (let n = 0; n < path.frames; n += 5) {
      const progress = progressAt(path, n);
      const [nx, ny, nw, nh] = motion.window(progress);
      const [fx, fy, fw, fh] = motion.window(k * progress);
      for (const [u, v] of points) {
        const dx = (u - nx!) / nw! - (u - fx!) / fw!;
        const dy = (v - ny!) / nh! - (v - fy!) / fh!;
        const out = Math.hypot(u - cx, v - cy) || 1;
        total = Math.max(total, Math.hypot(dx, dy));
        uncover = Math.max(uncover, -(dx * (u - cx) + dy * (v - cy)) / out);
      }
    }
    return { total, uncover };
  };
  /** The lowest factor from `lowest` for which `fits` holds (it holds at 1, where nothing moves apart). */
  const lowestWithin = (lowest: number, fits: (k: number) => boolean) => {
    if (fits(lowest)) return lowest;
    let lo = lowest;
    let hi = 1;
    for (let step = 0; step < 20; step++) {
      const mid = (lo + hi) / 2;
      if (fits(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  };
  const far = lowestWithin(MIN_FACTOR, (k) => {
    const { total, uncover } = against(k);
    return uncover <= budget && total <= TOTAL * budget;
  });
  const tilt = cues.groundRatio > 1.25 ? 0.5 : 0.25;
  const middle = far + tilt * (1 - far);
  const edge = Math.max(middle, 1 - 0.4 * (1 - far));
  return { subjectEdge: lowestWithin(edge, (k) => against(k).total <= RELIEF * halfWidth), backgroundTop: far, backgroundBottom: middle };
}
