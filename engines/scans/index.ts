// The scan splitter's public face: a flatbed scan of several prints in, each print out straightened and cropped —
// or the scan kept whole with the reason, when a split would be a guess. See README.md.
import { ImageInputError, MAX_INPUT_PIXELS } from '../image';
import { bedModel, trimGlassEdge } from './bed';
import { toJpeg, uprightPrint } from './cut';
import { detectPrints } from './detect';
import { foldAngle, rectCorners, type Box, type Point, type Quad, type RotatedRect } from './geometry';
import { decodeRgb, scanSize, smoothPlanes } from './raster';
import { KEPT_WHOLE, type KeptWholeCode } from './reasons';
import { SPLIT } from './thresholds';

export { KEPT_WHOLE, SPLIT };
export type { Box, KeptWholeCode, Point, Quad };

/** Where one print lies on the scan, and the size it is cut at. */
export type PrintPlacement = {
  /** The print's corners in the scan's pixels — top left, top right, bottom right, bottom left of the upright
   * print; (0, 0) is the top left corner of the scan's top left pixel. */
  corners: Quad;
  /** How far the print is turned on the scan, in degrees, clockwise; the cut turns it back. −45 < angle ≤ 45. */
  angle: number;
  /** The corners' bounding box in the scan's pixels (whole pixels, inside the scan). */
  box: Box;
  /** The cut print's size in pixels. */
  width: number;
  height: number;
};

export type KeptWhole = {
  code: KeptWholeCode;
  /** One plain sentence for the buyer. */
  reason: string;
  /** Where the doubt is, in the scan's pixels (the touching prints, the cut print), when it is one place. */
  at?: Box;
};

/** A scan's layout: the prints to cut, or none and why the scan is kept whole. */
export type ScanLayout = {
  /** The scan's size as shown (EXIF orientation applied). */
  width: number;
  height: number;
  prints: PrintPlacement[];
  keptWhole?: KeptWhole;
};

export type SplitPrint = PrintPlacement & { jpeg: Buffer };
export type SplitResult = Omit<ScanLayout, 'prints'> & { prints: SplitPrint[]; timings: { findMs: number; cutMs: number } };

/**
 * Finds the prints on a scan without cutting them: cheap (the scan is decoded small, about 0.1–0.3 s), for
 * showing the split before anything is spent. Throws ImageInputError when the bytes are not a readable image.
 */
export async function findPrints(bytes: Buffer): Promise<ScanLayout> {
  const size = await readable(() => scanSize(bytes));
  const small = await readable(() => decodeRgb(bytes, SPLIT.detectSide));
  const found = detectPrints(small);
  const sx = size.width / small.width, sy = size.height / small.height;
  const toScan = (b: Box): Box => clampBox({ left: b.left * sx, top: b.top * sy, width: b.width * sx, height: b.height * sy }, size);
  if (found.keptWhole) {
    const { code, at } = found.keptWhole;
    return { ...size, prints: [], keptWhole: { code, reason: KEPT_WHOLE[code], ...(at && { at: toScan(at) }) } };
  }
  const prints = found.prints.map((r) => {
    // Trimmed by SPLIT.inset on each side, then taken to the scan's pixels (the two copies' scales may differ by
    // a rounding in x and y; the corners are scaled exactly, the angle read back from them).
    const inset: RotatedRect = { ...r, width: r.width - 2 * SPLIT.inset, height: r.height - 2 * SPLIT.inset };
    const corners = rectCorners(inset).map(([x, y]) => [x * sx, y * sy] as Point) as unknown as Quad;
    return placement(corners, size);
  });
  return { ...size, prints };
}

/** Cuts the prints of `layout` (from findPrints on the same bytes) out of the full-resolution scan. */
export async function cutPrints(bytes: Buffer, layout: ScanLayout, opts: { quality?: number } = {}): Promise<SplitPrint[]> {
  if (!layout.prints.length) return [];
  const scan = await readable(() => decodeRgb(bytes, Math.max(layout.width, layout.height)));
  const out: SplitPrint[] = [];
  for (const p of layout.prints) {
    const print = uprightPrint(scan, rectOf(p.corners), p.width, p.height);
    out.push({ ...p, jpeg: await toJpeg(print, opts.quality ?? SPLIT.jpegQuality) });
  }
  return out;
}

/** Finds the prints and cuts them: each a straightened JPEG, or none and the reason the scan is kept whole. */
export async function splitScan(bytes: Buffer, opts: { quality?: number } = {}): Promise<SplitResult> {
  const t0 = performance.now();
  const layout = await findPrints(bytes);
  const t1 = performance.now();
  const prints = await cutPrints(bytes, layout, opts);
  return { ...layout, prints, timings: { findMs: Math.round(t1 - t0), cutMs: Math.round(performance.now() - t1) } };
}

/**
 * A cheap first look (the picture decoded at 400 px, a few milliseconds after the decode): whether it has a plain
 * bed around its edges, as a scan of prints does and a photo seldom does. False: keep it whole without looking
 * further; true: findPrints decides (a photo with plain edges gets there, and is kept whole by it).
 */
export async function looksLikeScan(bytes: Buffer): Promise<boolean> {
  const small = await readable(() => decodeRgb(bytes, 400));
  const planes = smoothPlanes(small);
  const bed = bedModel(planes, small.width, small.height, trimGlassEdge(planes, small.width, small.height));
  return 'dist' in bed && bed.tail <= SPLIT.patternTail;
}

/** A placement from its corners: the angle of its top side, its box, its size. */
function placement(corners: Quad, size: { width: number; height: number }): PrintPlacement {
  const r = rectOf(corners);
  const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
  const left = Math.floor(Math.min(...xs)), top = Math.floor(Math.min(...ys));
  const box = clampBox({ left, top, width: Math.ceil(Math.max(...xs)) - left, height: Math.ceil(Math.max(...ys)) - top }, size);
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    corners: corners.map(([x, y]) => [round(x), round(y)]) as unknown as Quad,
    angle: round(r.angle),
    box,
    width: Math.max(1, Math.round(r.width)),
    height: Math.max(1, Math.round(r.height)),
  };
}

/** The rectangle through four corners (top left, top right, bottom right, bottom left). */
export function rectOf(q: Quad): RotatedRect {
  const [tl, tr, br, bl] = q;
  const cx = (tl[0] + tr[0] + br[0] + bl[0]) / 4, cy = (tl[1] + tr[1] + br[1] + bl[1]) / 4;
  // Top and bottom sides averaged for the direction; the sides' mean lengths for the size.
  const dx = tr[0] - tl[0] + br[0] - bl[0], dy = tr[1] - tl[1] + br[1] - bl[1];
  const width = (Math.hypot(tr[0] - tl[0], tr[1] - tl[1]) + Math.hypot(br[0] - bl[0], br[1] - bl[1])) / 2;
  const height = (Math.hypot(bl[0] - tl[0], bl[1] - tl[1]) + Math.hypot(br[0] - tr[0], br[1] - tr[1])) / 2;
  return { cx, cy, width, height, angle: foldAngle((Math.atan2(dy, dx) * 180) / Math.PI) };
}

function clampBox(b: Box, size: { width: number; height: number }): Box {
  const left = Math.max(0, Math.floor(b.left)), top = Math.max(0, Math.floor(b.top));
  const right = Math.min(size.width, Math.ceil(b.left + b.width)), bottom = Math.min(size.height, Math.ceil(b.top + b.height));
  return { left, top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) };
}

/** Runs a decode; a file libvips cannot read, or one over the engine's pixel limit, is the buyer's to fix. */
async function readable<T>(decode: () => Promise<T>): Promise<T> {
  try {
    return await decode();
  } catch (err) {
    if (err instanceof Error && /pixel limit/i.test(err.message)) throw new ImageInputError(`Please upload a scan of at most ${MAX_INPUT_PIXELS / 1e6} megapixels.`, 413);
    throw new ImageInputError('This image file appears to be damaged and could not be read.');
  }
}
export { angleGap, convexHull, minAreaRect, quadIoU, rectCorners } from './geometry';
export type { RotatedRect } from './geometry';
export { decodeRgb, fillHoles, open, outline, scanSize } from './raster';
