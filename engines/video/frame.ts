// Output frame geometry: a short side of 720 or 1080 pixels at the photo's aspect ratio (clamped to 9:16 … 16:9).

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
