// Inpainting of a damage mask on an L* plane: Telea's fast-marching method (Telea 2004), run per damaged
// region inside its bounding box so a 12 MP photo needs no full-size working planes, then grain put back over
// the filled pixels at the strength measured around them, so a filled line does not show as a smooth stripe.

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
  const seen = new Uint8Array(mask.length), boxes: Box[] = [], stack: number[] = [];
  for (let s = 0; s < mask.length; s++) {
    if (!mask[s] || seen[s]) continue;
    let x0 = W, y0 = H, x1 = -1, y1 = -1;
    seen[s] = 1; stack.push(s);
    while (stack.length) {
      const p = stack.pop()!, x = p % W, y = (p - x) / W;
      if (x < x0) x0 = x; if (x > x1) x1 = x; if (y < y0) y0 = y; if (y > y1) y1 = y;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= W || yy >= H) continue;
        const q = yy * W + xx;
        if (mask[q] && !seen[q]) { seen[q] = 1; stack.push(q); }
      }
    }
    boxes.push({ x0: Math.max(0, x0 - margin), y0: Math.max(0, y0 - margin), x1: Math.min(W - 1, x1 + margin), y1: Math.min(H - 1, y1 + margin) });
  }
  return boxes;
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

/**
 * Fills each masked pixel with the median of the unmasked pixels in the smallest window (5×5 up to 11×11) that
 * has at least 8 of them: like a median filter, but never fed by the damage itself.
 */
export function inpaintMedian(L: Float32Array, W: number, H: number, mask: Uint8Array): void {
  const vals: number[] = [];
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
    const i = y * W + x;
    if (!mask[i]) continue;
    for (let r = 2; r <= 5; r++) {
      vals.length = 0;
      for (let yy = Math.max(0, y - r); yy <= Math.min(H - 1, y + r); yy++) for (let xx = Math.max(0, x - r); xx <= Math.min(W - 1, x + r); xx++) {
        const j = yy * W + xx;
        if (!mask[j]) vals.push(L[j]);
      }
      if (vals.length >= 8 || r === 5) break;
    }
    if (!vals.length) continue;
    vals.sort((a, b) => a - b);
    L[i] = vals.length & 1 ? vals[vals.length >> 1] : (vals[vals.length / 2 - 1] + vals[vals.length / 2]) / 2;
  }
}

/** Deterministic standard normal samples (mulberry32 + Box–Muller): the same photo renders the same way. */
function gaussian(seed: number): () => number {
  let a = seed >>> 0;
  const uniform = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
