import sharp from 'sharp';
import { random, type Rng } from './random';
import { paintThinStructures } from './thin-structures';

/**
 * Makes an "old photo" of a clean one, with the map of where damage was painted — for training and testing
 * the damage detector without the public fixtures. It follows the kinds of degradation old prints and
 * films show: soft focus, a fade (lifted blacks, dimmed whites, a gamma), lens fall-off, blotches, clumped
 * grain, film scratches (long, near-vertical, light or dark, 1–3 px, wavy, with faint stretches and gaps),
 * print scratches (curved, any angle), dust specks (1–5 px) and fibres (short curved hairs), then grey or
 * sepia and JPEG. Every stroke is blended toward near-white or near-black; the mask holds the blend weight
 * of the strongest stroke at each pixel, × 255.
 */
export type OldPhoto = {
  jpeg: Buffer;
  mask: Uint8Array;
  width: number;
  height: number;
  /** The photo before ageing (with any thin structures painted in), interleaved 8-bit RGB: the truth. */
  clean: Uint8Array;
  /** With `unpainted`: the same photo aged the same way without its strokes (what lay under each), JPEG. */
  unpainted?: Buffer;
};

export type OldPhotoOptions = {
  /** Also paint real thin structures into the scene first (grids, wires, hair, twigs, lettering): not damage. */
  structures?: boolean;
  /** Also age the photo without its strokes (OldPhoto.unpainted): the fill correction's truth (scripts/training/train-fill.ts). */
  unpainted?: boolean;
};

export { random, type Rng } from './random';

type Point = { x: number; y: number; o: number };
/** A stroke: a polyline with a full width at half maximum and an opacity per point, blended toward `value`. */
type Stroke = { points: Point[]; fwhm: number; value: number };

/** Paints strokes into `img` (grey, 0..1) and records the blend weights in `weight`. */
function paint(img: Float32Array, weight: Float32Array, w: number, h: number, s: Stroke): void {
  const sd = s.fwhm / 2.355, reach = Math.ceil(3 * sd + 1);
  const local = new Map<number, number>();
  for (let k = 0; k + 1 < s.points.length; k++) {
    const a = s.points[k]!, b = s.points[k + 1]!;
    const dx = b.x - a.x, dy = b.y - a.y, len2 = dx * dx + dy * dy || 1e-9;
    const x0 = Math.max(0, Math.floor(Math.min(a.x, b.x) - reach)), x1 = Math.min(w - 1, Math.ceil(Math.max(a.x, b.x) + reach));
    const y0 = Math.max(0, Math.floor(Math.min(a.y, b.y) - reach)), y1 = Math.min(h - 1, Math.ceil(Math.max(a.y, b.y) + reach));
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
      const t = Math.max(0, Math.min(1, ((x - a.x) * dx + (y - a.y) * dy) / len2));
      const px = a.x + t * dx - x, py = a.y + t * dy - y;
      const o = a.o + t * (b.o - a.o);
      const wgt = o * Math.exp(-(px * px + py * py) / (2 * sd * sd));
      if (wgt < 0.02) continue;
      const i = y * w + x;
      if (wgt > (local.get(i) ?? 0)) local.set(i, wgt);
    }
  }
  for (const [i, wgt] of local) {
    img[i] = (1 - wgt) * img[i]! + wgt * s.value;
    if (wgt > weight[i]!) weight[i] = wgt;
  }
}

/**
 * Opacity ranges (the blend weight at a stroke's centre) and the share of film scratches laid along an edge. The
 * benchmark's fixtures (their damage masks) measure long strokes and fibres at 0.3–0.8 at their
 * strongest pixel and specks at 0.2–1 (more often 0.4–0.9); the first painter drew 0.55–1, so the detector never
 * saw damage as faint as the photos show.
 */
export const STROKE = {
  opacity: [0.3, 1] as [number, number],
  fibre: [0.35, 1] as [number, number],
  speck: [0.45, 1] as [number, number],
  alongEdge: 0.3,
};

/** Columns of the strongest vertical edges of a grey plane (at most `count`, at least 8 px apart). */
function edgeColumns(img: Float32Array, w: number, h: number, count = 12): number[] {
  const score = new Float64Array(w);
  for (let y = 0; y < h; y++) for (let x = 1; x < w - 2; x++) score[x]! += Math.abs(img[y * w + x + 1]! - img[y * w + x]!);
  const order = Array.from(score.keys()).filter((x) => x > 2 && x < w - 3).sort((a, b) => score[b]! - score[a]!);
  const picked: number[] = [];
  for (const x of order) {
    if (picked.length >= count) break;
    if (score[x]! < 0.04 * h) break;
    if (picked.every((p) => Math.abs(p - x) >= 8)) picked.push(x + 0.5);
  }
  return picked;
}

const strokeValue = (r: Rng) => (r.chance(0.6) ? r.uniform(0.88, 1) : r.uniform(0, 0.14));

/** Opacity along a stroke: a base level with faint stretches and, sometimes, gaps. */
function opacities(r: Rng, n: number, base: number, broken: boolean): number[] {
  const o = Array.from({ length: n }, () => base);
  const stretches = r.int(0, 3);
  for (let s = 0; s < stretches; s++) {
    const at = r.int(0, n - 1), len = r.int(Math.ceil(n / 20), Math.ceil(n / 4)), f = broken && r.chance(0.5) ? 0 : r.uniform(0.25, 0.6);
    for (let k = at; k < Math.min(n, at + len); k++) o[k] = base * f;
  }
  return o;
}

/**
 * A film scratch: long, near-vertical, wavy. With `edges` (columns of the scene's strongest vertical edges),
 * a share of them runs straight along one, a pixel or so off it: grit dragged along the film does not avoid the
 * picture's wires, poles and frames, and a fill there cannot see what the stroke hides.
 */
function filmScratch(r: Rng, w: number, h: number, edges: number[] = []): Stroke {
  const along = edges.length > 0 && r.chance(STROKE.alongEdge);
  const x = along ? edges[r.int(0, edges.length - 1)]! + r.uniform(-1.2, 1.2) : r.uniform(0.03, 0.97) * w;
  const slope = along ? 0 : r.uniform(-0.06, 0.06);
  const full = r.chance(0.5), len = full ? h : r.uniform(0.3, 0.9) * h, y0 = full ? 0 : r.uniform(0, h - len);
  const amp = along ? r.uniform(0, 0.4) : r.uniform(0, 2.5), period = r.uniform(80, 600), phase = r.uniform(0, 6.3);
  const n = Math.max(2, Math.ceil(len / 4)), o = opacities(r, n, r.uniform(...STROKE.opacity), r.chance(0.35));
  const points = o.map((op, k) => {
    const y = y0 + (k / (n - 1)) * len;
    return { x: x + slope * (y - y0) + amp * Math.sin(phase + (2 * Math.PI * y) / period), y, o: op };
  });
  return { points, fwhm: r.uniform(0.8, 2.6), value: strokeValue(r) };
}

function curve(r: Rng, cx: number, cy: number, len: number, bend: number, base: number, broken: boolean): Point[] {
  const a = r.uniform(0, Math.PI), ux = Math.cos(a), uy = Math.sin(a);
  const p0 = { x: cx - (ux * len) / 2, y: cy - (uy * len) / 2 }, p2 = { x: cx + (ux * len) / 2, y: cy + (uy * len) / 2 };
  const p1 = { x: cx - uy * bend * len, y: cy + ux * bend * len };
  const n = Math.max(2, Math.ceil(len / 3)), o = opacities(r, n, base, broken);
  return o.map((op, k) => {
    const t = k / (n - 1), u = 1 - t;
    return { x: u * u * p0.x + 2 * u * t * p1.x + t * t * p2.x, y: u * u * p0.y + 2 * u * t * p1.y + t * t * p2.y, o: op };
  });
}

const printScratch = (r: Rng, w: number, h: number): Stroke => ({
  points: curve(r, r.uniform(0, w), r.uniform(0, h), r.uniform(0.1, 0.45) * Math.max(w, h), r.uniform(-0.25, 0.25), r.uniform(...STROKE.opacity), r.chance(0.2)),
  fwhm: r.uniform(0.7, 1.8),
  value: strokeValue(r),
});

const fibre = (r: Rng, w: number, h: number): Stroke => ({
  points: curve(r, r.uniform(0, w), r.uniform(0, h), r.uniform(6, 32), r.uniform(-0.5, 0.5), r.uniform(...STROKE.fibre), false),
  fwhm: r.uniform(0.6, 1.3),
  value: strokeValue(r),
});

function speck(r: Rng, w: number, h: number): Stroke {
  const x = r.uniform(0, w), y = r.uniform(0, h), size = r.uniform(0.8, 4.5);
  // A speck is a very short stroke: a dot, or a slightly elongated one.
  const a = r.uniform(0, Math.PI), e = r.uniform(0, size / 2), o = r.uniform(...STROKE.speck);
  return { points: [{ x: x - e * Math.cos(a), y: y - e * Math.sin(a), o }, { x: x + e * Math.cos(a), y: y + e * Math.sin(a), o }], fwhm: size, value: strokeValue(r) };
}

/** Separable Gaussian blur of a plane (σ in px). */
function blur(src: Float32Array, w: number, h: number, sigma: number): Float32Array {
  if (sigma < 0.2) return src.slice();
  const rad = Math.ceil(3 * sigma), k = Array.from({ length: 2 * rad + 1 }, (_, i) => Math.exp(-((i - rad) ** 2) / (2 * sigma * sigma)));
  const sum = k.reduce((p, q) => p + q, 0);
  const tmp = new Float32Array(w * h), out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let s = 0;
    for (let j = -rad; j <= rad; j++) s += k[j + rad]! * src[y * w + Math.min(w - 1, Math.max(0, x + j))]!;
    tmp[y * w + x] = s / sum;
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let s = 0;
    for (let j = -rad; j <= rad; j++) s += k[j + rad]! * tmp[Math.min(h - 1, Math.max(0, y + j)) * w + x]!;
    out[y * w + x] = s / sum;
  }
  return out;
}

/** An old photo of `source` (any image sharp reads), its long side `maxSide`, from `seed`. */
export async function oldPhoto(source: Buffer | string, seed: number, maxSide = 1024, opts: OldPhotoOptions = {}): Promise<OldPhoto> {
  const r = random(seed);
  const { data, info } = await sharp(source).rotate().resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const w = info.width, h = info.height, n = w * h;
  let clean = Uint8Array.from(data);
  if (opts.structures) {
    const scene = Float32Array.from(data, (v) => v / 255);
    await paintThinStructures(scene, w, h, random(seed ^ 0x5bd1e995));
    clean = Uint8Array.from(scene, (v) => Math.round(255 * Math.min(1, Math.max(0, v))));
  }
  let img: Float32Array = new Float32Array(n);
  for (let i = 0; i < n; i++) img[i] = (0.299 * clean[3 * i]! + 0.587 * clean[3 * i + 1]! + 0.114 * clean[3 * i + 2]!) / 255;
  img = blur(img, w, h, r.chance(0.3) ? 0 : r.uniform(0.3, 1.25));

  const weight = new Float32Array(n);
  const area = n / 500_000;
  const strokes: Stroke[] = [];
  const scratches = r.int(2, 7);
  const edges = edgeColumns(img, w, h);
  for (let k = 0; k < scratches; k++) strokes.push(r.chance(0.55) ? filmScratch(r, w, h, edges) : printScratch(r, w, h));
  for (let k = 0, c = Math.round(r.int(7, 44) * Math.sqrt(area)); k < c; k++) strokes.push(speck(r, w, h));
  for (let k = 0, c = r.int(0, 6); k < c; k++) strokes.push(fibre(r, w, h));
  const bare = opts.unpainted ? img.slice() : undefined;
  for (const s of strokes) paint(img, weight, w, h, s);

  // Fade, lens fall-off, blotches, clumped grain.
  const lift = r.uniform(0.03, 0.16), ceiling = r.uniform(0.85, 0.97), gamma = r.uniform(0.85, 1.15), vignette = r.uniform(0, 0.3);
  const blobs = Array.from({ length: r.int(2, 8) }, () => ({ x: r.uniform(0, w), y: r.uniform(0, h), s: r.uniform(0.08, 0.3) * Math.max(w, h), a: r.uniform(-0.06, 0.06) }));
  const grainSigma = r.uniform(0.02, 0.046), clump = r.uniform(0.3, 0.8);
  const white = Float32Array.from({ length: n }, () => r.normal());
  const clumped = blur(white, w, h, 1);
  const noise = new Float32Array(n);
  let ss = 0;
  for (let i = 0; i < n; i++) { noise[i] = (1 - clump) * white[i]! + clump * 3.5 * clumped[i]!; ss += noise[i]! * noise[i]!; }
  const sc = Math.sqrt(ss / n) || 1;
  const cx = w / 2, cy = h / 2, R2 = cx * cx + cy * cy;
  const sepia = r.chance(0.35) ? r.uniform(0.5, 0.9) : 0;
  const age = (src: Float32Array) => {
    const grey = new Float64Array(n); // doubles: the values the detector's training photos were made from
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let v = lift + (ceiling - lift) * Math.max(0, src[i]!) ** gamma;
      v *= 1 - vignette * (((x - cx) ** 2 + (y - cy) ** 2) / R2);
      for (const b of blobs) v += b.a * Math.exp(-((x - b.x) ** 2 + (y - b.y) ** 2) / (2 * b.s * b.s));
      v += (grainSigma * noise[i]!) / sc;
      grey[i] = v;
    }
    // Grey or sepia, then JPEG at quality 85.
    const rgb = Buffer.alloc(n * 3);
    for (let i = 0; i < n; i++) {
      const v = Math.max(0, Math.min(1, grey[i]!)) * 255;
      const tone = [v * (1 + 0.12 * sepia), v * (1 + 0.02 * sepia), v * (1 - 0.2 * sepia)];
      for (let c = 0; c < 3; c++) rgb[3 * i + c] = Math.max(0, Math.min(255, Math.round(tone[c]!)));
    }
    return sharp(rgb, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
  };
  const jpeg = await age(img);
  const unpainted = bare && (await age(bare));
  return { jpeg, mask: Uint8Array.from(weight, (v) => Math.round(255 * v)), width: w, height: h, clean, ...(unpainted && { unpainted }) };
}
