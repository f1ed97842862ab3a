import sharp, { type Sharp } from 'sharp';

/**
 * The most salient point of an image, normalised to 0..1. Uses libvips' attention strategy
 * (luminance edges, saturation and skin tones) on a small copy, which reports its focal point
 * as attentionX/attentionY; the crop it makes is thrown away.
 */
export async function salientPoint(image: Sharp): Promise<{ x: number; y: number }> {
  const small = await image
    .clone()
    .resize(256, 256, { fit: 'inside' })
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width, height, channels } = small.info;
  // The crop must change the aspect ratio or libvips skips the search; it still reports the
  // focal point in both axes.
  const probe = await sharp(small.data, { raw: { width, height, channels } })
    .resize(Math.max(1, Math.round(width / 3)), height, {
      fit: 'cover',
      position: 'attention',
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const info = probe.info;
  if (info.attentionX === undefined || info.attentionY === undefined) return { x: 0.5, y: 0.5 };
  return { x: (info.attentionX + 0.5) / width, y: (info.attentionY + 0.5) / height };
}
