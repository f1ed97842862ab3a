import sharp from 'sharp';
import type { Rng } from './random';

/**
 * Real thin structures painted into a clean photo before it is aged: the hard negatives of the damage detector.
 * Cage and fence grids, railings and window bars, hanging wires, lettering, strands of hair, twigs and dense
 * dot textures look like
 * scratches pixel by pixel, but they belong to the picture (the mask stays 0 on them) and the restoration must
 * keep them. Each is drawn with a soft edge in a colour darker or lighter than the ground it crosses.
 */
type Point = { x: number; y: number };

/** Draws a polyline of full width `width` into interleaved RGB `img`, blending toward `rgb` with opacity `alpha`. */
function drawLine(img: Float32Array, w: number, h: number, pts: Point[], width: number, rgb: readonly number[], alpha: number): void {
  const half = width / 2;
  const reach = Math.ceil(half + 1.5);
  const cover = new Map<number, number>();
  for (let k = 0; k + 1 < pts.length; k++) {
    const a = pts[k]!;
    const b = pts[k + 1]!;
    const dx = b.x - a.x;
    const dy = b.y - a.y;
    const len2 = dx * dx + dy * dy || 1e-9;
    const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x) - reach));
    const x1 = Math.min(w - 1, Math.ceil(Math.max(a.x, b.x) + reach));
    const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y) - reach));
    const y1 = Math.min(h - 1, Math.ceil(Math.max(a.y, b.y) + reach));
    for (let y = y0; y <= y1; y++) {
      for (let x = x0; x <= x1; x++) {
        const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / len2));
        const d = Math.hypot(a.x + t * dx - x, a.y + t * dy - y);
        // Coverage of a pixel by a band of half-width `half`: 1 inside, a linear ramp over one pixel.
        const c = Math.max(0, Math.min(1, half + 0.5 - d));
        if (c <= 0) continue;
        const i = y * w + x;
        if (c > (cover.get(i) ?? 0)) cover.set(i, c);
      }
    }
  }
  for (const [i, c] of cover) {
    const o = alpha * c;
    for (let ch = 0; ch < 3; ch++) img[3 * i + ch] = (1 - o) * img[3 * i + ch]! + o * rgb[ch]!;
  }
}

/** A colour clearly darker or lighter than the photo's mean, with a slight tint. */
function strokeColour(r: Rng, mean: number): number[] {
  const dark = mean > 0.35 ? r.chance(0.7) : r.chance(0.2);
  const v = dark ? r.uniform(0.02, Math.max(0.05, mean - 0.25)) : r.uniform(Math.min(0.95, mean + 0.25), 1);
  return [0, 1, 2].map(() => Math.min(1, Math.max(0, v + r.uniform(-0.04, 0.04))));
}

/** A region of the photo (a fraction of it) where a structure is drawn. */
function region(r: Rng, w: number, h: number) {
  const rw = r.uniform(0.3, 1) * w;
  const rh = r.uniform(0.3, 1) * h;
  const x0 = r.uniform(0, w - rw);
  const y0 = r.uniform(0, h - rh);
  return { x0, y0, x1: x0 + rw, y1: y0 + rh };
}

/** Cage, fence or window grid: two families of parallel lines, slightly turned; or one family (railings, bars). */
function grid(img: Float32Array, w: number, h: number, r: Rng, mean: number): void {
  const box = region(r, w, h);
  const colour = strokeColour(r, mean);
  const width = r.uniform(0.8, 4);
  const turn = r.uniform(-0.15, 0.15);
  const families = r.chance(0.6) ? [turn, turn + Math.PI / 2] : [turn + (r.chance(0.5) ? 0 : Math.PI / 2)];
  for (const a of families) {
    const period = r.uniform(6, 60);
    const ux = Math.cos(a);
    const uy = Math.sin(a);
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    const reach = Math.hypot(box.x1 - box.x0, box.y1 - box.y0) / 2;
    for (let o = -reach; o <= reach; o += period) {
      const px = cx - uy * o;
      const py = cy + ux * o;
      const pts = [{ x: px - ux * reach, y: py - uy * reach }, { x: px + ux * reach, y: py + uy * reach }]
        .map((p) => ({ x: Math.min(box.x1, Math.max(box.x0, p.x)), y: Math.min(box.y1, Math.max(box.y0, p.y)) }));
      drawLine(img, w, h, pts, width, colour, r.uniform(0.7, 1));
    }
  }
}

/** A smooth curve from a quadratic Bézier of `len` px at angle `a` through (cx, cy). */
function curve(cx: number, cy: number, len: number, a: number, bend: number, steps: number): Point[] {
  const ux = Math.cos(a);
  const uy = Math.sin(a);
  const p0 = { x: cx - (ux * len) / 2, y: cy - (uy * len) / 2 };
  const p2 = { x: cx + (ux * len) / 2, y: cy + (uy * len) / 2 };
  const p1 = { x: cx - uy * bend * len, y: cy + ux * bend * len };
  return Array.from({ length: steps }, (_, k) => {
    const t = k / (steps - 1);
    const u = 1 - t;
    return { x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x, y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y };
  });
}

/** Hanging wires or cables: a few long, gently sagging lines across the photo. */
function wires(img: Float32Array, w: number, h: number, r: Rng, mean: number): void {
  const colour = strokeColour(r, mean);
  const a = r.uniform(-0.5, 0.5) + (r.chance(0.3) ? Math.PI / 2 : 0);
  const count = r.int(1, 4);
  const cx = r.uniform(0.2, 0.8) * w;
  const cy = r.uniform(0.2, 0.8) * h;
  for (let k = 0; k < count; k++) {
    const len = r.uniform(0.5, 1.4) * Math.max(w, h);
    const pts = curve(cx + k * r.uniform(4, 30), cy + k * r.uniform(4, 30), len, a + r.uniform(-0.05, 0.05), r.uniform(-0.08, 0.08), 40);
    drawLine(img, w, h, pts, r.uniform(0.8, 2.2), colour, r.uniform(0.6, 1));
  }
}

/** Hair or fur: a bundle of thin, similarly oriented, slightly curved strands. */
function hair(img: Float32Array, w: number, h: number, r: Rng, mean: number): void {
  const colour = strokeColour(r, mean);
  const cx = r.uniform(0.1, 0.9) * w;
  const cy = r.uniform(0.1, 0.9) * h;
  const a = r.uniform(0, Math.PI);
  const spread = r.uniform(10, 60);
  const count = r.int(8, 40);
  for (let k = 0; k < count; k++) {
    const pts = curve(cx + r.normal() * spread, cy + r.normal() * spread, r.uniform(15, 90), a + r.normal() * 0.15, r.uniform(-0.2, 0.2), 16);
    drawLine(img, w, h, pts, r.uniform(0.6, 1.4), colour, r.uniform(0.4, 0.9));
  }
}

/** Twigs: a branch with a few side branches, thinning outwards. */
function twig(img: Float32Array, w: number, h: number, r: Rng, mean: number): void {
  const colour = strokeColour(r, mean);
  const grow = (x: number, y: number, a: number, len: number, width: number, depth: number) => {
    const pts = curve(x + (Math.cos(a) * len) / 2, y + (Math.sin(a) * len) / 2, len, a, r.uniform(-0.15, 0.15), 12);
    drawLine(img, w, h, pts, width, colour, 0.9);
    if (depth === 0) return;
    for (let k = 0; k < r.int(1, 3); k++) {
      const at = pts[r.int(3, pts.length - 1)]!;
      grow(at.x, at.y, a + r.uniform(0.3, 0.9) * (r.chance(0.5) ? 1 : -1), len * r.uniform(0.4, 0.7), Math.max(0.7, width * 0.6), depth - 1);
    }
  };
  grow(r.uniform(0, w), r.uniform(0, h), r.uniform(0, 2 * Math.PI), r.uniform(0.15, 0.4) * Math.max(w, h), r.uniform(1.2, 3.5), 2);
}

/** Texture of small bright or dark dots (sunlit leaves, gravel, a printed screen), dense and alike. */
function dots(img: Float32Array, w: number, h: number, r: Rng, mean: number): void {
  const box = region(r, w, h);
  const colour = strokeColour(r, mean);
  const spacing = r.uniform(3, 8);
  const size = r.uniform(0.8, 2.2);
  const jitter = r.uniform(0, spacing / 2);
  for (let y = box.y0; y < box.y1; y += spacing) {
    for (let x = box.x0; x < box.x1; x += spacing) {
      if (r.chance(0.2)) continue;
      const px = x + r.uniform(-jitter, jitter);
      const py = y + r.uniform(-jitter, jitter);
      drawLine(img, w, h, [{ x: px, y: py }, { x: px + r.uniform(0, 1), y: py + r.uniform(0, 1) }], size, colour, r.uniform(0.5, 1));
    }
  }
}

const WORDS = ['HOTEL', 'Main Street', 'CAFÉ', 'No. 12', 'Photographie', 'GROCERY', '1923', 'Welcome', 'STATION', 'Bakery &amp; Co'];

/** Lettering: a sign or a caption, dark on light or light on dark, small to medium size. */
async function lettering(img: Float32Array, w: number, h: number, r: Rng, mean: number): Promise<void> {
  const size = Math.round(r.uniform(8, 28));
  const text = WORDS[r.int(0, WORDS.length - 1)]!;
  const colour = strokeColour(r, mean);
  const hex = `#${colour.map((c) => Math.round(255 * c).toString(16).padStart(2, '0')).join('')}`;
  const x = Math.round(r.uniform(0, 0.7) * w);
  const y = Math.round(r.uniform(0.1, 0.95) * h);
  const weight = r.chance(0.5) ? 'bold' : 'normal';
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><text x="${x}" y="${y}" font-family="DejaVu Sans" font-size="${size}" font-weight="${weight}" fill="${hex}">${text}</text></svg>`;
  const { data } = await sharp(Buffer.from(svg)).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  for (let i = 0; i < w * h; i++) {
    const o = data[4 * i + 3]! / 255;
    if (o <= 0) continue;
    for (let ch = 0; ch < 3; ch++) img[3 * i + ch] = (1 - o) * img[3 * i + ch]! + o * colour[ch]!;
  }
}

/**
 * Paints one or two real thin structures into `img` (interleaved RGB in 0..1, w × h), in place.
 */
export async function paintThinStructures(img: Float32Array, w: number, h: number, r: Rng): Promise<void> {
  let sum = 0;
  for (let i = 0; i < img.length; i++) sum += img[i]!;
  const mean = sum / img.length;
  const kinds = [grid, wires, hair, twig, lettering, dots];
  const count = r.int(1, 2);
  for (let k = 0; k < count; k++) await kinds[r.int(0, kinds.length - 1)]!(img, w, h, r, mean);
}
