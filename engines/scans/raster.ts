// Pixels for the scan splitter: the detection copy (decoded small by sharp, which shrinks a JPEG while it decodes
// it), smoothed colour planes, and binary masks (1 = set, row-major) grown, shrunk and filled.
import sharp from 'sharp';
import { MAX_INPUT_PIXELS, openImage } from '../image';
import { boxMean } from '../shared';

/** An image as interleaved 8-bit RGB. */
export type Rgb = { data: Uint8Array; width: number; height: number };

/** The scan's size as it is shown (EXIF orientation applied): the pixels the corners are given in. */
export async function scanSize(bytes: Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  if (!meta.width || !meta.height) throw new Error('not an image');
  const turned = (meta.orientation ?? 1) >= 5;
  return turned ? { width: meta.height, height: meta.width } : { width: meta.width, height: meta.height };
}

/** The scan as RGB, upright, with its long side at most `longSide` (never enlarged). */
export async function decodeRgb(bytes: Buffer, longSide: number): Promise<Rgb> {
  // openImage: the engine's pixel limit (a decompression bomb is refused before decoding) and EXIF orientation.
  const { data, info } = await openImage(bytes)
    .resize(longSide, longSide, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
}

/** The three colour planes of `img`, each smoothed by a 3 × 3 mean (scanner noise and JPEG blocks down by a factor
 * of 3; at the borders, the mean of the part of the window inside). */
export function smoothPlanes(img: Rgb): [Float32Array, Float32Array, Float32Array] {
  const { width: w, height: h, data } = img;
  const n = w * h;
  const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)] as const;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    planes[0][i] = data[o]!;
    planes[1][i] = data[o + 1]!;
    planes[2][i] = data[o + 2]!;
  }
  return [boxMean(planes[0], w, h, 1), boxMean(planes[1], w, h, 1), boxMean(planes[2], w, h, 1)];
}

/**
 * A binary mask's running count over (2r+1)² windows, clipped at the borders, compared with `need`: `all`
 * keeps a pixel whose whole window (inside the image) is set — erosion; otherwise any set pixel — dilation.
 */
function windowed(mask: Uint8Array, w: number, h: number, r: number, all: boolean): Uint8Array {
  const rows = new Uint16Array(w * h);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    let s = 0;
    for (let x = 0; x <= Math.min(r, w - 1); x++) s += mask[o + x]!;
    for (let x = 0; x < w; x++) {
      rows[o + x] = s;
      if (x + r + 1 < w) s += mask[o + x + r + 1]!;
      if (x - r >= 0) s -= mask[o + x - r]!;
    }
  }
  const out = new Uint8Array(w * h);
  const col = new Uint32Array(w);
  for (let y = 0; y <= Math.min(r, h - 1); y++) for (let x = 0; x < w; x++) col[x] += rows[y * w + x]!;
  for (let y = 0; y < h; y++) {
    const spanY = Math.min(y + r, h - 1) - Math.max(y - r, 0) + 1;
    for (let x = 0; x < w; x++) {
      const spanX = Math.min(x + r, w - 1) - Math.max(x - r, 0) + 1;
      out[y * w + x] = all ? (col[x] === spanX * spanY ? 1 : 0) : col[x]! > 0 ? 1 : 0;
    }
    if (y + r + 1 < h) for (let x = 0, o = (y + r + 1) * w; x < w; x++) col[x] += rows[o + x]!;
    if (y - r >= 0) for (let x = 0, o = (y - r) * w; x < w; x++) col[x] -= rows[o + x]!;
  }
  return out;
}

/** Sets every pixel within a (2r+1)² square of a set one. */
export const dilate = (mask: Uint8Array, w: number, h: number, r: number) => windowed(mask, w, h, r, false);

/** Keeps the pixels whose whole (2r+1)² square is set (the image's border counts as set: prints cut by it stay). */
export const erode = (mask: Uint8Array, w: number, h: number, r: number) => windowed(mask, w, h, r, true);

/** Removes specks and hairs thinner than 2r + 1 pixels. */
export const open = (mask: Uint8Array, w: number, h: number, r: number) => dilate(erode(mask, w, h, r), w, h, r);

/** Sets every pixel not reachable from the image's border through unset pixels (4-connected): fills holes. */
export function fillHoles(mask: Uint8Array, w: number, h: number): Uint8Array {
  const out = new Uint8Array(mask.length).fill(1);
  const queue = new Int32Array(mask.length);
  let head = 0, tail = 0;
  const push = (i: number) => {
    if (mask[i] || !out[i]) return;
    out[i] = 0;
    queue[tail++] = i;
  };
  for (let x = 0; x < w; x++) { push(x); push((h - 1) * w + x); }
  for (let y = 0; y < h; y++) { push(y * w); push(y * w + w - 1); }
  while (head < tail) {
    const i = queue[head++]!;
    const x = i % w;
    if (x > 0) push(i - 1);
    if (x < w - 1) push(i + 1);
    if (i >= w) push(i - w);
    if (i < mask.length - w) push(i + w);
  }
  return out;
}

/** The pixels of a region (indices into a w-wide plane) that have a 4-neighbour outside it, as [x0, y0, x1, y1, …]
 * at pixel centres. */
export function outline(pixels: Int32Array, member: Uint8Array, w: number, h: number): Float64Array {
  const xy: number[] = [];
  for (const i of pixels) {
    const x = i % w, y = (i - x) / w;
    if (x === 0 || y === 0 || x === w - 1 || y === h - 1 || !member[i - 1] || !member[i + 1] || !member[i - w] || !member[i + w]) {
      xy.push(x + 0.5, y + 0.5);
    }
  }
  return Float64Array.from(xy);
}
