// Output frame geometry: a short side of 720 or 1080 pixels at the photo's aspect ratio (clamped to 9:16 … 16:9),
// and boxes found on the photo moved into the frame.

import type { DetectedSubject } from '../../../src/lib/tool/video-schema';
import type { Box, Subject } from '../vision';
import { COCO_LABELS } from '../vision/labels';

export const OUTPUT_SHORT_SIDE = 720;
export const MAX_ASPECT = 16 / 9;
export const MIN_ASPECT = 9 / 16;

const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);

/**
 * At 720p, landscape photos get height 720 (16:9 → 1280×720, 4:3 → 960×720); portrait photos get width 720
 * (9:16 → 720×1280, 3:4 → 720×960); square → 720×720. Wider or taller photos are cropped to the limit.
 */
export function outputSize(
  srcWidth: number,
  srcHeight: number,
  shortSide = OUTPUT_SHORT_SIDE,
): { width: number; height: number; aspect: number } {
  const aspect = Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, srcWidth / srcHeight));
  return aspect >= 1
    ? { width: even(shortSide * aspect), height: shortSide, aspect }
    : { width: shortSide, height: even(shortSide / aspect), aspect };
}

/** The same frame scaled to a smaller short side (the preview's), even for 4:2:0. */
export function scaledSize(width: number, height: number, shortSide: number): { width: number; height: number } {
  const scale = Math.min(1, shortSide / Math.min(width, height));
  return { width: even(width * scale), height: even(height * scale) };
}

/**
 * The largest region of the photo with the output aspect (the "base frame" every camera rect is
 * relative to), centred on `focus` (normalised) when the photo has to be cropped.
 */
export function baseRegion(
  srcWidth: number,
  srcHeight: number,
  aspect: number,
  focus: { x: number; y: number } = { x: 0.5, y: 0.5 },
): { left: number; top: number; width: number; height: number } {
  const width = Math.min(srcWidth, Math.round(srcHeight * aspect));
  const height = Math.min(srcHeight, Math.round(srcWidth / aspect));
  const left = Math.round(Math.min(srcWidth - width, Math.max(0, focus.x * srcWidth - width / 2)));
  const top = Math.round(Math.min(srcHeight - height, Math.max(0, focus.y * srcHeight - height / 2)));
  return { left, top, width, height };
}

/**
 * Boxes found on the whole photo (shares of its width and height) in the pixels of a `width` × `height` image of
 * the part the frame shows (`shown`, shares of the photo): clipped to the frame, and left out when less than half
 * of a box is in it or its label is not one of the detector's classes.
 */
export function subjectsInFrame(subjects: readonly DetectedSubject[], shown: Box, width: number, height: number): Subject[] {
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
