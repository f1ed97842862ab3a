import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { projectFile } from './project-files';
import { mulberry32 } from '../../src/lib/random';
import { WATERMARK } from '../../src/lib/watermark-spec';

// The font ships with the project: a function container has no system fonts, and fontconfig's
// fallback would silently render nothing.
export const watermarkFont = () => projectFile('netlify/lib/media/fonts/DejaVuSans-Bold.ttf');

/** Opacity of the burned-in preview watermark's centre line (the shared spec's). */
export const WATERMARK_OPACITY = WATERMARK.opacity;

/** A grey mask (0..255 per pixel) and its size. */
interface Mask {
  data: Uint8Array;
  width: number;
  height: number;
}

function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

const renderedText = new Map<string, Promise<Mask>>();

/** The text's coverage at `size` px, turned by `angle` degrees (rendered once per text, size and angle). */
function textMask(text: string, size: number, angle: number): Promise<Mask> {
  const key = `${size}|${angle.toFixed(1)}|${text}`;
  let mask = renderedText.get(key);
  if (!mask) {
    if (renderedText.size > 200) renderedText.clear();
    mask = sharp({ text: { text: `<span foreground="#ffffff">${escapeMarkup(text)}</span>`, fontfile: watermarkFont(), font: `DejaVu Sans Bold ${size}`, rgba: true, dpi: 72 } })
      .png()
      .toBuffer()
      .then((png) => sharp(png).rotate(angle, { background: { r: 0, g: 0, b: 0, alpha: 0 } }).ensureAlpha().extractChannel(3).raw().toBuffer({ resolveWithObject: true }))
      .then(({ data, info }) => ({ data: new Uint8Array(data), width: info.width, height: info.height }));
    renderedText.set(key, mask);
  }
  return mask;
}

/**
 * The layout of one item's watermark: without a seed the plain one (level labels on a staggered grid and a
 * level centre line, as on videos); with a seed, angle, spacing, grid offset and centre position vary.
 */
function layout(seed: number | undefined) {
  const random = seed === undefined ? null : mulberry32(seed);
  const pick = (low: number, high: number, plain: number) => (random ? low + (high - low) * random() : plain);
  const { jitter } = WATERMARK;
  const side = random && random() < 0.5 ? -1 : 1;
  return {
    tileAngle: side * pick(jitter.tileAngleDeg[0], jitter.tileAngleDeg[1], 0),
    spacing: pick(jitter.spacing[0], jitter.spacing[1], 1),
    offsetX: pick(0, 1, 0),
    offsetY: pick(0, 1, 0),
    stagger: pick(0.3, 0.7, 0.5),
    centreX: pick(-jitter.centreShift, jitter.centreShift, 0),
    centreY: pick(-jitter.centreShift, jitter.centreShift, 0),
    centreAngle: pick(-jitter.centreAngleDeg, jitter.centreAngleDeg, 0),
  };
}

/** Lays `mask` at (left, top) with opacity `opacity` over the coverage so far (the "over" operator), clipped. */
function stamp(cover: Float32Array, width: number, height: number, mask: Mask, left: number, top: number, opacity: number): void {
  for (let y = Math.max(0, -top); y < mask.height && top + y < height; y++) {
    for (let x = Math.max(0, -left); x < mask.width && left + x < width; x++) {
      const m = mask.data[y * mask.width + x]!;
      if (m === 0) continue;
      const i = (top + y) * width + left + x;
      cover[i] = 1 - (1 - cover[i]!) * (1 - (opacity * m) / 255);
    }
  }
}

/**
 * The watermark's opacity at each pixel of a `width`×`height` picture (0..255): the text repeated in small
 * labels over the whole picture plus one large centre line, so a crop of any part still carries the brand.
 */
export async function watermarkCoverage(width: number, height: number, text: string = WATERMARK.text, seed?: number): Promise<Uint8Array> {
  const { centreFont, tileFont, tileGap, rowPitch } = WATERMARK;
  const short = Math.min(width, height);
  const plan = layout(seed);
  const big = Math.max(centreFont.minPx, Math.round(short * centreFont.share));
  const small = Math.max(tileFont.minPx, Math.round(short * tileFont.share));
  const [tile, centre] = await Promise.all([textMask(text, small, plan.tileAngle), textMask(text, big, plan.centreAngle)]);
  const cover = new Float32Array(width * height);
  const stepX = Math.max(1, Math.round((tile.width + small * tileGap) * plan.spacing));
  const stepY = Math.max(1, Math.round((tile.height + small * (rowPitch - 1)) * plan.spacing));
  const startY = Math.round(plan.offsetY * stepY) - stepY;
  for (let top = startY, row = 0; top < height; top += stepY, row++) {
    const shift = Math.round(plan.offsetX * stepX + (row % 2) * plan.stagger * stepX) - stepX;
    for (let left = shift; left < width; left += stepX) {
      stamp(cover, width, height, tile, left, top, WATERMARK.tileOpacity);
    }
  }
  // The centre line fits the picture: a long brand on a narrow picture is scaled down, never cut off.
  const fitted = centre.width > width || centre.height > height ? await scaleMask(centre, Math.min(width / centre.width, height / centre.height)) : centre;
  const left = Math.round((width - fitted.width) / 2 + plan.centreX * width);
  const top = Math.round((height - fitted.height) / 2 + plan.centreY * height);
  stamp(cover, width, height, fitted, Math.max(0, Math.min(width - fitted.width, left)), Math.max(0, Math.min(height - fitted.height, top)), WATERMARK.opacity);
  // A plain loop: Uint8Array.from with a map function costs a tenth of a second on a 1 MP preview.
  const out = new Uint8Array(cover.length);
  for (let i = 0; i < cover.length; i++) out[i] = Math.round(cover[i]! * 255);
  return out;
}

async function scaleMask(mask: Mask, factor: number): Promise<Mask> {
  const width = Math.max(1, Math.floor(mask.width * factor));
  const height = Math.max(1, Math.floor(mask.height * factor));
  const data = await sharp(Buffer.from(mask.data), { raw: { width: mask.width, height: mask.height, channels: 1 } }).resize(width, height, { fit: 'fill' }).raw().toBuffer();
  return { data: new Uint8Array(data), width, height };
}

/**
 * A transparent RGBA PNG of exactly `width`×`height` carrying the watermark in white (videos lay it over
 * every frame). `seed` varies the layout per item; without it the layout is the plain one.
 */
export async function watermarkOverlay(width: number, height: number, text: string = WATERMARK.text, seed?: number): Promise<Buffer> {
  const cover = await watermarkCoverage(width, height, text, seed);
  const rgba = Buffer.alloc(width * height * 4, 255);
  for (let i = 0; i < cover.length; i++) rgba[i * 4 + 3] = cover[i]!;
  return sharp(rgba, { raw: { width, height, channels: 4 } }).png().toBuffer();
}

/**
 * A number from a key and the site's secret: the same key always gets the same layout and grain (so re-rendering
 * it many times and averaging the previews gains nothing), and nobody without the secret can compute it. Videos
 * key it by the item id; images by their upload's content (`uploadWatermarkSeed`).
 */
export function watermarkSeed(key: string): number {
  return createHash('sha256').update(`watermark\n${process.env.APP_SECRET ?? ''}\n${key}`).digest().readUInt32BE(0);
}

/** The perceptual hash's grid: 6 × 6 cells (36 bits), each the mean of an 8 × 8 block of a softened 48 × 48 copy. */
const HASH_GRID = 6;
const HASH_BLOCK = 8;

/**
 * A perceptual hash of a photo: upright, grey, squeezed to 6 × 6 cells, one bit per cell above the median, plus
 * its aspect to a tenth. The same photo uploaded again — the same file, re-encoded, resized, its metadata
 * changed — gives the same hash, so every upload of it shares one layout. The grid is coarse on purpose: two
 * different photos sharing a layout gives nothing away, one photo getting two does.
 */
export async function perceptualHash(image: Buffer): Promise<string> {
  const side = HASH_GRID * HASH_BLOCK;
  // Through one fixed 256 × 256 copy, so the result does not depend on the upload's own size.
  const fixed = await sharp(image).rotate().greyscale().resize(256, 256, { fit: 'fill', kernel: 'cubic' }).raw().toBuffer();
  const { data, info } = await sharp(fixed, { raw: { width: 256, height: 256, channels: 1 } }).resize(side, side, { kernel: 'cubic' }).blur(2).raw().toBuffer({ resolveWithObject: true });
  const meta = await sharp(image).metadata();
  const turned = (meta.orientation ?? 1) >= 5;
  const aspect = turned ? (meta.height ?? 1) / (meta.width ?? 1) : (meta.width ?? 1) / (meta.height ?? 1);
  const cells = new Float64Array(HASH_GRID * HASH_GRID);
  for (let y = 0; y < side; y++) for (let x = 0; x < side; x++) cells[Math.floor(y / HASH_BLOCK) * HASH_GRID + Math.floor(x / HASH_BLOCK)]! += data[(y * side + x) * info.channels]!;
  const sorted = [...cells].sort((a, b) => a - b);
  const median = (sorted[cells.length / 2 - 1]! + sorted[cells.length / 2]!) / 2;
  let bits = 0n;
  for (const v of cells) bits = (bits << 1n) | (v > median ? 1n : 0n);
  return `${bits.toString(16)}:${Math.round(aspect * 10)}`;
}

/**
 * The seed of an image's preview layout, from its upload's content (perceptualHash) with the secret: re-uploading
 * one photo — whose restoration is deterministic — yields previews with one layout, so combining them recovers
 * nothing the first did not show; and every re-render of an upload keeps that layout.
 */
export async function uploadWatermarkSeed(original: Buffer): Promise<number> {
  return watermarkSeed(`upload:${await perceptualHash(original)}`);
}

/**
 * Replaces every pixel the watermark covers by the mean of its `cell`-pixel square plus grain, in place:
 * what lies under the letters is gone, not just covered, so undoing the overlay gives back this copy.
 */
function destroyUnder(pixels: Buffer, width: number, height: number, channels: number, cover: Uint8Array, seed: number): void {
  const { cellShare, minCellPx, grain } = WATERMARK.destroy;
  const cell = Math.max(minCellPx, Math.round(Math.min(width, height) * cellShare));
  const random = mulberry32(seed ^ 0x5bd1e995);
  const cols = Math.ceil(width / cell);
  const rows = Math.ceil(height / cell);
  const sums = new Float64Array(cols * rows * channels);
  const counts = new Uint32Array(cols * rows);
  // Each column's cell, looked up rather than divided for every pixel.
  const column = new Int32Array(width);
  for (let x = 0; x < width; x++) column[x] = Math.floor(x / cell);
  for (let y = 0; y < height; y++) {
    const cellRow = Math.floor(y / cell) * cols;
    for (let x = 0, p = y * width * channels; x < width; x++, p += channels) {
      const c = cellRow + column[x]!;
      counts[c]!++;
      for (let k = 0; k < channels; k++) sums[c * channels + k]! += pixels[p + k]!;
    }
  }
  for (let y = 0, p = 0; y < height; y++) {
    const cellRow = Math.floor(y / cell) * cols;
    for (let x = 0; x < width; x++, p++) {
      // The grain is drawn for every pixel, covered or not, so each pixel's grain depends only on the seed.
      const noise = (random() * 2 - 1) * grain;
      if (cover[p] === 0) continue;
      const c = cellRow + column[x]!;
      for (let k = 0; k < channels; k++) {
        pixels[p * channels + k] = Math.max(0, Math.min(255, Math.round(sums[c * channels + k]! / counts[c]! + noise)));
      }
    }
  }
}

/**
 * How a preview is encoded: mozjpeg's quantisation tables (table 3) and progressive scans, without its trellis
 * quantisation and scan search. Every heal re-render makes a preview, and on a 1 MP photo those two took 70–110 ms
 * of the encode's 85–130 ms; the file is 1–16 % larger on the fixtures' originals, at 0.4–1.2 dB higher PSNR.
 */
const PREVIEW_JPEG = { progressive: true, quantisationTable: 3 } as const;

/**
 * Burns a watermark into an image (encoded bytes, whose orientation is applied, or a sharp pipeline taken as it
 * is) and returns a JPEG without metadata. `layout` is the seed (`uploadWatermarkSeed`), or a key for watermarkSeed;
 * the pixels under the letters are destroyed first (destroyUnder), then the white letters go on.
 */
export async function applyWatermark(input: Buffer | Sharp, layout: number | string, opts: { text?: string; quality?: number } = {}): Promise<Buffer> {
  // A pipeline (a resize, say) is read straight to pixels: no encoded image in between.
  const image = Buffer.isBuffer(input) ? sharp(input).rotate() : input;
  const { data, info } = await image.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const { width, height, channels } = info;
  const seed = typeof layout === 'number' ? layout : watermarkSeed(layout);
  const cover = await watermarkCoverage(width, height, opts.text ?? WATERMARK.text, seed);
  destroyUnder(data, width, height, channels, cover, seed);
  for (let p = 0; p < cover.length; p++) {
    const a = cover[p]! / 255;
    if (a === 0) continue;
    for (let k = 0; k < channels; k++) data[p * channels + k] = Math.round(data[p * channels + k]! * (1 - a) + 255 * a);
  }
  return sharp(data, { raw: { width, height, channels } }).jpeg({ ...PREVIEW_JPEG, quality: opts.quality ?? 82 }).toBuffer();
}
