import sharp from 'sharp';
import { applyWatermark } from '../media/watermark';

export const PREVIEW_MAX_SIDE = 1600;

/** Watermarked preview of a clean result: at most 1600 px on the long side, metadata stripped. */
export async function makePreview(clean: Buffer, brand: string): Promise<Buffer> {
  const bounded = await sharp(clean)
    .rotate()
    .resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 92 })
    .toBuffer();
  return applyWatermark(bounded, brand);
}
