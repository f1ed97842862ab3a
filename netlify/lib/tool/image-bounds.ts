import sharp from 'sharp';
import { HttpError } from '../http';
import { headerDimensions, inspectImage, sniffFormat, type ImageFormat, type InspectedImage } from '../../../engines/image';
import { MSG } from '../../../src/lib/messages';

/**
 * An upload checked against what its endpoint needs before anything decodes it: the long side the header declares
 * must be at most `maxSide` (413 above it, with the side to send), then the usual inspection (type by content,
 * every byte of the image present, a header libvips reads; nothing decoded; the engine's errors as they are, for
 * `toHttpError`). A 129 KB PNG declaring 6324 × 6324 px
 * is 40 MP — what the restoration accepts — but far more than a reduced copy the page sends for a step that reads
 * a few hundred pixels; decoding it would cost about a second of CPU and 400 MB.
 */
export async function inspectWithin(bytes: Buffer, allowed: readonly ImageFormat[], maxSide: number): Promise<InspectedImage> {
  const format = sniffFormat(bytes);
  const declared = format && allowed.includes(format) ? headerDimensions(bytes, format) : null;
  if (declared && Math.max(declared.width, declared.height) > maxSide) throw new HttpError(413, MSG.photoTooLargeFor(maxSide));
  return inspectImage(bytes, allowed);
}

/** Upright sRGB pixels (alpha flattened on white) of at most `side` on the long side. */
export type Pixels = { data: Buffer; width: number; height: number; channels: 3 };

/**
 * The one decode of a checked upload: upright, reduced to at most `side` on its long side while it is read (JPEG's
 * shrink-on-load), transparency on white. libvips refuses more than `maxPixels` from the header as well.
 */
export async function decodeReduced(bytes: Buffer, side: number, maxPixels: number): Promise<Pixels> {
  const { data, info } = await sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error' })
    .rotate()
    .resize(side, side, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
