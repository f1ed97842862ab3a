import sharp, { type OverlayOptions } from 'sharp';
import { projectFile } from '../project-files';

// The font ships with the project: a function container has no system fonts, and fontconfig's
// fallback would silently render nothing.
export const watermarkFont = () => projectFile('netlify/lib/media/fonts/DejaVuSans-Bold.ttf');

/** Opacity of the burned-in preview watermark (60 %). */
export const WATERMARK_OPACITY = 0.6;

function escapeMarkup(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * A transparent RGBA PNG of exactly `width`×`height` carrying `text` in a diagonal repeating
 * pattern plus one large centred line, so a crop of any part of a preview still carries the brand.
 */
export async function watermarkOverlay(
  width: number,
  height: number,
  text: string,
  opacity = WATERMARK_OPACITY,
): Promise<Buffer> {
  const short = Math.min(width, height);
  const big = Math.max(12, Math.round(short / 9));
  const small = Math.max(10, Math.round(short / 22));
  const label = escapeMarkup(text);

  const render = (size: number, alpha: number) =>
    sharp({
      text: {
        text: `<span foreground="#ffffff${alpha.toString(16).padStart(2, '0')}">${label}</span>`,
        fontfile: watermarkFont(),
        font: `DejaVu Sans Bold ${size}`,
        rgba: true,
        dpi: 72,
      },
    })
      .png()
      .toBuffer({ resolveWithObject: true });

  // The centre line carries the full opacity; the repeating tiles half of it, so the preview stays readable.
  const [centre, tile] = await Promise.all([
    render(big, Math.round(opacity * 255)),
    render(small, Math.round(opacity * 0.5 * 255)),
  ]);
  const composites: OverlayOptions[] = [];
  // Repeating small labels on a staggered grid.
  const stepX = Math.max(tile.info.width + small * 4, 1);
  const stepY = Math.max(tile.info.height * 5, 1);
  for (let y = 0, row = 0; y < height; y += stepY, row++) {
    for (let x = row % 2 ? -Math.round(stepX / 2) : 0; x < width; x += stepX) {
      if (x < 0 || x + tile.info.width > width || y + tile.info.height > height) continue;
      composites.push({ input: tile.data, left: x, top: y });
    }
  }
  const cw = Math.min(centre.info.width, width);
  const ch = Math.min(centre.info.height, height);
  const centreImg =
    cw < centre.info.width || ch < centre.info.height
      ? await sharp(centre.data).resize(cw, ch, { fit: 'inside' }).png().toBuffer({ resolveWithObject: true })
      : centre;
  composites.push({
    input: centreImg.data,
    left: Math.round((width - centreImg.info.width) / 2),
    top: Math.round((height - centreImg.info.height) / 2),
  });
  return sharp({ create: { width, height, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
    .composite(composites)
    .png()
    .toBuffer();
}

/** Burns the watermark into an image and returns a JPEG (metadata stripped, as sharp does by default). */
export async function applyWatermark(input: Buffer, text: string, quality = 82): Promise<Buffer> {
  const img = sharp(input).rotate();
  const { width = 0, height = 0 } = await img.metadata();
  const rotated = await img.toBuffer({ resolveWithObject: true });
  const overlay = await watermarkOverlay(rotated.info.width || width, rotated.info.height || height, text);
  return sharp(rotated.data).composite([{ input: overlay }]).jpeg({ quality, mozjpeg: true }).toBuffer();
}
