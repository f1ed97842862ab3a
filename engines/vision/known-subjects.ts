// The object detector's boxes found once on a photo and reused where the detector does not run: the video tab's
// defaults find them (their function ships the detector), the tab sends them with the job, and the video job's
// layers and its restore-first colouring take them as the detector's answer. They travel as shares of the upright
// photo's width and height, so any copy of the photo, or part of it, can place them.

import { COCO_LABELS } from './labels';
import type { Box, Subject } from './types';

/** The whole photo, in shares of itself. */
const WHOLE: Box = { x: 0, y: 0, width: 1, height: 1 };

/** Boxes found on a `width` × `height` image, as shares of it (rounded to a ten-thousandth, inside the image). */
export function asShares(subjects: readonly Subject[], width: number, height: number): Subject[] {
  const share = (v: number, size: number) => Math.min(1, Math.max(0, Math.round((v / size) * 10_000) / 10_000));
  return subjects.map(({ label, score, box }) => {
    const [x, y] = [share(box.x, width), share(box.y, height)];
    return { label, score, box: { x, y, width: Math.min(1 - x, share(box.width, width)), height: Math.min(1 - y, share(box.height, height)) } };
  });
}

/**
 * Boxes found on the whole photo (shares) in the pixels of a `width` × `height` image of the part `shown` (shares
 * of the photo; the whole by default): clipped to it, and left out when less than half of a box is in it or its
 * label is not one of the detector's classes.
 */
export function fromShares(subjects: readonly Subject[], width: number, height: number, shown: Box = WHOLE): Subject[] {
  const known = new Set<string>(COCO_LABELS);
  return subjects.flatMap(({ label, score, box }) => {
    const x0 = Math.max(box.x, shown.x);
    const y0 = Math.max(box.y, shown.y);
    const x1 = Math.min(box.x + box.width, shown.x + shown.width);
    const y1 = Math.min(box.y + box.height, shown.y + shown.height);
    if (!known.has(label) || x1 <= x0 || y1 <= y0 || (x1 - x0) * (y1 - y0) < 0.5 * box.width * box.height) return [];
    const px = (v: number) => ((v - shown.x) / shown.width) * width;
    const py = (v: number) => ((v - shown.y) / shown.height) * height;
    return [{ label, score, box: { x: px(x0), y: py(y0), width: px(x1) - px(x0), height: py(y1) - py(y0) } }];
  });
}
