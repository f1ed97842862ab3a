import sharp, { type Metadata, type Sharp } from 'sharp';
import { ImageInputError } from './errors';

export type ImageFormat = 'jpeg' | 'png' | 'tiff';
export const MAX_INPUT_BYTES = 15 * 1024 * 1024;
export const MAX_INPUT_PIXELS = 40_000_000;

const NAMES: Record<ImageFormat, string> = { jpeg: 'JPEG', png: 'PNG', tiff: 'TIFF' };
export function wrongTypeMessage(allowed: readonly ImageFormat[]): string {
  return `Please upload a valid image file (${allowed.map((f) => NAMES[f]).join(', ')})`;
}

/** The container format from the first bytes; the file name and the claimed MIME type are never trusted. */
export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  if (bytes.length >= 8 && bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47 &&
    bytes[4] === 0x0d && bytes[5] === 0x0a && bytes[6] === 0x1a && bytes[7] === 0x0a) return 'png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 4 && ((bytes[0] === 0x49 && bytes[1] === 0x49 && bytes[2] === 0x2a && bytes[3] === 0x00) ||
    (bytes[0] === 0x4d && bytes[1] === 0x4d && bytes[2] === 0x00 && bytes[3] === 0x2a))) return 'tiff';
  return null;
}

/**
 * Width and height as declared in the file header, read without decoding anything, so a
 * decompression bomb is refused before libvips allocates for it. Null when the header is unreadable.
 */
export function headerDimensions(bytes: Uint8Array, format: ImageFormat): { width: number; height: number } | null {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') {
    if (bytes.length < 24) return null;
    return { width: dv.getUint32(16), height: dv.getUint32(20) };
  }
  if (format === 'jpeg') {
    let p = 2;
    while (p + 4 <= bytes.length) {
      if (bytes[p] !== 0xff) { p++; continue; }
      const marker = bytes[p + 1];
      if (marker === 0xff) { p++; continue; }
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) { p += 2; continue; }
      const len = dv.getUint16(p + 2);
      // SOF0..SOF15, except DHT (C4), JPG (C8) and DAC (CC).
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
        if (p + 9 > bytes.length) return null;
        return { height: dv.getUint16(p + 5), width: dv.getUint16(p + 7) };
      }
      if (marker === 0xda || marker === 0xd9) return null;
      p += 2 + len;
    }
    return null;
  }
  // TIFF: first IFD, tags ImageWidth (256) and ImageLength (257).
  if (bytes.length < 8) return null;
  const le = bytes[0] === 0x49;
  const ifd = dv.getUint32(4, le);
  if (ifd + 2 > bytes.length) return null;
  const count = dv.getUint16(ifd, le);
  let width = 0, height = 0;
  for (let k = 0; k < count; k++) {
    const e = ifd + 2 + k * 12;
    if (e + 12 > bytes.length) break;
    const tag = dv.getUint16(e, le), type = dv.getUint16(e + 2, le);
    const value = type === 3 ? dv.getUint16(e + 8, le) : dv.getUint32(e + 8, le);
    if (tag === 256) width = value;
    if (tag === 257) height = value;
  }
  return width && height ? { width, height } : null;
}

export type InspectedImage = { format: ImageFormat; width: number; height: number };

/**
 * Validates an upload by content: allowed format, ≤ 15 MB, ≤ 40 MP (checked from the header before
 * any decoding), and a header libvips can read. Width/height are after EXIF orientation.
 */
export async function inspectImage(bytes: Uint8Array, allowed: readonly ImageFormat[]): Promise<InspectedImage> {
  if (!bytes || bytes.length === 0) throw new ImageInputError('The uploaded file is empty.');
  if (bytes.length > MAX_INPUT_BYTES) throw new ImageInputError('Please upload an image smaller than 15 MB.', 413);
  const format = sniffFormat(bytes);
  if (!format || !allowed.includes(format)) throw new ImageInputError(wrongTypeMessage(allowed), 415);
  const dims = headerDimensions(bytes, format);
  if (!dims) throw new ImageInputError('This image file appears to be damaged and could not be read.');
  if (dims.width * dims.height > MAX_INPUT_PIXELS) {
    throw new ImageInputError('Please upload an image of at most 40 megapixels.', 413);
  }
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw new ImageInputError('This image file appears to be damaged and could not be read.');
  }
  if (!meta.width || !meta.height || meta.format !== (format === 'jpeg' ? 'jpeg' : format)) {
    throw new ImageInputError('This image file appears to be damaged and could not be read.');
  }
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new ImageInputError('Please upload an image of at most 40 megapixels.', 413);
  const swap = (meta.orientation ?? 1) >= 5;
  return { format, width: swap ? meta.height : meta.width, height: swap ? meta.width : meta.height };
}

/** A sharp pipeline for a validated upload: pixel limit enforced, EXIF orientation applied. */
export function openImage(bytes: Uint8Array): Sharp {
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
}
