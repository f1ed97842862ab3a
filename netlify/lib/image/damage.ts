// Damage detection on an L* plane (0..100): film and print scratches, dust specks and fibres.
//
// Lines: a thin-ridge detector (a short line through the pixel lighter or darker than *both* parallel lines
// beside it, on flat shoulders) at 12 orientations, followed by hysteresis along the ridge's direction. A
// segment is kept as damage when it is long, or shorter but alone on quiet ground (texture, lettering and grids
// are crowds of short ridges). A kept scratch is then followed as a path beyond its ends and across gaps, so a
// faint stretch between two strong ones is removed too.
// Specks: a pixel lighter or darker than every point of a ring 4 px around it, alone in its neighbourhood.

import { boxMean } from './planes';

export type DamageOptions = {
  /** Seed and grow thresholds of the line hysteresis, in units of the ridge noise. */
  seed: number;
  grow: number;
  /** Speck contrast over the brightest (darkest) point of the ring, in units of the pixel noise. */
  speck: number;
};

export const DAMAGE_DEFAULTS: DamageOptions = { seed: 4, grow: 2, speck: 6 };

const K = 12;
const HALF = 4;

/** Unit direction of orientation k of K (0 = horizontal line), over 180°. */
function direction(k: number): [number, number] {
  const a = (Math.PI * k) / K;
  return [Math.cos(a), Math.sin(a)];
}

/** Mean of `src` over 2·half+1 samples along (ux, uy) through each pixel (nearest sample, clamped). */
export function orientedMean(src: Float32Array, w: number, h: number, ux: number, uy: number, half: number, out = new Float32Array(w * h)): Float32Array {
  const n = 2 * half + 1, ox = new Int32Array(n), oy = new Int32Array(n), off = new Int32Array(n);
  for (let k = -half; k <= half; k++) { ox[k + half] = Math.round(k * ux); oy[k + half] = Math.round(k * uy); }
  for (let k = 0; k < n; k++) off[k] = oy[k] * w + ox[k];
  const mx = Math.abs(ox[0]), my = Math.abs(oy[0]);
  for (let y = 0; y < h; y++) {
    const inY = y >= my && y < h - my;
    for (let x = 0; x < w; x++) {
      const i = y * w + x;
      let s = 0;
      if (inY && x >= mx && x < w - mx) {
        for (let k = 0; k < n; k++) s += src[i + off[k]];
      } else {
        for (let k = 0; k < n; k++) {
          const xx = Math.min(w - 1, Math.max(0, x + ox[k])), yy = Math.min(h - 1, Math.max(0, y + oy[k]));
          s += src[yy * w + xx];
        }
      }
      out[i] = s / n;
    }
  }
  return out;
}

/**
 * Ridge contrast of a line profile: centre `a`, near shoulders (2–3 px) `pn`, `qn`, far shoulders (5–6 px) `pf`,
 * `qf`. Positive for a light line, negative for a dark one, 0 for an edge or the flank of a wider structure.
 */
function ridge(a: number, pn: number, qn: number, pf: number, qf: number): number {
  const light = a - Math.max(pn, qn);
  if (light > 0) {
    const r = light - 2 * Math.max(pn - pf, qn - qf, 0);
    return r > 0 ? r : 0;
  }
  const dark = Math.min(pn, qn) - a;
  if (dark > 0) {
    const r = dark - 2 * Math.max(pf - pn, qf - qn, 0);
    return r > 0 ? -r : 0;
  }
  return 0;
}

export type RidgeMap = { R: Float32Array; dir: Uint8Array; /** Robust spread of the unclamped contrast. */ noise: number };

/** Strongest signed ridge contrast over the orientations, and its orientation. */
export function ridgeMap(L: Float32Array, w: number, h: number): RidgeMap {
  const R = new Float32Array(w * h), dir = new Uint8Array(w * h);
  const spreads: number[] = [];
  const m = 6, buf = new Float32Array(w * h);
  for (let k = 0; k < K; k++) {
    const [ux, uy] = direction(k);
    const A = orientedMean(L, w, h, ux, uy, HALF, buf);
    const d = [2, 3, 5, 6].map((s) => [Math.round(-s * uy), Math.round(s * ux)]);
    const off = d.map(([dx, dy]) => dy * w + dx);
    const at = (x: number, y: number, j: number, sign: number) =>
      A[Math.min(h - 1, Math.max(0, y + sign * d[j][1])) * w + Math.min(w - 1, Math.max(0, x + sign * d[j][0]))];
    const sample: number[] = [];
    for (let y = 0; y < h; y++) {
      const inner = y >= m && y < h - m;
      for (let x = 0; x < w; x++) {
        const i = y * w + x;
        let pn, qn, pf, qf;
        if (inner && x >= m && x < w - m) {
          pn = (A[i + off[0]] + A[i + off[1]]) / 2; pf = (A[i + off[2]] + A[i + off[3]]) / 2;
          qn = (A[i - off[0]] + A[i - off[1]]) / 2; qf = (A[i - off[2]] + A[i - off[3]]) / 2;
        } else {
          pn = (at(x, y, 0, 1) + at(x, y, 1, 1)) / 2; pf = (at(x, y, 2, 1) + at(x, y, 3, 1)) / 2;
          qn = (at(x, y, 0, -1) + at(x, y, 1, -1)) / 2; qf = (at(x, y, 2, -1) + at(x, y, 3, -1)) / 2;
        }
        const a = A[i];
        if (x === (y * 7) % w) sample.push(Math.abs(a - (pn + qn) / 2), Math.abs(A[i + 1 < w * h ? i + 1 : i] - (pn + qn) / 2));
        const r = ridge(a, pn, qn, pf, qf);
        if (Math.abs(r) > Math.abs(R[i])) { R[i] = r; dir[i] = k; }
      }
    }
    sample.sort((p, q) => p - q);
    spreads.push(1.4826 * sample[sample.length >> 1]);
  }
  spreads.sort((p, q) => p - q);
  return { R, dir, noise: spreads[spreads.length >> 1] || 1e-3 };
}

/** Ridge contrast at one point for a direction (ux, uy): the same measure as ridgeMap, computed on demand. */
export function ridgeAt(L: Float32Array, w: number, h: number, x: number, y: number, ux: number, uy: number): number {
  const mean = (ox: number, oy: number) => {
    let s = 0;
    for (let k = -HALF; k <= HALF; k++) {
      const xx = Math.min(w - 1, Math.max(0, Math.round(x + ox + k * ux))), yy = Math.min(h - 1, Math.max(0, Math.round(y + oy + k * uy)));
      s += L[yy * w + xx];
    }
    return s / (2 * HALF + 1);
  };
  const nx = -uy, ny = ux;
  const side = (s: number) => (mean(Math.round(s * 2 * nx), Math.round(s * 2 * ny)) + mean(Math.round(s * 3 * nx), Math.round(s * 3 * ny))) / 2;
  const far = (s: number) => (mean(Math.round(s * 5 * nx), Math.round(s * 5 * ny)) + mean(Math.round(s * 6 * nx), Math.round(s * 6 * ny))) / 2;
  return ridge(mean(0, 0), side(1), side(-1), far(1), far(-1));
}

export type Segment = {
  pixels: number[];
  sign: 1 | -1;
  /** Principal direction, centroid, and the extreme points along the direction. */
  ux: number; uy: number; cx: number; cy: number;
  ends: [[number, number], [number, number]];
  /** Extent along the principal direction, and pixels per unit of it. */
  length: number; width: number;
};

/**
 * Hysteresis on the ridge map: seeds above `hi`, grown through 8-neighbours above `lo` with the same sign and an
 * orientation at most one step apart, so a line is followed while it fades and stops where it turns into texture.
 */
export function lineSegments(rm: RidgeMap, w: number, h: number, hi: number, lo: number): Segment[] {
  const { R, dir } = rm;
  const n = w * h, seen = new Uint8Array(n), out: Segment[] = [];
  const stack: number[] = [];
  for (let s = 0; s < n; s++) {
    if (seen[s] || Math.abs(R[s]) < hi) continue;
    const sign = R[s] > 0 ? 1 : -1;
    const pixels: number[] = [];
    seen[s] = 1; stack.push(s);
    while (stack.length) {
      const p = stack.pop()!;
      pixels.push(p);
      const x = p % w, y = (p - x) / w, dp = dir[p];
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const q = yy * w + xx;
        if (seen[q] || R[q] * sign < lo) continue;
        const dd = Math.abs(dir[q] - dp);
        if (Math.min(dd, K - dd) > 1) continue;
        seen[q] = 1; stack.push(q);
      }
    }
    out.push(describe(pixels, w, sign));
  }
  return out;
}

function describe(pixels: number[], w: number, sign: 1 | -1): Segment {
  let sx = 0, sy = 0;
  for (const p of pixels) { const x = p % w; sx += x; sy += (p - x) / w; }
  const m = pixels.length, cx = sx / m, cy = sy / m;
  let xx = 0, yy = 0, xy = 0;
  for (const p of pixels) { const x = (p % w) - cx, y = (p - (p % w)) / w - cy; xx += x * x; yy += y * y; xy += x * y; }
  const a = 0.5 * Math.atan2(2 * xy, xx - yy), ux = Math.cos(a), uy = Math.sin(a);
  let lo = Infinity, hi = -Infinity;
  for (const p of pixels) {
    const t = ((p % w) - cx) * ux + ((p - (p % w)) / w - cy) * uy;
    if (t < lo) lo = t; if (t > hi) hi = t;
  }
  return {
    pixels, sign, ux, uy, cx, cy,
    ends: [[cx + lo * ux, cy + lo * uy], [cx + hi * ux, cy + hi * uy]],
    length: hi - lo + 1, width: m / (hi - lo + 1),
  };
}

/**
 * Pixels with a strong gradient on the 3×3-smoothed plane, beyond `k` times the photo's median gradient (which
 * flat areas and their grain set): edges and texture.
 */
export function activityMap(L: Float32Array, w: number, h: number, k: number): Uint8Array {
  const S = boxMean3(L, w, h), g = new Float32Array(w * h), a = new Uint8Array(w * h);
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
    const i = y * w + x;
    g[i] = Math.abs(S[i + 1] - S[i - 1]) + Math.abs(S[i + w] - S[i - w]);
  }
  const sample: number[] = [];
  for (let i = 0; i < g.length; i += 7) sample.push(g[i]);
  sample.sort((p, q) => p - q);
  const thr = k * sample[sample.length >> 1];
  for (let i = 0; i < g.length; i++) if (g[i] > thr) a[i] = 1;
  return a;
}

/** 3×3 mean (edges clamped). */
function boxMean3(L: Float32Array, w: number, h: number): Float32Array {
  const t = new Float32Array(w * h), o = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    t[i] = (L[y * w + Math.max(0, x - 1)] + L[i] + L[y * w + Math.min(w - 1, x + 1)]) / 3;
  }
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    o[y * w + x] = (t[Math.max(0, y - 1) * w + x] + t[y * w + x] + t[Math.min(h - 1, y + 1) * w + x]) / 3;
  }
  return o;
}

/**
 * Share of a segment's length along which its surroundings are quiet: few active pixels (edges, texture)
 * within `r` px, not counting the segment's own 2-px band. Lettering, grids, foliage and fabric are busy; a
 * scratch over sky, skin or a wall is alone.
 */
export function quietShare(seg: Segment, act: Uint8Array, stamp: Int32Array, id: number, w: number, h: number, r = 7): number {
  for (const p of seg.pixels) {
    const x = p % w, y = (p - x) / w;
    for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) {
      const xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h) stamp[yy * w + xx] = id;
    }
  }
  const limit = 0.06 * (2 * r + 1) ** 2;
  let quiet = 0, samples = 0;
  for (let j = 0; j < seg.pixels.length; j += 3) {
    const p = seg.pixels[j], x = p % w, y = (p - x) / w;
    let busy = 0;
    for (let yy = Math.max(0, y - r); yy <= Math.min(h - 1, y + r); yy++) {
      const row = yy * w;
      for (let xx = Math.max(0, x - r); xx <= Math.min(w - 1, x + r); xx++) if (act[row + xx] && stamp[row + xx] !== id) busy++;
    }
    samples++;
    if (busy <= limit) quiet++;
  }
  return samples ? quiet / samples : 0;
}

/**
 * Follows a scratch beyond one end: steps along its direction, each time taking the best of the three pixels
 * across, while the ridge contrast of the last dozen steps keeps the scratch's sign and stays above `floor`.
 * The direction turns slowly with the path, so gentle curves are followed. Returns the pixels passed.
 */
function follow(L: Float32Array, w: number, h: number, seg: Segment, end: 0 | 1, floor: number, maxSteps: number): number[] {
  let [x, y] = seg.ends[end];
  let ux = end ? seg.ux : -seg.ux, uy = end ? seg.uy : -seg.uy;
  const path: number[] = [], window: number[] = [];
  let sum = 0;
  for (let step = 0; step < maxSteps; step++) {
    const nx = x + ux, ny = y + uy;
    let best = -Infinity, bx = nx, by = ny;
    for (const d of [0, -1, 1]) {
      const cx = nx - d * uy, cy = ny + d * ux;
      if (cx < 0 || cy < 0 || cx > w - 1 || cy > h - 1) continue;
      const c = seg.sign * ridgeAt(L, w, h, cx, cy, ux, uy) - (d ? 0.1 * floor : 0);
      if (c > best) { best = c; bx = cx; by = cy; }
    }
    if (best === -Infinity) break;
    window.push(best); sum += best;
    if (window.length > 12) sum -= window.shift()!;
    if (window.length >= 6 && sum / window.length < floor) break;
    // Half a pixel of lateral correction per step: the path bends with the scratch, not with the grain.
    const px = (x + ux + bx) / 2 - x, py = (y + uy + by) / 2 - y;
    x += px; y += py;
    const norm = Math.hypot(ux * 0.9 + px * 0.1, uy * 0.9 + py * 0.1);
    ux = (ux * 0.9 + px * 0.1) / norm; uy = (uy * 0.9 + py * 0.1) / norm;
    path.push(Math.round(y) * w + Math.round(x));
  }
  // Drop the tail taken after the contrast faded.
  return path.slice(0, Math.max(0, path.length - 6));
}

export type DamageReport = { mask: Uint8Array; scratches: number; specks: number; noise: number };

/** Pixel noise of the plane: robust spread of the difference to the mean of the 4 neighbours (≤ 100k samples). */
export function pixelNoise(L: Float32Array, w: number, h: number): number {
  const step = Math.max(1, Math.floor(Math.sqrt(((w - 2) * (h - 2)) / 100_000)));
  const s: number[] = [];
  for (let y = 1; y < h - 1; y += step) for (let x = 1 + (y % step); x < w - 1; x += step) {
    const i = y * w + x;
    s.push(Math.abs(L[i] - (L[i - 1] + L[i + 1] + L[i - w] + L[i + w]) / 4));
  }
  const sorted = Float32Array.from(s).sort();
  return (1.4826 * (sorted[sorted.length >> 1] || 1e-3)) / Math.sqrt(1.25);
}

const RING: [number, number][] = Array.from({ length: 16 }, (_, k) => [Math.round(4 * Math.cos((k * Math.PI) / 8)), Math.round(4 * Math.sin((k * Math.PI) / 8))]);

/**
 * Dust specks: pixels beyond every point of the ring 4 px around them by more than `thr`, in small groups with
 * no other outliers (even weak ones, beyond `weak`) within 7 px: grain clumps and texture come in crowds.
 */
export function speckMask(L: Float32Array, w: number, h: number, thr: number, weak: number): Uint8Array {
  const cand = new Int8Array(w * h), weakSet = new Uint8Array(w * h);
  const ring = Int32Array.from(RING, ([dx, dy]) => dy * w + dx);
  for (let y = 4; y < h - 4; y++) for (let x = 4; x < w - 4; x++) {
    const i = y * w + x, v = L[i];
    let lo = Infinity, hi = -Infinity;
    for (let k = 0; k < 16; k++) { const r = L[i + ring[k]]; if (r < lo) lo = r; if (r > hi) hi = r; }
    const c = v - hi > 0 ? v - hi : lo - v > 0 ? -(lo - v) : 0;
    if (Math.abs(c) > weak) weakSet[i] = 1;
    // The ring must be flat next to the speck: on texture its own spread exceeds any speck's contrast.
    if (Math.abs(c) < thr || Math.abs(c) < 1.5 * (hi - lo)) continue;
    cand[i] = c > 0 ? 1 : -1;
  }
  const mask = new Uint8Array(w * h), seen = new Uint8Array(w * h), stack: number[] = [];
  for (let s = 0; s < w * h; s++) {
    if (!cand[s] || seen[s]) continue;
    const sign = cand[s], px: number[] = [];
    seen[s] = 1; stack.push(s);
    // The group: candidates of one sign and the weak outliers around them (the speck's own flanks).
    while (stack.length) {
      const p = stack.pop()!;
      px.push(p);
      const x = p % w, y = (p - x) / w;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const q = (y + dy) * w + x + dx;
        if (q >= 0 && q < w * h && !seen[q] && (cand[q] === sign || weakSet[q])) { seen[q] = 1; stack.push(q); }
      }
    }
    if (px.length > 30) continue;
    let x0 = w, x1 = 0, y0 = h, y1 = 0;
    for (const p of px) { const x = p % w, y = (p - x) / w; if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y; }
    let others = 0;
    for (let yy = Math.max(0, y0 - 7); yy <= Math.min(h - 1, y1 + 7); yy++) for (let xx = Math.max(0, x0 - 7); xx <= Math.min(w - 1, x1 + 7); xx++) {
      const q = yy * w + xx;
      if (weakSet[q] && !seen[q]) others++;
    }
    if (others > 2) continue;
    for (const p of px) mask[p] = 1;
  }
  return mask;
}

/** Damage mask (1 = damaged) of an L* plane. */
export function detectDamage(L: Float32Array, w: number, h: number, opts: DamageOptions = DAMAGE_DEFAULTS): DamageReport {
  const rm = ridgeMap(L, w, h);
  const s = rm.noise;
  const segs = lineSegments(rm, w, h, opts.seed * s, opts.grow * s);
  const px = pixelNoise(L, w, h);
  const busy = activityMap(L, w, h, 4), stamp = new Int32Array(w * h);
  const side = Math.max(w, h);
  const mask = new Uint8Array(w * h), path = new Uint8Array(w * h);
  const kept: Segment[] = [];
  let id = 0;
  for (const g of segs) {
    // Long and thin, and not along a busy stretch for most of its length (hair, grass and fabric are long
    // thin strokes too, but among many others). Short strokes are left to the outlier pass.
    if (g.length < Math.max(40, 0.08 * side) || g.width > 2) continue;
    if (quietShare(g, busy, stamp, ++id, w, h) <= 0.7) continue;
    kept.push(g);
    for (const p of g.pixels) mask[p] = 1;
    for (const end of [0, 1] as const) for (const p of follow(L, w, h, g, end, 1.5 * s, side)) path[p] = 1;
  }
  // A scratch is one path: pieces that line up are joined across the gap, however faint it is there.
  for (const [x0, y0, x1, y1] of bridges(kept, side)) {
    const n = Math.ceil(Math.hypot(x1 - x0, y1 - y0));
    for (let t = 0; t <= n; t++) path[Math.round(y0 + ((y1 - y0) * t) / n) * w + Math.round(x0 + ((x1 - x0) * t) / n)] = 1;
  }
  const specks = speckMask(L, w, h, opts.speck * px, 3 * px);
  let nSpecks = 0;
  for (let i = 0; i < w * h; i++) if (specks[i] && !mask[i]) { mask[i] = 1; nSpecks++; }
  // Only the pixels that stand out on the damage's side of their surroundings, then one pixel of rim: a
  // scratch's and a speck's soft edge go too.
  const bg = boxMean(L, w, h, 3);
  for (let i = 0; i < w * h; i++) if (mask[i] && Math.abs(L[i] - bg[i]) < 1.5 * px) mask[i] = 0;
  for (let i = 0; i < w * h; i++) mask[i] |= path[i];
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (!mask[y * w + x]) continue;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h) out[yy * w + xx] = 1;
    }
  }
  return { mask: out, scratches: kept.length, specks: nSpecks, noise: s };
}

/**
 * Gaps to bridge between kept segments of one sign that continue each other: parallel within 10°, the gap
 * itself along the same line, the far piece within 3 px of the near one's extension.
 */
export function bridges(segs: Segment[], side: number): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  const cos10 = Math.cos((10 * Math.PI) / 180);
  for (let a = 0; a < segs.length; a++) for (let b = a + 1; b < segs.length; b++) {
    const A = segs[a], B = segs[b];
    if (A.sign !== B.sign || Math.abs(A.ux * B.ux + A.uy * B.uy) < cos10) continue;
    // Nearest pair of ends.
    let best: [number, number, number, number] | null = null, bd = Infinity;
    for (const ea of A.ends) for (const eb of B.ends) {
      const d = Math.hypot(ea[0] - eb[0], ea[1] - eb[1]);
      if (d < bd) { bd = d; best = [ea[0], ea[1], eb[0], eb[1]]; }
    }
    if (!best || bd < 2 || bd > 0.5 * side) continue;
    const gx = (best[2] - best[0]) / bd, gy = (best[3] - best[1]) / bd;
    if (Math.abs(gx * A.ux + gy * A.uy) < cos10 || Math.abs(gx * B.ux + gy * B.uy) < cos10) continue;
    // Offset of B's end from A's line.
    const off = Math.abs(-(best[2] - A.cx) * A.uy + (best[3] - A.cy) * A.ux);
    if (off > 3 + 0.02 * bd) continue;
    out.push(best);
  }
  return out;
}
