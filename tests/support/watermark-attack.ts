import sharp from 'sharp';
import { mulberry32 } from '../../src/lib/random';

/**
 * The obvious attack on a watermarked preview: knowing the overlay (white text at a known
 * opacity), solve `clean = (preview − 255·α) / (1 − α)` per pixel, then see how close that comes to the file
 * a buyer pays for, on the pixels the overlay marks. Shared by the watermark's unit test and the abuse corpus.
 */

/** A deterministic colour "photo": soft light, large shapes with edges, and texture at several scales. */
export async function photoLike(width: number, height: number, seed = 7): Promise<Buffer> {
  const random = mulberry32(seed);
  const coarse = (cells: number) => {
    const grid = Float32Array.from({ length: (cells + 2) * (cells + 2) }, () => random());
    return (u: number, v: number) => {
      const x = u * cells, y = v * cells, i = Math.floor(x), j = Math.floor(y), fx = x - i, fy = y - j;
      const at = (a: number, b: number) => grid[b * (cells + 2) + a]!;
      return (at(i, j) * (1 - fx) + at(i + 1, j) * fx) * (1 - fy) + (at(i, j + 1) * (1 - fx) + at(i + 1, j + 1) * fx) * fy;
    };
  };
  const [broad, mid, fine] = [coarse(3), coarse(24), coarse(160)];
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width, v = y / height;
      const disc = (u - 0.62) ** 2 + (v - 0.58) ** 2 < 0.06 ? 1 : 0;
      const stripe = Math.floor(u * 9 + v * 3) % 2;
      const light = 70 + 120 * broad(u, v) + 40 * mid(u, v) + 30 * fine(u, v) - 25 * stripe * (1 - disc);
      const i = (y * width + x) * 3;
      raw[i] = Math.max(0, Math.min(255, light + 60 * disc));
      raw[i + 1] = Math.max(0, Math.min(255, light * 0.9 + 20 * mid(v, u)));
      raw[i + 2] = Math.max(0, Math.min(255, light * 0.8 - 30 * disc + 40 * broad(v, u)));
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
}

export interface Raw {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export async function rawOf(image: Buffer, size?: { width: number; height: number }): Promise<Raw> {
  let pipeline = sharp(image).removeAlpha();
  if (size) pipeline = pipeline.resize(size.width, size.height, { fit: 'fill' });
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** The overlay's opacity per pixel (0..1) from its RGBA PNG. */
export async function overlayAlpha(overlayPng: Buffer): Promise<Float32Array> {
  const { data, info } = await sharp(overlayPng).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const alpha = new Float32Array(info.width * info.height);
  for (let i = 0; i < alpha.length; i++) alpha[i] = data[i * 4 + 3]! / 255;
  return alpha;
}

/** Undoes a white overlay of opacity `alpha`: (p − 255α)/(1 − α), clamped. */
export function invertWhiteOverlay(preview: Raw, alpha: Float32Array): Raw {
  const out = Buffer.alloc(preview.data.length);
  for (let p = 0; p < alpha.length; p++) {
    const a = Math.min(alpha[p]!, 0.95);
    for (let c = 0; c < preview.channels; c++) {
      const i = p * preview.channels + c;
      out[i] = Math.max(0, Math.min(255, Math.round((preview.data[i]! - 255 * a) / (1 - a))));
    }
  }
  return { ...preview, data: out };
}

/** PSNR (dB) of `a` against `b` over the pixels where `mask` is true. */
export function psnr(a: Raw, b: Raw, mask: (pixel: number) => boolean): number {
  let sum = 0, n = 0;
  for (let p = 0; p < a.width * a.height; p++) {
    if (!mask(p)) continue;
    for (let c = 0; c < a.channels; c++) {
      const d = a.data[p * a.channels + c]! - b.data[p * b.channels + c]!;
      sum += d * d;
      n++;
    }
  }
  return n === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sum / n));
}

/**
 * The same attack on a video preview: one decoded frame of the preview, its overlay solved away with the item's
 * exact layout (`overlayPng`, at the preview's size), against the same frame of the bought file scaled to the
 * preview's size. Both frames are encoded images (PNG).
 */
export async function videoFrameInversion(
  preview: Buffer,
  bought: Buffer,
  overlayPng: Buffer,
  size: { width: number; height: number },
): Promise<{ inversionPsnrMarkedDb: number; previewPsnrUnmarkedDb: number; markedShare: number }> {
  const alpha = await overlayAlpha(overlayPng);
  const seen = await rawOf(preview);
  const reference = await rawOf(bought, size);
  const marked = (p: number) => alpha[p]! > 0;
  let n = 0;
  for (let p = 0; p < alpha.length; p++) if (marked(p)) n++;
  return {
    inversionPsnrMarkedDb: psnr(invertWhiteOverlay(seen, alpha), reference, marked),
    previewPsnrUnmarkedDb: psnr(seen, reference, (p) => !marked(p)),
    markedShare: n / alpha.length,
  };
}
