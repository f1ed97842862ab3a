// Output frame geometry: 720p at the photo's aspect ratio (clamped to 9:16 … 16:9).

export const OUTPUT_SHORT_SIDE = 720;
export const MAX_ASPECT = 16 / 9;
export const MIN_ASPECT = 9 / 16;

const even = (v: number) => Math.max(2, Math.round(v / 2) * 2);

/**
 * Landscape photos get height 720 (16:9 → 1280×720, 4:3 → 960×720); portrait photos get width 720
 * (9:16 → 720×1280, 3:4 → 720×960); square → 720×720. Wider or taller photos are cropped to the limit.
 */
export function outputSize(srcWidth: number, srcHeight: number): { width: number; height: number; aspect: number } {
  const aspect = Math.min(MAX_ASPECT, Math.max(MIN_ASPECT, srcWidth / srcHeight));
  return aspect >= 1
    ? { width: even(OUTPUT_SHORT_SIDE * aspect), height: OUTPUT_SHORT_SIDE, aspect }
    : { width: OUTPUT_SHORT_SIDE, height: even(OUTPUT_SHORT_SIDE / aspect), aspect };
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
