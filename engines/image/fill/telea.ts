import { maskRegions, type Box } from '../../shared';

// Telea's fast marching fill (Telea 2004): the heal brush's estimate of the ground under a mark. Each region
// is filled from its border inwards, each pixel the average of the known pixels near it.

const KNOWN = 0;
const BAND = 1;
const INSIDE = 2;
/** Arrival time of a pixel not reached yet. */
const FAR = 1e6;
const NEIGHBOURS: readonly (readonly [number, number])[] = [[-1, 0], [1, 0], [0, -1], [0, 1]];

/** Min-heap of pixel indices keyed by arrival time. */
class Heap {
  private idx: number[] = [];
  constructor(private key: Float32Array) {}
  get size() {
    return this.idx.length;
  }
  push(i: number) {
    const a = this.idx;
    const k = this.key;
    a.push(i);
    let c = a.length - 1;
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (k[a[p]!]! <= k[i]!) break;
      a[c] = a[p]!;
      c = p;
    }
    a[c] = i;
  }
  pop(): number {
    const a = this.idx;
    const k = this.key;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length) {
      let c = 0;
      for (;;) {
        let m = 2 * c + 1;
        if (m >= a.length) break;
        if (m + 1 < a.length && k[a[m + 1]!]! < k[a[m]!]!) m++;
        if (k[a[m]!]! >= k[last]!) break;
        a[c] = a[m]!;
        c = m;
      }
      a[c] = last;
    }
    return top;
  }
}

export type TeleaOptions = {
  /** Radius of the neighbourhood each filled pixel is averaged from. */
  radius?: number;
};

/**
 * Fills the pixels where `mask` is set, in place, by fast marching from the region's border inwards: each pixel
 * becomes the average of the already-known pixels within `radius`, weighted towards those along the marching
 * direction, near it, and reached at the same time (Telea's weights, without the gradient term: on grainy
 * photos extrapolating the grain's gradients adds noise).
 */
export function inpaintTelea(L: Float32Array, W: number, H: number, mask: Uint8Array, opts: TeleaOptions = {}): void {
  const radius = opts.radius ?? 4;
  for (const box of maskRegions(mask, W, H, radius + 2).boxes) fillRegion(L, W, mask, box, radius);
}

/** Arrival time at a pixel from two neighbours' times (the eikonal update). */
function solve(T: Float32Array, a: number, b: number): number {
  const ta = T[a]!;
  const tb = T[b]!;
  if (ta >= FAR && tb >= FAR) return FAR;
  if (ta >= FAR) return tb + 1;
  if (tb >= FAR) return ta + 1;
  const d = 2 - (ta - tb) * (ta - tb);
  if (d < 0) return Math.min(ta, tb) + 1;
  const r = (ta + tb + Math.sqrt(d)) / 2;
  return r >= ta && r >= tb ? r : Math.min(ta, tb) + 1;
}

function fillRegion(L: Float32Array, W: number, mask: Uint8Array, box: Box, radius: number): void {
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const n = bw * bh;
  const flag = new Uint8Array(n);
  const T = new Float32Array(n);
  const I = new Float32Array(n);
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const g = (y + box.y0) * W + x + box.x0;
      const i = y * bw + x;
      I[i] = L[g]!;
      if (mask[g]) {
        flag[i] = INSIDE;
        T[i] = FAR;
      }
    }
  }
  // The band starts at the known pixels next to the region. Damaged pixels on the box's own border cannot be
  // reached from outside the box: a region touching the photo's edge still fills from its inner side.
  const heap = new Heap(T);
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const i = y * bw + x;
      if (flag[i] !== KNOWN) continue;
      const next = (x > 0 && flag[i - 1] === INSIDE) || (x < bw - 1 && flag[i + 1] === INSIDE) || (y > 0 && flag[i - bw] === INSIDE) || (y < bh - 1 && flag[i + bw] === INSIDE);
      if (!next) continue;
      flag[i] = BAND;
      heap.push(i);
    }
  }
  const r2 = radius * radius;
  while (heap.size) {
    const p = heap.pop();
    if (flag[p] === KNOWN) continue;
    flag[p] = KNOWN;
    const px = p % bw;
    const py = (p - px) / bw;
    for (const [dx, dy] of NEIGHBOURS) {
      const x = px + dx;
      const y = py + dy;
      if (x < 0 || y < 0 || x >= bw || y >= bh) continue;
      const q = y * bw + x;
      if (flag[q] === KNOWN) continue;
      const l = x > 0 ? q - 1 : q;
      const r = x < bw - 1 ? q + 1 : q;
      const u = y > 0 ? q - bw : q;
      const d = y < bh - 1 ? q + bw : q;
      const t = Math.min(solve(T, l, u), solve(T, r, u), solve(T, l, d), solve(T, r, d));
      if (flag[q] === INSIDE) {
        T[q] = t;
        I[q] = weightedFill(I, T, flag, bw, bh, x, y, radius, r2);
        flag[q] = BAND;
        heap.push(q);
      } else if (t < T[q]!) {
        T[q] = t;
        heap.push(q);
      }
    }
  }
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const g = (y + box.y0) * W + x + box.x0;
      if (mask[g]) L[g] = I[y * bw + x]!;
    }
  }
}

function weightedFill(I: Float32Array, T: Float32Array, flag: Uint8Array, bw: number, bh: number, x: number, y: number, radius: number, r2: number): number {
  const i = y * bw + x;
  // Marching direction: gradient of the arrival time.
  const tx = gradT(T, flag, bw, bh, x, y, 1, 0);
  const ty = gradT(T, flag, bw, bh, x, y, 0, 1);
  let sw = 0;
  let s = 0;
  for (let dy = -radius; dy <= radius; dy++) {
    const yy = y + dy;
    if (yy < 0 || yy >= bh) continue;
    for (let dx = -radius; dx <= radius; dx++) {
      const xx = x + dx;
      if (xx < 0 || xx >= bw) continue;
      const d2 = dx * dx + dy * dy;
      if (d2 === 0 || d2 > r2) continue;
      const k = yy * bw + xx;
      if (flag[k] !== KNOWN) continue;
      const dist = Math.sqrt(d2);
      const dir = Math.abs((-dx * tx - dy * ty) / dist) + 1e-6;
      const level = 1 / (1 + Math.abs(T[k]! - T[i]!));
      const weight = (dir * level) / d2;
      sw += weight;
      s += weight * I[k]!;
    }
  }
  return sw > 0 ? s / sw : I[i]!;
}

function gradT(T: Float32Array, flag: Uint8Array, bw: number, bh: number, x: number, y: number, dx: number, dy: number): number {
  const i = y * bw + x;
  const a = x - dx >= 0 && y - dy >= 0 ? i - dy * bw - dx : -1;
  const b = x + dx < bw && y + dy < bh ? i + dy * bw + dx : -1;
  const ok = (j: number) => j >= 0 && flag[j] !== INSIDE && T[j]! < FAR;
  if (ok(a) && ok(b)) return (T[b]! - T[a]!) / 2;
  if (ok(b)) return T[b]! - T[i]!;
  if (ok(a)) return T[i]! - T[a]!;
  return 0;
}
