import sharp from 'sharp';
import { WATERMARK } from '../../../src/lib/watermark-spec';
import { applyWatermark } from './watermark';

export const PREVIEW_MAX_SIDE = WATERMARK.previewMaxSide;

/**
 * The watermarked preview of an item's clean result: at most PREVIEW_MAX_SIDE on the long side (the full
 * resolution is what a purchase buys), the item's own watermark burned in, metadata stripped.
 */
export async function makePreview(clean: Buffer, itemId: string): Promise<Buffer> {
  const bounded = sharp(clean).rotate().resize(PREVIEW_MAX_SIDE, PREVIEW_MAX_SIDE, { fit: 'inside', withoutEnlargement: true });
  return applyWatermark(bounded, itemId);
}
