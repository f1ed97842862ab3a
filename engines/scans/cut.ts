// Cutting a print out of the full scan: the pixels inside its rectangle, turned upright (bilinear sampling, the
// rectangle's own grid), then JPEG. One pass per print over its own pixels only, so memory is the decoded scan
// plus one print.
import sharp from 'sharp';
import { rectAxes, type RotatedRect } from './geometry';
import type { Rgb } from './raster';

/** The print inside `rect` (in `scan`'s pixels), upright, as RGB of `width` × `height`. */
export function uprightPrint(scan: Rgb, rect: RotatedRect, width: number, height: number): Rgb {
  const { data: src, width: W, height: H } = scan;
  const out = new Uint8Array(width * height * 3);
  const { ux, uy, vx, vy } = rectAxes(rect.angle);
  // The output's pixel grid spread over the rectangle (its size in scan pixels may differ from width × height).
  const su = rect.width / width, sv = rect.height / height;
  // Scan coordinates (pixel-index space: centres at integers) of output pixel (0, 0)'s centre, and the steps.
  const ox = rect.cx + (0.5 * su - rect.width / 2) * ux + (0.5 * sv - rect.height / 2) * vx - 0.5;
  const oy = rect.cy + (0.5 * su - rect.width / 2) * uy + (0.5 * sv - rect.height / 2) * vy - 0.5;
  const dxi = su * ux, dyi = su * uy, dxj = sv * vx, dyj = sv * vy;
  let o = 0;
  for (let j = 0; j < height; j++) {
    let x = ox + j * dxj, y = oy + j * dyj;
    for (let i = 0; i < width; i++, x += dxi, y += dyi, o += 3) {
      // Clamped to the scan: a print's rectangle may reach a fraction of a pixel past its edge.
      const cx = x < 0 ? 0 : x > W - 1 ? W - 1 : x, cy = y < 0 ? 0 : y > H - 1 ? H - 1 : y;
      const x0 = cx | 0, y0 = cy | 0;
      const x1 = x0 + 1 < W ? x0 + 1 : x0, y1 = y0 + 1 < H ? y0 + 1 : y0;
      const fx = cx - x0, fy = cy - y0;
      const a = 3 * (y0 * W + x0), b = 3 * (y0 * W + x1), c = 3 * (y1 * W + x0), d = 3 * (y1 * W + x1);
      const wa = (1 - fx) * (1 - fy), wb = fx * (1 - fy), wc = (1 - fx) * fy, wd = fx * fy;
      out[o] = wa * src[a]! + wb * src[b]! + wc * src[c]! + wd * src[d]! + 0.5;
      out[o + 1] = wa * src[a + 1]! + wb * src[b + 1]! + wc * src[c + 1]! + wd * src[d + 1]! + 0.5;
      out[o + 2] = wa * src[a + 2]! + wb * src[b + 2]! + wc * src[c + 2]! + wd * src[d + 2]! + 0.5;
    }
  }
  return { data: out, width, height };
}

export async function toJpeg(img: Rgb, quality: number): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } }).jpeg({ quality, mozjpeg: false }).toBuffer();
}
