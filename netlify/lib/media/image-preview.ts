import sharp from 'sharp';
import { WATERMARK } from '../../../src/lib/watermark-spec';
import { applyWatermark } from '../../../engines/shared';

export const PREVIEW_MAX_SIDE = WATERMARK.previewMaxSide;

/**
 * The preview's long side for a clean result whose long side is `long`: PREVIEW_MAX_SIDE at most, and always a
 * share (`WATERMARK.previewShare`, 70 %) of the result, so even a small photo's preview is below what is bought.
 */
export const previewLongSide = (long: number) => Math.max(1, Math.min(PREVIEW_MAX_SIDE, Math.round(long * WATERMARK.previewShare)));

/**
 * The watermarked preview of an item's clean result: smaller than the result (previewLongSide), upright, the
 * watermark burned in with `layout` (the upload's seed, `uploadWatermarkSeed`), metadata stripped.
 */
export async function makePreview(clean: Buffer, layout: number | string): Promise<Buffer> {
  const meta = await sharp(clean).metadata();
  const side = previewLongSide(Math.max(meta.width ?? 1, meta.height ?? 1));
  const bounded = sharp(clean).rotate().resize(side, side, { fit: 'inside', withoutEnlargement: true });
  return applyWatermark(bounded, layout);
}
