// The bed: what the prints lie on (the scanner's lid, a card, paper, an album page), and how far each pixel of
// the scan is from it. The bed's colour is read where it is bare — a ring just inside the scan's edges, and cells
// across the scan that look like that ring — and its light is fitted as a smooth surface (a quadratic in x and y
// per channel), so a lamp that lights one side brighter than the other does not look like a print.
import { boxMean } from '../shared';
import { SPLIT } from './thresholds';

/** The part of the detection copy inside the glass's edge strips: x0 ≤ x < x1, y0 ≤ y < y1. */
export type Area = { x0: number; y0: number; x1: number; y1: number };

type Planes = readonly [Float32Array, Float32Array, Float32Array];

/** A patch's colour: per channel median, and its robust spread (1.4826 × the largest channel's MAD). */
export type Patch = { x0: number; y0: number; x1: number; y1: number; x: number; y: number; colour: [number, number, number]; spread: number };

/**
 * The glass's edge: lines along a side of the scan that are one colour along their whole length (a strip where
 * the lid does not reach), followed further in by lines of one other colour (the bed). A print lying near the edge
 * makes lines of many colours, and bare bed up to the edge makes no change of colour: neither is trimmed.
 */
export function trimGlassEdge(planes: Planes, w: number, h: number): Area {
  const depth = Math.max(1, Math.round(SPLIT.frameDepth * Math.min(w, h)));
  const at = (side: number, d: number, t: number) => (side === 0 ? t * w + d : side === 1 ? t * w + (w - 1 - d) : side === 2 ? d * w + t : (h - 1 - d) * w + t);
  /** A line's median colour, or null when it is not one colour along its middle 80 %. */
  const uniform = (side: number, d: number): number[] | null => {
    const n = side < 2 ? h : w, t0 = Math.round(0.1 * n), t1 = Math.round(0.9 * n);
    const px = [0, 1, 2].map((c) => Float32Array.from({ length: t1 - t0 }, (_, k) => planes[c]![at(side, d, t0 + k)]!));
    const m = px.map((p) => median(p));
    let near = 0;
    for (let k = 0; k < t1 - t0; k++) if (dist3([px[0]![k]!, px[1]![k]!, px[2]![k]!], m) <= SPLIT.frameSpread) near++;
    return near >= SPLIT.frameLine * (t1 - t0) ? m : null;
  };
  const trimmed = [0, 0, 0, 0];
  for (let side = 0; side < 4; side++) {
    const strip = uniform(side, 0);
    if (!strip) continue;
    for (let d = 1; d <= depth + 1; d++) {
      const m = uniform(side, d);
      if (!m) break;
      if (dist3(m, strip) > 20) {
        // One line more: the strip's blurred edge.
        trimmed[side] = d + 1;
        break;
      }
    }
  }
  return { x0: trimmed[0]!, x1: w - trimmed[1]!, y0: trimmed[2]!, y1: h - trimmed[3]! };
}

/** The ring's segments, each a patch of the band between SPLIT.ringFrom and SPLIT.ringTo inside `area`'s edges. */
export function ringPatches(planes: Planes, w: number, area: Area): Patch[] {
  const aw = area.x1 - area.x0, ah = area.y1 - area.y0;
  const short = Math.min(aw, ah);
  const d0 = Math.round(SPLIT.ringFrom * short), d1 = Math.max(d0 + 2, Math.round(SPLIT.ringTo * short));
  const perSide = (len: number) => Math.max(2, Math.round((SPLIT.ringSegments * len) / (2 * (aw + ah))));
  const patches: Patch[] = [];
  const add = (x0: number, y0: number, x1: number, y1: number) => patches.push(patch(planes, w, x0, y0, x1, y1));
  for (const [len, horizontal] of [[aw, true], [ah, false]] as const) {
    const k = perSide(len);
    for (let s = 0; s < k; s++) {
      const a = Math.round((s * len) / k), b = Math.round(((s + 1) * len) / k);
      if (horizontal) {
        add(area.x0 + a, area.y0 + d0, area.x0 + b, area.y0 + d1);
        add(area.x0 + a, area.y1 - d1, area.x0 + b, area.y1 - d0);
      } else {
        add(area.x0 + d0, area.y0 + a, area.x0 + d1, area.y0 + b);
        add(area.x1 - d1, area.y0 + a, area.x1 - d0, area.y0 + b);
      }
    }
  }
  return patches;
}

/** A rectangle's patch statistics, from histograms of its rounded values. */
function patch(planes: Planes, w: number, x0: number, y0: number, x1: number, y1: number): Patch {
  const hist = new Uint32Array(256 * 3);
  // The planes are means of 8-bit values: 0…255, rounded here to whole levels.
  for (let c = 0; c < 3; c++) {
    const p = planes[c]!, o = 256 * c;
    for (let y = y0; y < y1; y++) for (let i = y * w + x0, end = y * w + x1; i < end; i++) hist[o + ((p[i]! + 0.5) | 0)]!++;
  }
  const n = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  const colour = [0, 0, 0] as [number, number, number];
  let spread = 0;
  for (let c = 0; c < 3; c++) {
    const h = hist.subarray(256 * c, 256 * c + 256);
    const med = histQuantile(h, n, 0.5);
    const dev = new Uint32Array(256);
    for (let v = 0; v < 256; v++) dev[Math.abs(v - med)]! += h[v]!;
    colour[c] = med;
    spread = Math.max(spread, 1.4826 * histQuantile(dev, n, 0.5));
  }
  return { x0, y0, x1, y1, x: (x0 + x1) / 2, y: (y0 + y1) / 2, colour, spread };
}

function histQuantile(h: Uint32Array, n: number, q: number): number {
  let acc = 0;
  for (let v = 0; v < h.length; v++) {
    acc += h[v]!;
    if (acc >= q * n) return v;
  }
  return h.length - 1;
}

export type BedModel = {
  /** The typical distance of a bare-bed pixel from the bed's colour (levels): scanner noise and the bed's grain … */
  noise: number;
  /** … and the distance 99 % of them stay under (a grainy or mottled paper has a long tail). */
  tail: number;
  /** Each pixel's distance from the bed's colour at its place (levels). */
  dist: Float32Array;
  /** The patches of bare bed the noise was read on. */
  bare: Patch[];
  /** Share of the ring's segments that are flat (bare bed). */
  flatShare: number;
  /** The ring's typical spread (levels): a patterned page's pattern shows here. */
  ringSpread: number;
};

/**
 * The bed's colour across the scan, or null when the ring shows no bed (too few flat segments: a photo, or a
 * patterned page). Flat ring segments and the cells of the scan that look like them are fitted with a quadratic
 * surface per channel; cells that stray from the fit (prints that happen to share the bed's colour) are dropped
 * and the surface fitted again.
 */
export function bedModel(planes: Planes, w: number, h: number, area: Area): BedModel | { flatShare: number; ringSpread: number; ringDrift: number } {
  const ring = ringPatches(planes, w, area);
  const flat = ring.filter((p) => p.spread <= SPLIT.flatSpread);
  const flatShare = flat.length / ring.length;
  const ringSpread = median(ring.map((p) => p.spread));
  if (flatShare < SPLIT.flatShare) {
    // How far the segments' colours stray from the ring's: a pattern repeats all round, a photo's edges differ.
    const mid = [0, 1, 2].map((c) => median(ring.map((p) => p.colour[c]!)));
    return { flatShare, ringSpread, ringDrift: median(ring.map((p) => dist3(p.colour, mid))) };
  }

  const base = [0, 1, 2].map((c) => median(flat.map((p) => p.colour[c]!)));
  const grain = Math.max(1, median(flat.map((p) => p.spread)));
  // How far the light moves the bed's colour around the ring: cells inside may stray as far.
  const light = Math.max(...flat.map((p) => dist3(p.colour, base)));
  const cells: Patch[] = [];
  const cell = SPLIT.bedCell;
  for (let y = area.y0; y + cell / 2 < area.y1; y += cell) {
    for (let x = area.x0; x + cell / 2 < area.x1; x += cell) {
      const c = patch(planes, w, x, y, Math.min(area.x1, x + cell), Math.min(area.y1, y + cell));
      if (c.spread <= Math.max(2.5 * grain, grain + 4) && dist3(c.colour, base) <= light + Math.max(12, 4 * grain)) cells.push(c);
    }
  }
  let samples = [...flat, ...cells];
  let fit = fitSurface(samples, w, h);
  for (let round = 0; round < 3 && fit; round++) {
    const off = samples.map((s) => dist3(s.colour, evalSurface(fit!, s.x, s.y, w, h)));
    const limit = Math.max(6, 3 * 1.4826 * median(off));
    const kept = samples.filter((_, k) => off[k]! <= limit);
    if (kept.length === samples.length) break;
    samples = kept;
    fit = fitSurface(samples, w, h);
  }
  const bare = flat.filter((p) => samples.includes(p));
  const dist = distanceFromSurface(planes, fit ?? base.map((v) => [v, 0, 0, 0, 0, 0]), w, h);
  const spread = bareSpread(dist, w, bare);
  return { dist, bare, noise: Math.max(0.5, spread(0.5)), tail: Math.max(1, spread(0.99)), flatShare, ringSpread };
}

/**
 * A plane's quantiles over the bare bed (the flat ring segments, which are bed for certain: cells inside may be a
 * print's patch that happens to share the bed's colour). A flat segment may still hold a corner of a print lying
 * near the edge (its spread is robust to a minority of other pixels): values far beyond the bed's own spread are
 * left out first.
 */
export function bareSpread(plane: Float32Array, w: number, bare: readonly Patch[]): (q: number) => number {
  // Every other pixel of every other row: a quarter of the ring is thousands of pixels, plenty for a 99th percentile.
  const values: number[] = [];
  for (const s of bare) for (let y = s.y0; y < s.y1; y += 2) for (let i = y * w + s.x0, end = y * w + s.x1; i < end; i += 2) values.push(plane[i]!);
  const all = Float32Array.from(values).sort();
  const mid = quantile(all, 0.5);
  const dev = all.map((v) => Math.abs(v - mid)).sort();
  const kept = all.subarray(0, upperBound(all, mid + 10 * 1.4826 * quantile(dev, 0.5) + 2));
  return (q) => quantile(kept, q);
}

/** How busy the picture is around each pixel: the mean, over a 5 × 5 window, of the luminance's gradient. A
 * print's detail is busy where its colour happens to be the bed's; the bed is not. */
export function busyness(planes: Planes, w: number, h: number): Float32Array {
  const [r, g, b] = planes;
  const y = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) y[i] = 0.299 * r[i]! + 0.587 * g[i]! + 0.114 * b[i]!;
  const grad = new Float32Array(w * h);
  for (let yy = 1; yy < h - 1; yy++) {
    for (let x = 1, i = yy * w + 1; x < w - 1; x++, i++) grad[i] = Math.abs(y[i + 1]! - y[i - 1]!) + Math.abs(y[i + w]! - y[i - w]!);
  }
  return boxMean(grad, w, h, 2);
}

/** Each pixel's distance (levels) from the bed's colour at its place: the fitted surface, a quadratic per row. */
function distanceFromSurface(planes: Planes, fit: number[][], w: number, h: number): Float32Array {
  const out = new Float32Array(w * h);
  const [r, g, b] = planes;
  const row = fit.map(() => new Float32Array(w));
  for (let y = 0; y < h; y++) {
    const v = (2 * (y + 0.5)) / h - 1;
    fit.forEach((k, c) => {
      // Along a row the surface is a + b·u + c·u².
      const a = k[0]! + k[2]! * v + k[5]! * v * v, bu = k[1]! + k[4]! * v, cu = k[3]!, plane = row[c]!;
      for (let x = 0; x < w; x++) {
        const u = (2 * (x + 0.5)) / w - 1;
        plane[x] = a + u * (bu + cu * u);
      }
    });
    const [fr, fg, fb] = row as [Float32Array, Float32Array, Float32Array];
    for (let x = 0, i = y * w; x < w; x++, i++) {
      const dr = r[i]! - fr[x]!, dg = g[i]! - fg[x]!, db = b[i]! - fb[x]!;
      out[i] = Math.sqrt(dr * dr + dg * dg + db * db);
    }
  }
  return out;
}

// A quadratic surface per channel over coordinates scaled to [−1, 1]: 6 coefficients each.
type Surface = number[][];

const terms = (x: number, y: number, w: number, h: number) => {
  const u = (2 * x) / w - 1, v = (2 * y) / h - 1;
  return [1, u, v, u * u, u * v, v * v];
};

function fitSurface(samples: Patch[], w: number, h: number): Surface | null {
  if (samples.length < 12) return null;
  const A = Array.from({ length: 6 }, () => new Array<number>(6).fill(0));
  const b = [0, 1, 2].map(() => new Array<number>(6).fill(0));
  for (const s of samples) {
    const t = terms(s.x, s.y, w, h);
    for (let i = 0; i < 6; i++) {
      for (let j = 0; j < 6; j++) A[i]![j]! += t[i]! * t[j]!;
      for (let c = 0; c < 3; c++) b[c]![i]! += t[i]! * s.colour[c]!;
    }
  }
  // A little ridge: samples only along the ring leave the cross term poorly fixed.
  for (let i = 1; i < 6; i++) A[i]![i]! += 1e-3 * samples.length;
  const out = b.map((rhs) => solve(A.map((row) => [...row]), [...rhs]));
  return out.every((x) => x) ? (out as Surface) : null;
}

function evalSurface(s: Surface, x: number, y: number, w: number, h: number): number[] {
  const t = terms(x, y, w, h);
  return s.map((k) => k.reduce((acc, v, i) => acc + v * t[i]!, 0));
}

/** Gaussian elimination with partial pivoting; null when singular. */
function solve(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(A[r]![col]!) > Math.abs(A[piv]![col]!)) piv = r;
    if (Math.abs(A[piv]![col]!) < 1e-12) return null;
    [A[col], A[piv]] = [A[piv]!, A[col]!];
    [b[col], b[piv]] = [b[piv]!, b[col]!];
    for (let r = col + 1; r < n; r++) {
      const f = A[r]![col]! / A[col]![col]!;
      for (let k = col; k < n; k++) A[r]![k]! -= f * A[col]![k]!;
      b[r]! -= f * b[col]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = b[r]!;
    for (let k = r + 1; k < n; k++) s -= A[r]![k]! * x[k]!;
    x[r] = s / A[r]![r]!;
  }
  return x;
}

/** The p-quantile of sorted values (nearest rank below). */
const quantile = (sorted: Float32Array | Float64Array, p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]! : 0);

/** How many sorted values are at most v. */
function upperBound(sorted: Float32Array | Float64Array, v: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const m = (lo + hi) >> 1;
    if (sorted[m]! <= v) lo = m + 1;
    else hi = m;
  }
  return lo;
}

export function median(xs: ArrayLike<number>): number {
  if (!xs.length) return 0;
  const s = Float64Array.from(xs).sort();
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const dist3 = (a: readonly number[], b: readonly number[]) => {
  const dr = a[0]! - b[0]!, dg = a[1]! - b[1]!, db = a[2]! - b[2]!;
  return Math.sqrt(dr * dr + dg * dg + db * db);
};
