// Synthetic flatbed scans of several prints, with their truth, for the scan splitter's tests and its bench
// (`npm run bench -- batch`). A scan is drawn pixel by pixel so each print's corners are known exactly:
//
//   bed        the scanner lid (white), grey or black card, textured paper, or a patterned album page
//   prints     real photos (or generated pictures) at print sizes (wallet to 5×7 in), with or without a white
//              border, as they are, faded, dark, or aged grey/sepia (scripts/training/old-photo.ts); turned −20…20°
//   scanner    each print's shadow on what lies under it (the lamp's side), uneven light (a gradient and fall-off),
//              the glass edge as a dark strip on some scans, dust, a slight blur, noise, then JPEG
//
// Kinds, and the answer expected from the splitter (`truth.whole`, `truth.count`):
//   split      1–8 prints apart (≥ 3 mm between them and from the edges): split into each print
//   touching   the same, but two prints touch or overlap by up to 3 mm (lined up or at any angle): kept whole
//   album      prints on a patterned page: kept whole
//   cut        one print runs 12–45 % off the scanned area: kept whole
// A scan kept whole counts as one image, so `count` is 1 there.
import sharp from 'sharp';
import { angleGap, quadIoU, rectCorners, type Point, type Quad, type RotatedRect } from '../../engines/scans';
import { oldPhoto, random, type Rng } from '../../scripts/training/old-photo';

export type Bed = 'white' | 'grey' | 'paper' | 'black' | 'album';
export type ScanKind = 'split' | 'touching' | 'album' | 'cut';
export type Tone = 'colour' | 'faded' | 'dark' | 'old';

export type PrintTruth = {
  /** The print's outline in scan pixels: top left, top right, bottom right, bottom left of the upright print. */
  corners: Quad;
  /** The picture inside its white border (the same as `corners` without one). */
  picture: Quad;
  /** Its turn in degrees, clockwise on the screen. */
  angle: number;
  border: boolean;
  tone: Tone;
  /** The share of the print outside the scanned area (cut prints only). */
  outside?: number;
};

export type ScanTruth = {
  seed: number;
  kind: ScanKind;
  bed: Bed;
  width: number;
  height: number;
  dpi: number;
  /** The expected answer: keep the scan whole (touching, album, cut). */
  whole: boolean;
  /** Images the buyer should get: one per print when split, 1 when kept whole. */
  count: number;
  /** Every print on the glass, in drawing order (a cut one included). */
  prints: PrintTruth[];
  /** What the scanner added, for reading failures. */
  scanner: { shadow: boolean; light: number; noise: number; frame: boolean; quality: number };
};

/** A picture to print: interleaved 8-bit RGB. */
export type Picture = { name: string; data: Uint8Array; width: number; height: number };

export type ScanOptions = {
  kind?: ScanKind;
  bed?: Bed;
  prints?: number;
  /** Scan resolution; the bed is A4 or US Letter at this resolution. Default: 150–250 dpi, from the seed. */
  dpi?: number | [number, number];
  /** The glass's size. Default: A4 or US Letter, from the seed. */
  paper?: 'a4' | 'letter';
};

/** Decodes picture files (any format sharp reads) to RGB, long side at most `maxSide`. */
export async function loadPictures(files: string[], maxSide = 1024): Promise<Picture[]> {
  return Promise.all(files.map(async (file) => {
    const { data, info } = await sharp(file).rotate().resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    return { name: file.split('/').pop()!, data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  }));
}

/** Made-up pictures (a sky, a ground, shapes, texture) for when no photos are at hand. */
export function generatedPictures(seed: number, count: number): Picture[] {
  return Array.from({ length: count }, (_, k) => {
    const r = random(seed * 7919 + k);
    const w = r.int(360, 640), h = r.int(300, 560);
    const data = new Uint8Array(w * h * 3);
    const sky = [r.uniform(60, 230), r.uniform(80, 235), r.uniform(100, 250)];
    const ground = [r.uniform(20, 160), r.uniform(30, 170), r.uniform(10, 120)];
    const horizon = r.uniform(0.3, 0.75) * h;
    const shapes = Array.from({ length: r.int(3, 9) }, () => ({
      x: r.uniform(0, w), y: r.uniform(0, h), rx: r.uniform(0.05, 0.3) * w, ry: r.uniform(0.05, 0.3) * h,
      c: [r.uniform(0, 255), r.uniform(0, 255), r.uniform(0, 255)], box: r.chance(0.4),
    }));
    const tex = valueNoise(w, h, r.uniform(4, 20), r);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const t = y / h;
      let c = y < horizon ? sky.map((v) => v * (0.75 + 0.35 * t)) : ground.map((v) => v * (1.1 - 0.4 * t));
      for (const s of shapes) {
        const dx = (x - s.x) / s.rx, dy = (y - s.y) / s.ry;
        if (s.box ? Math.abs(dx) < 1 && Math.abs(dy) < 1 : dx * dx + dy * dy < 1) c = s.c.map((v) => v * (0.8 + 0.2 * (1 - dy)));
      }
      const n = 18 * tex[y * w + x]!;
      for (let ch = 0; ch < 3; ch++) data[3 * (y * w + x) + ch] = clamp255(c[ch]! + n);
    }
    return { name: `generated-${seed}-${k}`, data, width: w, height: h };
  });
}

const PAPER_SIZES_IN: Array<[number, number]> = [[8.27, 11.69], [8.5, 11]];
/** Print sizes in inches, short side first, and which fit how many prints on the glass. */
const PRINT_SIZES_IN: Array<{ size: [number, number]; most: number }> = [
  { size: [5, 7], most: 2 }, { size: [4, 6], most: 4 }, { size: [4, 4], most: 4 }, { size: [3.5, 5], most: 6 },
  { size: [3, 4], most: 6 }, { size: [3.5, 3.5], most: 6 }, { size: [2.5, 3.5], most: 8 }, { size: [3, 3], most: 8 }, { size: [2.25, 3.25], most: 8 },
];

type Placed = { rect: RotatedRect; border: number; tone: Tone; picture: Picture; outside?: number };

/** One synthetic scan and its truth, all from `seed` (and the options that pin parts of it). */
export async function makeScan(seed: number, pictures: Picture[], opts: ScanOptions = {}): Promise<{ jpeg: Buffer; truth: ScanTruth }> {
  const r = random(seed);
  const kind: ScanKind = opts.kind ?? pick(r, [['split', 0.76], ['touching', 0.1], ['album', 0.07], ['cut', 0.07]]);
  const bed: Bed = kind === 'album' ? 'album' : (opts.bed ?? pick(r, [['white', 0.4], ['grey', 0.15], ['paper', 0.2], ['black', 0.25]]));
  const dpiOpt = opts.dpi ?? [150, 250];
  const dpi = Math.round(typeof dpiOpt === 'number' ? dpiOpt : r.uniform(dpiOpt[0], dpiOpt[1]));
  const drawn = r.int(0, 1);
  const paper = PAPER_SIZES_IN[opts.paper ? (opts.paper === 'a4' ? 0 : 1) : drawn]!;
  const landscape = r.chance(0.2);
  const W = Math.round((landscape ? paper[1] : paper[0]) * dpi), H = Math.round((landscape ? paper[0] : paper[1]) * dpi);
  const mm = dpi / 25.4;
  const count = opts.prints ?? (kind === 'touching' ? r.int(2, 6) : kind === 'split' ? r.int(1, 8) : r.int(2, 6));

  // The glass's edge, decided first: prints lie on the glass, so the margins are kept from its strip.
  const frame = r.chance(0.2) ? glassSpec(r, mm) : null;
  const margins = [0, 1, 2, 3].map((side) => frame?.find((f) => f.side === side)?.width ?? 0);
  const placed = layout(r, kind, count, W, H, mm, pictures, bed, margins);
  const canvas = drawBed(r, bed, W, H, mm);
  const shadow = r.chance(0.7) ? shadowSpec(r, mm) : null;
  for (const p of placed) {
    if (shadow) drawShadow(canvas, W, H, p.rect, shadow);
    drawPrint(canvas, W, H, p.rect, await printRaster(r, p, mm));
  }
  const light = r.uniform(0, 0.14);
  unevenLight(r, canvas, W, H, light);
  if (frame) glassEdge(frame, canvas, W, H);
  dust(r, canvas, W, H, mm);
  const noise = r.uniform(0.8, 4);
  const quality = r.int(78, 95);
  const rgb = finish(r, canvas, W, H, noise);
  const jpeg = await sharp(rgb, { raw: { width: W, height: H, channels: 3 } }).jpeg({ quality }).toBuffer();

  const prints: PrintTruth[] = placed.map((p) => {
    const inner: RotatedRect = { ...p.rect, width: p.rect.width - 2 * p.border, height: p.rect.height - 2 * p.border };
    return { corners: rectCorners(p.rect), picture: rectCorners(inner), angle: p.rect.angle, border: p.border > 0, tone: p.tone, ...(p.outside !== undefined && { outside: p.outside }) };
  });
  const whole = kind !== 'split';
  return {
    jpeg,
    truth: { seed, kind, bed, width: W, height: H, dpi, whole, count: whole ? 1 : prints.length, prints, scanner: { shadow: !!shadow, light, noise, frame: !!frame, quality } },
  };
}

// ---- layout -------------------------------------------------------------------------------------------------

function layout(r: Rng, kind: ScanKind, count: number, W: number, H: number, mm: number, pictures: Picture[], bed: Bed, margins: number[]): Placed[] {
  for (let attempt = 0, scale = 1; ; attempt++, scale *= 0.93) {
    const placed: Placed[] = [];
    const fits = PRINT_SIZES_IN.filter((s) => s.most >= count);
    const size = fits[r.int(0, fits.length - 1)]!.size;
    const make = (angle: number): Placed => {
      const portrait = r.chance(0.5);
      const w = (portrait ? size[0] : size[1]) * 25.4 * mm * scale * r.uniform(0.97, 1.03);
      const h = (portrait ? size[1] : size[0]) * 25.4 * mm * scale * r.uniform(0.97, 1.03);
      const border = r.chance(bed === 'album' ? 0.6 : 0.45) ? r.uniform(0.03, 0.075) * Math.min(w, h) : 0;
      const tone = pick<Tone>(r, [['colour', 0.4], ['faded', 0.25], ['dark', 0.15], ['old', 0.2]]);
      return { rect: { cx: 0, cy: 0, width: w, height: h, angle }, border, tone, picture: pictures[r.int(0, pictures.length - 1)]! };
    };
    const angle = () => (r.chance(0.25) ? r.uniform(-2, 2) : r.uniform(-20, 20));
    let ok = true;
    if (kind === 'cut') {
      const p = make(angle());
      p.outside = r.uniform(0.12, 0.45);
      placeCut(r, p, W, H);
      placed.push(p);
    }
    const free = kind === 'touching' ? count - 1 : count - placed.length;
    for (let i = 0; i < free && ok; i++) {
      const p = make(angle());
      ok = placeApart(r, p, placed, W, H, mm, margins);
      if (ok) placed.push(p);
    }
    if (ok && kind === 'touching') {
      const target = placed[r.int(0, placed.length - 1)]!;
      const lined = r.chance(0.5);
      const p = make(lined ? target.rect.angle + r.normal() * 1.5 : angle());
      ok = placeTouching(r, p, target, placed, W, H, mm, margins);
      if (ok) placed.push(p);
    }
    if (ok) return placed;
    if (attempt > 40) throw new Error(`no layout for ${count} prints (${kind})`);
  }
}

const GAP_MM = 3;

function placeApart(r: Rng, p: Placed, placed: Placed[], W: number, H: number, mm: number, margins: number[]): boolean {
  const gap = GAP_MM * mm;
  for (let t = 0; t < 400; t++) {
    p.rect.cx = r.uniform(0, W);
    p.rect.cy = r.uniform(0, H);
    if (!insideBed(p.rect, W, H, gap, margins)) continue;
    if (placed.every((q) => !overlaps(grow(p.rect, gap / 2), grow(q.rect, gap / 2)))) return true;
  }
  return false;
}

/** A print pushed against `target` from a random side until they touch, then up to 3 mm further (overlapping). */
function placeTouching(r: Rng, p: Placed, target: Placed, placed: Placed[], W: number, H: number, mm: number, margins: number[]): boolean {
  const gap = GAP_MM * mm;
  for (let t = 0; t < 200; t++) {
    const dir = r.uniform(0, 2 * Math.PI);
    const along = r.chance(0.6) ? Math.round(dir / (Math.PI / 2)) * (Math.PI / 2) + (target.rect.angle * Math.PI) / 180 + r.normal() * 0.15 : dir;
    const dx = Math.cos(along), dy = Math.sin(along);
    let lo = 0, hi = 2 * (Math.hypot(target.rect.width, target.rect.height) + Math.hypot(p.rect.width, p.rect.height));
    for (let k = 0; k < 30; k++) {
      const mid = (lo + hi) / 2;
      const at = { ...p.rect, cx: target.rect.cx + dx * mid, cy: target.rect.cy + dy * mid };
      if (overlaps(at, target.rect)) lo = mid;
      else hi = mid;
    }
    const d = hi - r.uniform(0, 3) * mm;
    p.rect.cx = target.rect.cx + dx * d;
    p.rect.cy = target.rect.cy + dy * d;
    if (!insideBed(p.rect, W, H, gap, margins)) continue;
    if (placed.every((q) => q === target || !overlaps(grow(p.rect, gap / 2), grow(q.rect, gap / 2)))) return true;
  }
  return false;
}

/** A print placed across one edge of the bed with the share `p.outside` of its extent beyond it. */
function placeCut(r: Rng, p: Placed, W: number, H: number): void {
  const corners = rectCorners({ ...p.rect, cx: 0, cy: 0 });
  const xs = corners.map((c) => c[0]), ys = corners.map((c) => c[1]);
  const ex = Math.max(...xs), ey = Math.max(...ys);
  const side = r.int(0, 3);
  const out = p.outside!;
  const cross = (extent: number) => extent - 2 * extent * out; // centre's distance inside the edge
  if (side === 0) { p.rect.cx = cross(ex); p.rect.cy = r.uniform(ey, H - ey); }
  if (side === 1) { p.rect.cx = W - cross(ex); p.rect.cy = r.uniform(ey, H - ey); }
  if (side === 2) { p.rect.cy = cross(ey); p.rect.cx = r.uniform(ex, W - ex); }
  if (side === 3) { p.rect.cy = H - cross(ey); p.rect.cx = r.uniform(ex, W - ex); }
}

/** Inside the bed by `margin`, and by the glass edge's strip (left, right, top, bottom) where there is one. */
function insideBed(rect: RotatedRect, W: number, H: number, margin: number, strip: number[]): boolean {
  return rectCorners(rect).every(([x, y]) => x >= margin + strip[0]! && y >= margin + strip[2]! && x <= W - margin - strip[1]! && y <= H - margin - strip[3]!);
}

const grow = (rect: RotatedRect, by: number): RotatedRect => ({ ...rect, width: rect.width + 2 * by, height: rect.height + 2 * by });

/** Whether two rotated rectangles overlap (separating axis test). */
function overlaps(a: RotatedRect, b: RotatedRect): boolean {
  const qa = rectCorners(a), qb = rectCorners(b);
  for (const q of [qa, qb]) {
    for (let i = 0; i < 4; i++) {
      const p0 = q[i]!, p1 = q[(i + 1) % 4]!;
      const nx = p1[1] - p0[1], ny = p0[0] - p1[0];
      const proj = (qq: Quad) => qq.map((c) => c[0] * nx + c[1] * ny);
      const pa = proj(qa), pb = proj(qb);
      if (Math.max(...pa) < Math.min(...pb) || Math.max(...pb) < Math.min(...pa)) return false;
    }
  }
  return true;
}

// ---- drawing ------------------------------------------------------------------------------------------------

/** A float RGB canvas, 0–255 per channel. */
type Canvas = Float32Array;

const PAPERS: Array<[number, number, number]> = [
  [196, 164, 122], [228, 214, 188], [176, 196, 214], [214, 190, 200], [188, 206, 176], [150, 150, 146], [46, 62, 94], [52, 80, 58], [120, 40, 46], [236, 232, 222],
];

function drawBed(r: Rng, bed: Bed, W: number, H: number, mm: number): Canvas {
  const c = new Float32Array(W * H * 3);
  const fill = (rgb: number[]) => {
    for (let i = 0; i < W * H; i++) for (let ch = 0; ch < 3; ch++) c[3 * i + ch] = rgb[ch]!;
  };
  if (bed === 'white') {
    const base = r.uniform(238, 253), tint = [r.uniform(-3, 3), r.uniform(-3, 3), r.uniform(-4, 4)];
    fill(tint.map((t) => Math.min(255, base + t)));
  } else if (bed === 'grey') {
    const v = r.uniform(95, 200);
    fill([v + r.uniform(-6, 6), v + r.uniform(-6, 6), v + r.uniform(-6, 6)]);
  } else if (bed === 'black') {
    const v = r.uniform(4, 28);
    fill([v, v + r.uniform(-2, 2), v + r.uniform(-2, 3)]);
  } else if (bed === 'paper') {
    const base = PAPERS[r.int(0, PAPERS.length - 1)]!;
    fill(base);
    const amp = r.uniform(2, 8);
    const fine = valueNoise(W, H, r.uniform(0.4, 1) * mm, r), mid = valueNoise(W, H, r.uniform(2, 5) * mm, r), mottle = valueNoise(W, H, r.uniform(15, 40) * mm, r);
    for (let i = 0; i < W * H; i++) {
      const d = amp * (0.6 * fine[i]! + 0.5 * mid[i]!) + 0.6 * amp * mottle[i]!;
      for (let ch = 0; ch < 3; ch++) c[3 * i + ch] += d;
    }
    fibres(r, c, W, H, mm, r.int(40, 200) * (W * H) / 4e6, amp * 1.5);
  } else {
    albumPattern(r, c, W, H, mm);
  }
  return c;
}

/** A patterned album page: stripes, dots, checks, a floral print or a damask, in two or three colours. */
function albumPattern(r: Rng, c: Canvas, W: number, H: number, mm: number): void {
  const base = PAPERS[r.int(0, PAPERS.length - 1)]!.map((v) => v + r.uniform(-10, 10));
  const contrast = r.uniform(25, 90) * (r.chance(0.5) ? 1 : -1);
  const motif = base.map((v) => v + contrast + r.uniform(-25, 25));
  const style = r.int(0, 4);
  const period = r.uniform(4, 16) * mm;
  const theta = r.chance(0.5) ? 0 : r.chance(0.5) ? Math.PI / 4 : Math.PI / 2;
  const blobs = style === 3 ? valueNoise(W, H, r.uniform(6, 20) * mm, r) : null;
  const dotR = r.uniform(0.18, 0.38);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const u = (x * Math.cos(theta) + y * Math.sin(theta)) / period, v = (-x * Math.sin(theta) + y * Math.cos(theta)) / period;
    let t: number;
    if (style === 0) t = soft(Math.sin(2 * Math.PI * u) * 3);
    else if (style === 1) t = soft((dotR - Math.hypot(u - Math.round(u), v - Math.round(v))) * period * 0.8);
    else if (style === 2) t = 0.5 * soft(Math.sin(2 * Math.PI * u) * 3) + 0.5 * soft(Math.sin(2 * Math.PI * v) * 3);
    else if (style === 3) t = soft(blobs![y * W + x]! * 6 - 0.8);
    else t = 0.5 + 0.5 * Math.sin(2 * Math.PI * u) * Math.sin(2 * Math.PI * v);
    const i = 3 * (y * W + x);
    for (let ch = 0; ch < 3; ch++) c[i + ch] = base[ch]! + t * (motif[ch]! - base[ch]!);
  }
}

const soft = (z: number) => 1 / (1 + Math.exp(-z));

/** Short, faint, curved fibres of paper. */
function fibres(r: Rng, c: Canvas, W: number, H: number, mm: number, count: number, amp: number): void {
  for (let k = 0; k < count; k++) {
    let x = r.uniform(0, W), y = r.uniform(0, H), a = r.uniform(0, 2 * Math.PI);
    const len = r.uniform(1, 5) * mm, d = r.uniform(-amp, amp);
    for (let s = 0; s < len; s++) {
      a += r.normal() * 0.08;
      x += Math.cos(a);
      y += Math.sin(a);
      const xi = Math.floor(x), yi = Math.floor(y);
      if (xi < 0 || yi < 0 || xi >= W || yi >= H) break;
      for (let ch = 0; ch < 3; ch++) c[3 * (yi * W + xi) + ch] += d;
    }
  }
}

type Shadow = { dx: number; dy: number; soft: number; strength: number };

function shadowSpec(r: Rng, mm: number): Shadow {
  const len = r.uniform(0.25, 1.2) * mm;
  const dir = r.int(0, 3) * (Math.PI / 2) + r.normal() * 0.3;
  return { dx: Math.cos(dir) * len, dy: Math.sin(dir) * len, soft: r.uniform(0.3, 1) * mm, strength: r.uniform(0.12, 0.5) };
}

/** Where a print lies, as its coverage of each pixel (anti-aliased edges, softness `soft` in pixels). */
function eachCovered(W: number, H: number, rect: RotatedRect, soft: number, visit: (i: number, cover: number, a: number, b: number) => void): void {
  const q = rectCorners(rect);
  const reach = soft + 2;
  const x0 = Math.max(0, Math.floor(Math.min(...q.map((p) => p[0])) - reach)), x1 = Math.min(W - 1, Math.ceil(Math.max(...q.map((p) => p[0])) + reach));
  const y0 = Math.max(0, Math.floor(Math.min(...q.map((p) => p[1])) - reach)), y1 = Math.min(H - 1, Math.ceil(Math.max(...q.map((p) => p[1])) + reach));
  const t = (rect.angle * Math.PI) / 180, ux = Math.cos(t), uy = Math.sin(t);
  for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
    const px = x + 0.5 - rect.cx, py = y + 0.5 - rect.cy;
    const a = px * ux + py * uy + rect.width / 2, b = -px * uy + py * ux + rect.height / 2;
    const inside = Math.min(a, rect.width - a, b, rect.height - b);
    const cover = Math.max(0, Math.min(1, inside / soft + 0.5));
    if (cover > 0) visit(y * W + x, cover, a, b);
  }
}

function drawShadow(c: Canvas, W: number, H: number, rect: RotatedRect, s: Shadow): void {
  eachCovered(W, H, { ...rect, cx: rect.cx + s.dx, cy: rect.cy + s.dy }, s.soft, (i, cover) => {
    const k = 1 - s.strength * cover;
    for (let ch = 0; ch < 3; ch++) c[3 * i + ch] *= k;
  });
}

type Raster = { data: Float32Array; width: number; height: number };

function drawPrint(c: Canvas, W: number, H: number, rect: RotatedRect, print: Raster): void {
  const sx = print.width / rect.width, sy = print.height / rect.height;
  eachCovered(W, H, rect, 1, (i, cover, a, b) => {
    const px = Math.min(print.width - 1, Math.max(0, a * sx - 0.5)), py = Math.min(print.height - 1, Math.max(0, b * sy - 0.5));
    const x0 = Math.floor(px), y0 = Math.floor(py), x1 = Math.min(print.width - 1, x0 + 1), y1 = Math.min(print.height - 1, y0 + 1);
    const fx = px - x0, fy = py - y0, d = print.data, pw = print.width;
    const p00 = 3 * (y0 * pw + x0), p10 = 3 * (y0 * pw + x1), p01 = 3 * (y1 * pw + x0), p11 = 3 * (y1 * pw + x1);
    for (let ch = 0; ch < 3; ch++) {
      const v = (d[p00 + ch]! * (1 - fx) + d[p10 + ch]! * fx) * (1 - fy) + (d[p01 + ch]! * (1 - fx) + d[p11 + ch]! * fx) * fy;
      c[3 * i + ch] = cover * v + (1 - cover) * c[3 * i + ch]!;
    }
  });
}

/** The print as paper: its picture toned, inside a white border when it has one, at the scan's resolution. */
async function printRaster(r: Rng, p: Placed, mm: number): Promise<Raster> {
  const w = Math.max(8, Math.round(p.rect.width)), h = Math.max(8, Math.round(p.rect.height));
  const b = Math.round(p.border);
  const pw = w - 2 * b, ph = h - 2 * b;
  let source: Buffer | Uint8Array = p.picture.data;
  let raw = { width: p.picture.width, height: p.picture.height, channels: 3 as const };
  if (p.tone === 'old') {
    const png = await sharp(p.picture.data, { raw }).png().toBuffer();
    const aged = await oldPhoto(png, r.int(1, 1e9), 1024);
    source = aged.jpeg;
    raw = { width: aged.width, height: aged.height, channels: 3 };
  }
  const input = p.tone === 'old' ? sharp(source) : sharp(source, { raw });
  const pic = await input.resize(pw, ph, { fit: 'cover' }).blur(r.uniform(0.3, 0.2 + 0.25 * mm / 4)).removeAlpha().raw().toBuffer();
  const out = new Float32Array(w * h * 3);
  const cream = p.tone === 'colour' ? [r.uniform(238, 250), 0, 0] : [r.uniform(226, 246), 0, 0];
  const paper = [cream[0]!, cream[0]! - r.uniform(0, 6), cream[0]! - r.uniform(2, p.tone === 'colour' ? 8 : 24)];
  const tone = toneCurve(r, p.tone);
  // Photo paper is never black: its deepest black reflects 1–3 % of the light.
  const black = r.uniform(10, 24);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const o = 3 * (y * w + x);
    const inPic = x >= b && y >= b && x < b + pw && y < b + ph;
    if (!inPic) {
      for (let ch = 0; ch < 3; ch++) out[o + ch] = paper[ch]!;
      continue;
    }
    const s = 3 * ((y - b) * pw + (x - b));
    const rgb = tone(pic[s]!, pic[s + 1]!, pic[s + 2]!);
    for (let ch = 0; ch < 3; ch++) out[o + ch] = black + (1 - black / 255) * rgb[ch]!;
  }
  return { data: out, width: w, height: h };
}

/** How a print has aged: a colour cast, a fade (lifted blacks, dimmed whites, less colour), or underexposure. */
function toneCurve(r: Rng, tone: Tone): (R: number, G: number, B: number) => number[] {
  if (tone === 'faded') {
    const lift = r.uniform(0.12, 0.35), ceil = r.uniform(0.8, 0.95), sat = r.uniform(0.3, 0.7);
    const cast = [r.uniform(1, 1.08), r.uniform(0.92, 1), r.uniform(0.78, 0.95)];
    return (R, G, B) => {
      const y = 0.299 * R + 0.587 * G + 0.114 * B;
      return [R, G, B].map((v, ch) => 255 * (lift + (ceil - lift) * ((y + sat * (v - y)) / 255)) * cast[ch]!);
    };
  }
  if (tone === 'dark') {
    const gamma = r.uniform(1.6, 2.6), ceil = r.uniform(0.45, 0.75);
    return (R, G, B) => [R, G, B].map((v) => 255 * ceil * (v / 255) ** gamma);
  }
  const cast = tone === 'colour' ? [r.uniform(0.97, 1.03), 1, r.uniform(0.95, 1.03)] : [1, 1, 1];
  return (R, G, B) => [R * cast[0]!, G * cast[1]!, B * cast[2]!];
}

/** The lamp's uneven light over everything: a gradient across the glass and fall-off to the corners. */
function unevenLight(r: Rng, c: Canvas, W: number, H: number, amount: number): void {
  const dir = r.uniform(0, 2 * Math.PI), dx = Math.cos(dir), dy = Math.sin(dir);
  const grad = amount * r.uniform(0.4, 1), vig = amount - grad;
  const span = Math.abs(dx) * W + Math.abs(dy) * H;
  const R2 = (W * W + H * H) / 4;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const t = ((x - W / 2) * dx + (y - H / 2) * dy) / span + 0.5;
    const k = 1 - grad * t - vig * (((x - W / 2) ** 2 + (y - H / 2) ** 2) / R2);
    const i = 3 * (y * W + x);
    for (let ch = 0; ch < 3; ch++) c[i + ch] *= k;
  }
}

type Strip = { side: number; width: number; value: number };

/** The glass's edge: a dark strip, 0.3–3 mm, along one or two sides of the scan (left, right, top, bottom). */
function glassSpec(r: Rng, mm: number): Strip[] {
  const sides = r.chance(0.5) ? [r.int(0, 3)] : [r.int(0, 3), r.int(0, 3)];
  return [...new Set(sides)].map((side) => ({ side, width: r.uniform(0.3, 3) * mm, value: r.uniform(15, 90) }));
}

function glassEdge(strips: Strip[], c: Canvas, W: number, H: number): void {
  for (const { side, width, value } of strips) {
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const d = side === 0 ? x : side === 1 ? W - 1 - x : side === 2 ? y : H - 1 - y;
      if (d >= width + 1) continue;
      const k = Math.max(0, Math.min(1, width - d));
      const i = 3 * (y * W + x);
      for (let ch = 0; ch < 3; ch++) c[i + ch] = k * value + (1 - k) * c[i + ch]!;
    }
  }
}

/** Dust and hairs on the glass. */
function dust(r: Rng, c: Canvas, W: number, H: number, mm: number): void {
  const n = r.int(3, 30);
  for (let k = 0; k < n; k++) {
    const x = r.uniform(0, W), y = r.uniform(0, H), rad = r.uniform(0.1, 0.4) * mm, v = r.chance(0.7) ? r.uniform(10, 80) : r.uniform(200, 255);
    for (let yy = Math.max(0, Math.floor(y - rad)); yy <= Math.min(H - 1, Math.ceil(y + rad)); yy++) {
      for (let xx = Math.max(0, Math.floor(x - rad)); xx <= Math.min(W - 1, Math.ceil(x + rad)); xx++) {
        if ((xx - x) ** 2 + (yy - y) ** 2 > rad * rad) continue;
        for (let ch = 0; ch < 3; ch++) c[3 * (yy * W + xx) + ch] = v;
      }
    }
  }
  fibres(r, c, W, H, mm, r.int(0, 4), -60);
}

/** The scanner's slight blur, its noise, and 8 bits. */
function finish(r: Rng, c: Canvas, W: number, H: number, sigma: number): Buffer {
  const out = Buffer.alloc(W * H * 3);
  const blur = r.chance(0.6);
  // Gaussian noise from a table drawn once, read at random places (a full draw per value is most of a scan's time).
  const table = Float32Array.from({ length: 1 << 16 }, () => r.normal());
  let state = r.int(1, 2 ** 31);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = 3 * (y * W + x);
    for (let ch = 0; ch < 3; ch++) {
      let v = c[i + ch]!;
      if (blur && x > 0 && x < W - 1 && y > 0 && y < H - 1) {
        v = 0.5 * v + 0.125 * (c[i + ch - 3]! + c[i + ch + 3]! + c[i + ch - 3 * W]! + c[i + ch + 3 * W]!);
      }
      state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
      out[i + ch] = clamp255(v + sigma * table[state >>> 16]!);
    }
  }
  return out;
}

// ---- helpers ------------------------------------------------------------------------------------------------

/** Smooth value noise in [−1, 1] with features about `cell` pixels apart. */
export function valueNoise(W: number, H: number, cell: number, r: Rng): Float32Array {
  const gw = Math.ceil(W / cell) + 2, gh = Math.ceil(H / cell) + 2;
  const grid = Float32Array.from({ length: gw * gh }, () => r.uniform(-1, 1));
  const out = new Float32Array(W * H);
  const s = (t: number) => t * t * (3 - 2 * t);
  for (let y = 0; y < H; y++) {
    const gy = y / cell, y0 = Math.floor(gy), fy = s(gy - y0);
    for (let x = 0; x < W; x++) {
      const gx = x / cell, x0 = Math.floor(gx), fx = s(gx - x0);
      const a = grid[y0 * gw + x0]!, b = grid[y0 * gw + x0 + 1]!, c = grid[(y0 + 1) * gw + x0]!, d = grid[(y0 + 1) * gw + x0 + 1]!;
      out[y * W + x] = (a * (1 - fx) + b * fx) * (1 - fy) + (c * (1 - fx) + d * fx) * fy;
    }
  }
  return out;
}

function pick<T>(r: Rng, weights: Array<[T, number]>): T {
  let u = r.next() * weights.reduce((s, [, w]) => s + w, 0);
  for (const [v, w] of weights) if ((u -= w) < 0) return v;
  return weights[weights.length - 1]![0];
}

const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : Math.round(v));

export type { Point, Quad };

export type Answer = { whole: boolean; prints: { corners: Quad; angle: number }[] };
export type Scored = { countRight: boolean; prints: { iou: number; tilt: number | null }[] };

/** One scan's answer against its truth (see the header for the rules). */
export function scoreAnswer(truth: ScanTruth, answer: Answer): Scored {
  const countRight = truth.whole ? answer.whole : !answer.whole && answer.prints.length === truth.count;
  if (truth.whole) return { countRight, prints: [] };
  const pairs: Array<{ t: number; a: number; iou: number }> = [];
  truth.prints.forEach((t, ti) => answer.prints.forEach((a, ai) => {
    const iou = Math.max(quadIoU(a.corners, t.corners), quadIoU(a.corners, t.picture));
    if (iou > 0) pairs.push({ t: ti, a: ai, iou });
  }));
  pairs.sort((p, q) => q.iou - p.iou);
  const matched = new Map<number, { a: number; iou: number }>();
  const used = new Set<number>();
  for (const p of pairs) {
    if (matched.has(p.t) || used.has(p.a)) continue;
    matched.set(p.t, p);
    used.add(p.a);
  }
  return {
    countRight,
    prints: truth.prints.map((t, ti) => {
      const m = matched.get(ti);
      return { iou: m?.iou ?? 0, tilt: m && m.iou >= 0.5 ? angleGap(answer.prints[m.a]!.angle, t.angle) : null };
    }),
  };
}
