// Minimal header-only check of the uploaded bytes, run before anything decodes them.
// (netlify/lib/image has its own `inspectImage`; the two can be merged later.)

export const MAX_INPUT_BYTES = 15 * 1024 * 1024;
export const MAX_INPUT_PIXELS = 40_000_000;
export const MIN_INPUT_SIDE = 16;

export const INVALID_IMAGE_MESSAGE = 'Please upload a valid image file (JPEG, PNG)';

export class VideoInputError extends Error {
  constructor(
    message: string,
    readonly status = 400,
  ) {
    super(message);
    this.name = 'VideoInputError';
  }
}

export type ImageHeader = { format: 'jpeg' | 'png'; width: number; height: number };

const PNG_MAGIC = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function pngHeader(buf: Buffer): ImageHeader | null {
  if (buf.length < 24 || !PNG_MAGIC.every((b, i) => buf[i] === b)) return null;
  if (buf.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { format: 'png', width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

// Start-of-frame markers carry the dimensions; C4 (DHT), C8 (JPG) and CC (DAC) share the range but don't.
const isSof = (m: number) => m >= 0xc0 && m <= 0xcf && m !== 0xc4 && m !== 0xc8 && m !== 0xcc;

function jpegHeader(buf: Buffer): ImageHeader | null {
  if (buf.length < 4 || buf[0] !== 0xff || buf[1] !== 0xd8 || buf[2] !== 0xff) return null;
  let i = 2;
  while (i + 4 <= buf.length) {
    if (buf[i] !== 0xff) return null;
    const marker = buf[i + 1];
    if (marker === 0xff) {
      i++; // fill byte
      continue;
    }
    // Standalone markers have no length field.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8)) {
      i += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // image data before any frame header
    const len = buf.readUInt16BE(i + 2);
    if (len < 2) return null;
    if (isSof(marker)) {
      if (i + 9 > buf.length) return null;
      return { format: 'jpeg', height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    }
    i += 2 + len;
  }
  return null;
}

/** Reads format and dimensions from the header only; null when the bytes are not a JPEG or PNG. */
export function readImageHeader(buf: Buffer): ImageHeader | null {
  return pngHeader(buf) ?? jpegHeader(buf);
}

/** Throws VideoInputError unless `buf` is a JPEG/PNG within the byte and pixel limits. */
export function checkVideoInput(buf: Buffer): ImageHeader {
  if (buf.length > MAX_INPUT_BYTES) throw new VideoInputError('Image must be 15 MB or smaller', 413);
  const header = readImageHeader(buf);
  if (!header || header.width === 0 || header.height === 0) throw new VideoInputError(INVALID_IMAGE_MESSAGE);
  if (header.width * header.height > MAX_INPUT_PIXELS) {
    throw new VideoInputError('Image must be 40 megapixels or smaller', 413);
  }
  if (Math.min(header.width, header.height) < MIN_INPUT_SIDE) {
    throw new VideoInputError(`Image must be at least ${MIN_INPUT_SIDE} pixels on each side`);
  }
  return header;
}
