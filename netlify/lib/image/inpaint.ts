// Inpainting of a damage mask on an L* plane, each damaged region worked inside its own bounding box so a
// 12 MP photo needs no full-size working planes: exemplar filling for the automatic pass (texture and thin
// structures continue under the damage), Telea's fast marching (Telea 2004) for the heal brush's background
// estimate, and grain put back over filled pixels so a filled line does not show as a smooth stripe.

import { mulberry32 } from '../../../src/lib/random';

const KNOWN = 0, BAND = 1, INSIDE = 2;

/** Min-heap of pixel indices keyed by arrival time. */
class Heap {
  private idx: number[] = [];
  constructor(private key: Float32Array) {}
  get size() { return this.idx.length; }
  push(i: number) {
    const a = this.idx, k = this.key;
    a.push(i);
    let c = a.length - 1;
    while (c > 0) {
      const p = (c - 1) >> 1;
      if (k[a[p]] <= k[i]) break;
      a[c] = a[p]; c = p;
    }
    a[c] = i;
  }
  pop(): number {
    const a = this.idx, k = this.key, top = a[0], last = a.pop()!;
    if (a.length) {
      let c = 0;
      for (;;) {
        let m = 2 * c + 1;
        if (m >= a.length) break;
        if (m + 1 < a.length && k[a[m + 1]] < k[a[m]]) m++;
        if (k[a[m]] >= k[last]) break;
        a[c] = a[m]; c = m;
      }
      a[c] = last;
    }
    return top;
  }
}

export type InpaintOptions = {
  /** Radius of the neighbourhood each filled pixel is averaged from. */
  radius?: number;
};

/**
 * Fills the pixels where `mask` is set, in place, by fast marching from the region's border inwards: each pixel
 * becomes the average of the already-known pixels within `radius`, weighted towards those along the marching
 * direction, near it, and reached at the same time (Telea's weights, without the gradient term: on grainy
 * photos extrapolating the grain's gradients adds noise).
 */
export function inpaintTelea(L: Float32Array, W: number, H: number, mask: Uint8Array, opts: InpaintOptions = {}): void {
  const radius = opts.radius ?? 4;
  for (const box of maskRegions(mask, W, H, radius + 2)) fillRegion(L, W, mask, box, radius);
}

type Box = { x0: number; y0: number; x1: number; y1: number };

/** Bounding boxes (grown by `margin`, clipped) of the 8-connected regions of a mask; boxes may overlap. */
export function maskRegions(mask: Uint8Array, W: number, H: number, margin: number): Box[] {
  return maskComponents(mask, W, H, margin).boxes;
}

/** The 8-connected regions of a mask: a label per pixel (1…, 0 outside) and each region's grown box. */
export function maskComponents(mask: Uint8Array, W: number, H: number, margin: number): { label: Int32Array; boxes: Box[] } {
  const label = new Int32Array(mask.length), boxes: Box[] = [], stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || label[s]) continue;
    const id = boxes.length + 1;
    let x0 = W, y0 = H, x1 = -1, y1 = -1;
    label[s] = id; stack.push(s);
    while (stack.length) {
      const p = stack.pop()!, x = p % W, y = (p - x) / W;
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
        const q = yy * W + xx;
        if (mask[q] && !label[q]) { label[q] = id; stack.push(q); }
      }
    }
    boxes.push({ x0: Math.max(0, x0 - margin), y0: Math.max(0, y0 - margin), x1: Math.min(W - 1, x1 + margin), y1: Math.min(H - 1, y1 + margin) });
  }
  return { label, boxes };
}

function fillRegion(L: Float32Array, W: number, mask: Uint8Array, box: Box, radius: number): void {
  const bw = box.x1 - box.x0 + 1, bh = box.y1 - box.y0 + 1, n = bw * bh;
  const flag = new Uint8Array(n), T = new Float32Array(n), I = new Float32Array(n);
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
    const g = (y + box.y0) * W + x + box.x0, i = y * bw + x;
    I[i] = L[g];
    if (mask[g]) { flag[i] = INSIDE; T[i] = 1e6; }
  }
  // Pixels on the box's own border that are damaged cannot be reached from outside the box: treat them as
  // known only if nothing else is (a region touching the photo's edge still fills from its inner side).
  const heap = new Heap(T);
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
    const i = y * bw + x;
    if (flag[i] !== KNOWN) continue;
    if ((x > 0 && flag[i - 1] === INSIDE) || (x < bw - 1 && flag[i + 1] === INSIDE) || (y > 0 && flag[i - bw] === INSIDE) || (y < bh - 1 && flag[i + bw] === INSIDE)) {
      flag[i] = BAND; heap.push(i);
    }
  }
  const r2 = radius * radius;
  const solve = (a: number, b: number): number => {
    const ta = T[a], tb = T[b];
    if (ta >= 1e6 && tb >= 1e6) return 1e6;
    if (ta >= 1e6) return tb + 1;
    if (tb >= 1e6) return ta + 1;
    const d = 2 - (ta - tb) * (ta - tb);
    if (d < 0) return Math.min(ta, tb) + 1;
    const s = Math.sqrt(d);
    const r = (ta + tb + s) / 2;
    return r >= ta && r >= tb ? r : Math.min(ta, tb) + 1;
  };
  while (heap.size) {
    const p = heap.pop();
    if (flag[p] === KNOWN) continue;
    flag[p] = KNOWN;
    const px = p % bw, py = (p - px) / bw;
    for (const [dx, dy] of NEIGHBOURS) {
      const x = px + dx, y = py + dy;
      if (x < 0 || y < 0 || x >= bw || y >= bh) continue;
      const q = y * bw + x;
      if (flag[q] === KNOWN) continue;
      const l = x > 0 ? q - 1 : q, r = x < bw - 1 ? q + 1 : q, u = y > 0 ? q - bw : q, d = y < bh - 1 ? q + bw : q;
      const t = Math.min(solve(l, u), solve(r, u), solve(l, d), solve(r, d));
      if (flag[q] === INSIDE) {
        T[q] = t;
        I[q] = weightedFill(I, T, flag, bw, bh, x, y, radius, r2);
        flag[q] = BAND;
        heap.push(q);
      } else if (t < T[q]) {
        T[q] = t;
        heap.push(q);
      }
    }
  }
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
    const g = (y + box.y0) * W + x + box.x0;
    if (mask[g]) L[g] = I[y * bw + x];
  }
}

const NEIGHBOURS: [number, number][] = [[-1, 0], [1, 0], [0, -1], [0, 1]];

function weightedFill(I: Float32Array, T: Float32Array, flag: Uint8Array, bw: number, bh: number, x: number, y: number, radius: number, r2: number): number {
  const i = y * bw + x;
  // Marching direction: gradient of the arrival time.
  const tx = gradT(T, flag, bw, bh, x, y, 1, 0), ty = gradT(T, flag, bw, bh, x, y, 0, 1);
  let sw = 0, s = 0;
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
      const lev = 1 / (1 + Math.abs(T[k] - T[i]));
      const wgt = (dir * lev) / d2;
      sw += wgt; s += wgt * I[k];
    }
  }
  return sw > 0 ? s / sw : I[i];
}

function gradT(T: Float32Array, flag: Uint8Array, bw: number, bh: number, x: number, y: number, dx: number, dy: number): number {
  const i = y * bw + x;
  const a = x - dx >= 0 && y - dy >= 0 ? i - dy * bw - dx : -1, b = x + dx < bw && y + dy < bh ? i + dy * bw + dx : -1;
  const ok = (j: number) => j >= 0 && flag[j] !== 2 && T[j] < 1e6;
  if (ok(a) && ok(b)) return (T[b] - T[a]) / 2;
  if (ok(b)) return T[b] - T[i];
  if (ok(a)) return T[i] - T[a];
  return 0;
}

/** Deterministic standard normal samples (Box–Muller): the same photo renders the same way. */
function gaussian(seed: number): () => number {
  const uniform = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * Puts grain back over filled pixels: Gaussian noise of the photo's own grain strength `sigma` (L* units),
 * so a filled line carries the same grain as its surroundings instead of showing as a smooth stripe.
 */
export function addGrain(L: Float32Array, mask: Uint8Array, sigma: number, seed = 1): void {
  const g = gaussian(seed);
  for (let i = 0; i < L.length; i++) if (mask[i]) L[i] += sigma * g();
}

export type ExemplarOptions = {
  /** Half side of the compared patch (2 → 5×5). */
  half?: number;
  /** Candidate centres are searched within this many pixels. */
  window?: number;
  /** The best `k` matches are averaged, weighted by similarity. */
  k?: number;
};

/**
 * Exemplar inpainting (Efros & Leung 1999, with the non-local-means average of Buades et al. 2005): the
 * masked pixels are filled from the border inwards, each from the centres of the `k` undamaged patches
 * nearby that best match what is known around it. Unlike a smooth fill, a structure that runs under the
 * damage (a wire, an edge, lettering) is continued, and a real detail wrongly taken for damage comes back
 * much as it was. Each damaged region is processed inside its own bounding box.
 */
export function inpaintExemplar(L: Float32Array, W: number, H: number, mask: Uint8Array, opts: ExemplarOptions = {}): void {
  const half = opts.half ?? 2, win = opts.window ?? 14, K = opts.k ?? 6;
  const { label, boxes } = maskComponents(mask, W, H, win + half);
  boxes.forEach((box, k) => exemplarRegion(L, W, label, k + 1, box, half, win, K));
}

/** Fills region `id` of `label` inside `box`; other regions there are neither used nor filled. */
function exemplarRegion(L: Float32Array, W: number, label: Int32Array, id: number, box: Box, half: number, win: number, K: number): void {
  const bw = box.x1 - box.x0 + 1, bh = box.y1 - box.y0 + 1, n = bw * bh;
  const I = new Float32Array(n), known = new Uint8Array(n), damaged = new Uint8Array(n), mine = new Uint8Array(n);
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
    const g = (y + box.y0) * W + x + box.x0, i = y * bw + x;
    I[i] = L[g];
    if (label[g]) damaged[i] = 1; else known[i] = 1;
    if (label[g] === id) mine[i] = 1;
  }
  // Usable candidate centres: their whole patch is undamaged (an integral image of the mask).
  const S = new Int32Array((bw + 1) * (bh + 1));
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) S[(y + 1) * (bw + 1) + x + 1] = damaged[y * bw + x] + S[y * (bw + 1) + x + 1] + S[(y + 1) * (bw + 1) + x] - S[y * (bw + 1) + x];
  const usable = new Uint8Array(n);
  for (let y = half; y < bh - half; y++) for (let x = half; x < bw - half; x++) {
    const a = (y - half) * (bw + 1) + x - half, b = (y + half + 1) * (bw + 1) + x + half + 1;
    if (S[b] - S[a + 2 * half + 1] - S[b - 2 * half - 1] + S[a] === 0) usable[y * bw + x] = 1;
  }
  // Onion order: rings of damaged pixels by distance (8-neighbour steps) to the known ones.
  let ring: number[] = [];
  const queued = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    if (!mine[i]) continue;
    const x = i % bw, y = (i - x) / bw;
    if ((x > 0 && known[i - 1]) || (x < bw - 1 && known[i + 1]) || (y > 0 && known[i - bw]) || (y < bh - 1 && known[i + bw])) { ring.push(i); queued[i] = 1; }
  }
  const bestD = new Float64Array(K), bestV = new Float64Array(K);
  const offsets: number[] = [];
  for (let dy = -half; dy <= half; dy++) for (let dx = -half; dx <= half; dx++) offsets.push(dy * bw + dx);
  const neighbours = [-1, 1, -bw, bw, -bw - 1, -bw + 1, bw - 1, bw + 1];
  // The known pixels of the patch being filled, and their values: the same for every candidate compared.
  const knownOffsets = new Int32Array(offsets.length), knownValues = new Float64Array(offsets.length);
  while (ring.length) {
    const next: number[] = [];
    for (const i of ring) {
      const x = i % bw, y = (i - x) / bw;
      bestD.fill(Infinity);
      const inner = x >= half && y >= half && x < bw - half && y < bh - half;
      let count = 0;
      if (inner) for (const o of offsets) if (known[i + o]) { knownOffsets[count] = o; knownValues[count++] = I[i + o]!; }
      for (let cy = Math.max(half, y - win); cy <= Math.min(bh - 1 - half, y + win); cy++) {
        for (let cx = Math.max(half, x - win); cx <= Math.min(bw - 1 - half, x + win); cx++) {
          const c = cy * bw + cx;
          if (!usable[c]) continue;
          let s = 0, m = 0;
          if (inner) {
            // Stops as soon as the candidate cannot be among the K best (the same choice, sooner).
            const limit = bestD[K - 1]! * count;
            for (let q = 0; q < count && s < limit; q++) { const e = knownValues[q]! - I[c + knownOffsets[q]!]!; s += e * e; }
            m = count;
          } else {
            for (let dy = -half; dy <= half; dy++) for (let dx = -half; dx <= half; dx++) {
              const xx = x + dx, yy = y + dy;
              if (xx < 0 || yy < 0 || xx >= bw || yy >= bh || !known[yy * bw + xx]) continue;
              const e = I[yy * bw + xx] - I[c + dy * bw + dx]; s += e * e; m++;
            }
          }
          if (!m) continue;
          s /= m;
          if (s >= bestD[K - 1]) continue;
          let k = K - 1;
          while (k > 0 && bestD[k - 1] > s) { bestD[k] = bestD[k - 1]; bestV[k] = bestV[k - 1]; k--; }
          bestD[k] = s; bestV[k] = I[c];
        }
      }
      if (bestD[0] < Infinity) {
        const h2 = 2 * Math.max(1, bestD[0]);
        let sw = 0, sv = 0;
        for (let k = 0; k < K && bestD[k] < Infinity; k++) { const w = Math.exp(-bestD[k] / h2); sw += w; sv += w * bestV[k]; }
        I[i] = sv / sw;
      }
      for (const o of neighbours) {
        const j = i + o;
        if (j >= 0 && j < n && mine[j] && !queued[j] && Math.abs((j % bw) - x) <= 1) { queued[j] = 1; next.push(j); }
      }
    }
    for (const i of ring) known[i] = 1;
    ring = next;
  }
  for (let y = 0; y < bh; y++) for (let x = 0; x < bw; x++) {
    const g = (y + box.y0) * W + x + box.x0;
    if (label[g] === id) L[g] = I[y * bw + x];
  }
}
