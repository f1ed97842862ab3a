import sharp from 'sharp';
import { openImage } from './inspect';
import { rgbBufferToLab, percentiles } from '../shared';
import { detectTone } from './restore/tone';
import type { Tone } from '../../src/lib/tool/image-schema';

// Whether a photo looks old, from the statistics of a small copy: grey or sepia (the tone the restoration reads),
// or a colour print faded to a narrow range of lightness. It sets the video tool's "Restore & colorize first"
// default; the buyer can change it either way. The damage detector is not asked: on a small copy it also finds the
// fine detail of clean photos (0.2–7.8 % of the pixels of the fixtures' clean originals against 0.4–3.5 % of
// their damaged copies), so a colour photo with dust and no fade is left for the buyer to tick.

/** L* spread (2nd to 98th percentile) below which a colour photo counts as faded. */
export const FADED_SPREAD = 45;

export type PhotoAge = { tone: Tone; lightnessSpread: number; old: boolean; why: 'greyscale' | 'sepia' | 'faded' | 'colour' };

/** Long side of the copy the statistics are read from. */
const AGE_SIDE = 128;

export async function photoAge(bytes: Buffer): Promise<PhotoAge> {
  const { data, info } = await openImage(bytes).resize(AGE_SIDE, AGE_SIDE, { fit: 'inside' }).flatten({ background: '#ffffff' }).toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return ageOf(data, info.width, info.height, info.channels);
}

/**
 * photoAge of a photo already decoded (upright sRGB pixels without alpha, any size), so a caller that decodes it
 * for something else too (the video tab's defaults: the vision models) decodes it once.
 */
export async function photoAgeOfPixels(image: { data: Uint8Array; width: number; height: number; channels: number }): Promise<PhotoAge> {
  const { data, info } = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels as 1 | 2 | 3 | 4 } })
    .resize(AGE_SIDE, AGE_SIDE, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return ageOf(data, info.width, info.height, info.channels);
}

function ageOf(data: Buffer, width: number, height: number, channels: number): PhotoAge {
  const lab = rgbBufferToLab(data, width, height, channels);
  const tone = detectTone(lab.a, lab.b);
  const [lo, hi] = percentiles(lab.L, [0.02, 0.98]);
  const lightnessSpread = Math.round((hi! - lo!) * 10) / 10;
  const why = tone === 'grey' ? 'greyscale' : tone === 'sepia' ? 'sepia' : lightnessSpread < FADED_SPREAD ? 'faded' : 'colour';
  return { tone, lightnessSpread, old: why !== 'colour', why };
}
