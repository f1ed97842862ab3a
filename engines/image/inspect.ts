import sharp, { type Metadata, type Sharp } from 'sharp';
import { MAX_UPLOAD_BYTES as MAX_INPUT_BYTES } from '../../src/lib/tool/constants';
import { MSG } from '../../src/lib/messages';
import { ImageInputError } from './errors';

export type ImageFormat = 'jpeg' | 'png' | 'tiff';
/** The one upload size limit (src/lib/tool/constants.ts), under the engine's name. */
export { MAX_INPUT_BYTES };
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

type JpegSegment = { marker: number; offset: number };

/** The marker segments of a JPEG up to its first scan (SOS, included) or its end; skips padding and stray bytes. */
function* jpegSegments(bytes: Uint8Array, dv: DataView): Generator<JpegSegment> {
  let p = 2;
  while (p + 4 <= bytes.length) {
    if (bytes[p] !== 0xff) {
      p++;
      continue;
    }
    const marker = bytes[p + 1];
    if (marker === 0xff) {
      p++;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    }
    yield { marker, offset: p };
    const len = dv.getUint16(p + 2);
    if (marker === 0xda || marker === 0xd9 || len < 2) return;
    p += 2 + len;
  }
}

/** TIFF tags of the first IFD (values of SHORT and LONG entries, inline or at their offset). */
function tiffTags(bytes: Uint8Array, dv: DataView): Map<number, number[]> | null {
  if (bytes.length < 8) return null;
  const le = bytes[0] === 0x49;
  const ifd = dv.getUint32(4, le);
  if (ifd + 2 > bytes.length) return null;
  const tags = new Map<number, number[]>();
  const count = dv.getUint16(ifd, le);
  for (let k = 0; k < count; k++) {
    const e = ifd + 2 + k * 12;
    if (e + 12 > bytes.length) break;
    const tag = dv.getUint16(e, le), type = dv.getUint16(e + 2, le), n = dv.getUint32(e + 4, le);
    const size = type === 3 ? 2 : type === 4 ? 4 : 0;
    if (!size) continue;
    const at = n * size <= 4 ? e + 8 : dv.getUint32(e + 8, le);
    if (at + n * size > bytes.length) return null;
    tags.set(tag, Array.from({ length: n }, (_, i) => (size === 2 ? dv.getUint16(at + 2 * i, le) : dv.getUint32(at + 4 * i, le))));
  }
  return tags;
}

const SOF = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc; // not DHT, JPG, DAC

/**
 * Width and height as declared in the file header, read without decoding anything, so a
 * decompression bomb is refused before libvips allocates for it. Null when the header is unreadable.
 */
export function headerDimensions(bytes: Uint8Array, format: ImageFormat): { width: number; height: number } | null {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let dims: { width: number; height: number } | null = null;
  if (format === 'png') {
    // The first chunk must be IHDR.
    if (bytes.length >= 24 && dv.getUint32(12) === 0x49484452) dims = { width: dv.getUint32(16), height: dv.getUint32(20) };
  } else if (format === 'jpeg') {
    for (const { marker, offset } of jpegSegments(bytes, dv)) {
      if (!SOF(marker)) continue;
      if (offset + 9 <= bytes.length) dims = { height: dv.getUint16(offset + 5), width: dv.getUint16(offset + 7) };
      break;
    }
  } else {
    const tags = tiffTags(bytes, dv);
    dims = tags && { width: tags.get(256)?.[0] ?? 0, height: tags.get(257)?.[0] ?? 0 };
  }
  return dims && dims.width > 0 && dims.height > 0 ? dims : null;
}

/**
 * Whether the file holds all of its image data (an upload cut short passes the header checks and
 * libvips' metadata, then fails half-way through decoding): a JPEG's end-of-image marker after its
 * first scan (entropy-coded data never contains FF D9), a PNG's IEND chunk, a TIFF's strips or tiles
 * within the file.
 */
function complete(bytes: Uint8Array, format: ImageFormat): boolean {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (format === 'png') return buf.indexOf(Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44]), 8) > 0;
  if (format === 'jpeg') {
    const scan = [...jpegSegments(bytes, dv)].find((s) => s.marker === 0xda);
    return !!scan && buf.indexOf(Buffer.from([0xff, 0xd9]), scan.offset + 2) > 0;
  }
  const tags = tiffTags(bytes, dv);
  if (!tags) return false;
  const offsets = tags.get(273) ?? tags.get(324) ?? [];
  const counts = tags.get(279) ?? tags.get(325) ?? [];
  return offsets.length > 0 && offsets.every((o, i) => o + (counts[i] ?? 0) <= bytes.length);
}

const DAMAGED = 'This image file appears to be damaged and could not be read.';

export type InspectedImage = { format: ImageFormat; width: number; height: number };

/**
 * Validates an upload by content: allowed format, ≤ 15 MB, ≤ 40 MP (checked from the header before
 * any decoding), all of its image data present, and a header libvips can read. Width/height are
 * after EXIF orientation.
 */
export async function inspectImage(bytes: Uint8Array, allowed: readonly ImageFormat[]): Promise<InspectedImage> {
  if (!bytes || bytes.length === 0) throw new ImageInputError('The uploaded file is empty.');
  if (bytes.length > MAX_INPUT_BYTES) throw new ImageInputError(MSG.uploadTooLarge, 413);
  const format = sniffFormat(bytes);
  if (!format || !allowed.includes(format)) throw new ImageInputError(wrongTypeMessage(allowed), 415);
  const dims = headerDimensions(bytes, format);
  if (!dims) throw new ImageInputError(DAMAGED);
  if (dims.width * dims.height > MAX_INPUT_PIXELS) {
    throw new ImageInputError('Please upload an image of at most 40 megapixels.', 413);
  }
  if (!complete(bytes, format)) throw new ImageInputError(DAMAGED);
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch {
    throw new ImageInputError(DAMAGED);
  }
  if (!meta.width || !meta.height || meta.format !== (format === 'jpeg' ? 'jpeg' : format)) {
    throw new ImageInputError(DAMAGED);
  }
  if (meta.width * meta.height > MAX_INPUT_PIXELS) throw new ImageInputError('Please upload an image of at most 40 megapixels.', 413);
  const swap = (meta.orientation ?? 1) >= 5;
  return { format, width: swap ? meta.height : meta.width, height: swap ? meta.width : meta.height };
}

/** A sharp pipeline for a validated upload: pixel limit enforced, EXIF orientation applied. */
export function openImage(bytes: Uint8Array): Sharp {
  return sharp(bytes, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' }).rotate();
}
