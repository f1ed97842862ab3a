// Header-only check of the uploaded bytes, run before anything decodes them. The format sniffing and
// header parsing are the image engine's (engines/image/inspect.ts); the video tool allows only
// JPEG and PNG, and needs a minimum size for its camera moves.

import { MSG } from '../../src/lib/messages';
import { headerDimensions, MAX_INPUT_BYTES, MAX_INPUT_PIXELS, sniffFormat, wrongTypeMessage } from '../image';

export { MAX_INPUT_BYTES, MAX_INPUT_PIXELS };
export const MIN_INPUT_SIDE = 16;

/** 'Please upload a valid image file (JPEG, PNG)' */
export const INVALID_IMAGE_MESSAGE = wrongTypeMessage(['jpeg', 'png']);

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

/** Reads format and dimensions from the header only; null when the bytes are not a readable JPEG or PNG. */
export function readImageHeader(buf: Buffer): ImageHeader | null {
  const format = sniffFormat(buf);
  if (format !== 'jpeg' && format !== 'png') return null;
  const dims = headerDimensions(buf, format);
  return dims && { format, width: dims.width, height: dims.height };
}

/** Throws VideoInputError unless `buf` is a JPEG/PNG within the byte and pixel limits. */
export function checkVideoInput(buf: Buffer): ImageHeader {
  if (buf.length > MAX_INPUT_BYTES) throw new VideoInputError(MSG.uploadTooLarge, 413);
  const header = readImageHeader(buf);
  if (!header) throw new VideoInputError(INVALID_IMAGE_MESSAGE);
  if (header.width * header.height > MAX_INPUT_PIXELS) {
    throw new VideoInputError('Image must be 40 megapixels or smaller', 413);
  }
  if (Math.min(header.width, header.height) < MIN_INPUT_SIDE) {
    throw new VideoInputError(`Image must be at least ${MIN_INPUT_SIDE} pixels on each side`);
  }
  return header;
}
