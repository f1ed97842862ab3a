import { maskRegions, type Box } from '../../shared';

// Exemplar inpainting (Efros & Leung 1999, with the non-local-means average of Buades et al. 2005): the masked
// pixels are filled from the border inwards, each from the centres of the `k` undamaged patches nearby that best
// match what is known around it. Unlike a smooth fill, texture and a structure that runs under the damage (a
// wire, an edge, lettering) continue, and a real detail wrongly taken for damage comes back much as it was.

export type PatchOptions = {
  /** Half side of the compared patch (2 → 5×5). */
  half?: number;
  /** Candidate centres are searched within this many pixels. */
  window?: number;
  /** The best `k` matches are averaged, weighted by similarity. */
  k?: number;
  /** Filled in with what the fill says of each pixel it filled (the learned correction reads it). */
  confidence?: PatchConfidence;
};

/** Per filled pixel (planes at the fill's size): the spread of the matched centres around their weighted mean, and
 * the best match's RMS difference over the known part of the patch. */
export type PatchConfidence = { spread: Float32Array; match: Float32Array };

/** Fills the masked pixels of L (W × H) in place, each damaged region inside its own bounding box. */
export function inpaintPatches(L: Float32Array, W: number, H: number, mask: Uint8Array, opts: PatchOptions = {}): void {
  const half = opts.half ?? 2;
  const win = opts.window ?? 14;
  const K = opts.k ?? 6;
  const { pixels, boxes } = maskRegions(mask, W, H, win + half);
  boxes.forEach((box, k) => fillRegion(L, W, mask, pixels[k]!, box, half, win, K, opts.confidence));
}

/** A region (its pixels `members`, inside `box`) as local planes: values, known pixels, damaged ones, its own. */
function regionPlanes(L: Float32Array, W: number, mask: Uint8Array, members: Int32Array, box: Box) {
  const bw = box.x1 - box.x0 + 1;
  const bh = box.y1 - box.y0 + 1;
  const n = bw * bh;
  const I = new Float32Array(n);
  const known = new Uint8Array(n);
  const damaged = new Uint8Array(n);
  const mine = new Uint8Array(n);
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) {
      const g = (y + box.y0) * W + x + box.x0;
      const i = y * bw + x;
      I[i] = L[g]!;
      if (mask[g]) damaged[i] = 1;
      else known[i] = 1;
    }
  }
  for (let q = 0; q < members.length; q++) mine[local(members[q]!, W, box)] = 1;
  return { bw, bh, n, I, known, damaged, mine };
}

/** A plane index `g` (plane width W) as an index of `box`'s local planes. */
const local = (g: number, W: number, box: Box) => {
  const x = g % W;
  return ((g - x) / W - box.y0) * (box.x1 - box.x0 + 1) + x - box.x0;
};

/** Candidate centres whose whole patch is undamaged (an integral image of the mask). */
function usableCentres(damaged: Uint8Array, bw: number, bh: number, half: number): Uint8Array {
  const S = new Int32Array((bw + 1) * (bh + 1));
  for (let y = 0; y < bh; y++) {
    for (let x = 0; x < bw; x++) S[(y + 1) * (bw + 1) + x + 1] = damaged[y * bw + x]! + S[y * (bw + 1) + x + 1]! + S[(y + 1) * (bw + 1) + x]! - S[y * (bw + 1) + x]!;
  }
  const usable = new Uint8Array(bw * bh);
  const side = 2 * half + 1;
  for (let y = half; y < bh - half; y++) {
    for (let x = half; x < bw - half; x++) {
      const a = (y - half) * (bw + 1) + x - half;
      const b = (y + half + 1) * (bw + 1) + x + half + 1;
      if (S[b]! - S[a + side]! - S[b - side]! + S[a]! === 0) usable[y * bw + x] = 1;
    }
  }
  return usable;
}

/** Fills a region of `mask` (its pixels `members`, inside `box`); other regions there are neither used nor filled. */
function fillRegion(L: Float32Array, W: number, mask: Uint8Array, members: Int32Array, box: Box, half: number, win: number, K: number, confidence?: PatchConfidence): void {
  const planes = regionPlanes(L, W, mask, members, box);
  const { bw, n, I, known, mine } = planes;
  const spread = new Float32Array(confidence ? n : 0);
  const match = new Float32Array(confidence ? n : 0);
  const search = patchSearch(planes, half, win, K);
  const neighbours = [-1, 1, -bw, bw, -bw - 1, -bw + 1, bw - 1, bw + 1];
  // Onion order: rings of damaged pixels by distance (8-neighbour steps) to the known ones.
  const queued = new Uint8Array(n);
  let ring = firstRing(planes, queued);
  while (ring.length) {
    const next: number[] = [];
    for (const i of ring) {
      const x = i % bw;
      if (bestMatches(search, i)) {
        I[i] = blend(search, K);
        if (confidence) {
          spread[i] = matchSpread(search, K, I[i]!);
          match[i] = Math.sqrt(search.bestD[0]!);
        }
      }
      for (const o of neighbours) {
        const j = i + o;
        if (j < 0 || j >= n || !mine[j] || queued[j] || Math.abs((j % bw) - x) > 1) continue;
        queued[j] = 1;
        next.push(j);
      }
    }
    for (const i of ring) known[i] = 1;
    ring = next;
  }
  for (let q = 0; q < members.length; q++) {
    const g = members[q]!;
    const i = local(g, W, box);
    L[g] = I[i]!;
    if (confidence) {
      confidence.spread[g] = spread[i]!;
      confidence.match[g] = match[i]!;
    }
  }
}

type Planes = ReturnType<typeof regionPlanes>;

/** The region's pixels beside a known one (4-neighbours): the onion's first ring, marked in `queued`. */
function firstRing({ bw, bh, n, known, mine }: Planes, queued: Uint8Array): number[] {
  const ring: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!mine[i]) continue;
    const x = i % bw;
    const y = (i - x) / bw;
    const border = (x > 0 && known[i - 1]) || (x < bw - 1 && known[i + 1]) || (y > 0 && known[i - bw]) || (y < bh - 1 && known[i + bw]);
    if (!border) continue;
    ring.push(i);
    queued[i] = 1;
  }
  return ring;
}

/** The patch search's fixed parts (offsets, usable centres) and its scratch: the K best distances and values. */
function patchSearch(planes: Planes, half: number, win: number, K: number) {
  const { bw, bh, damaged } = planes;
  const offsets: number[] = [];
  for (let dy = -half; dy <= half; dy++) for (let dx = -half; dx <= half; dx++) offsets.push(dy * bw + dx);
  return {
    ...planes,
    half,
    win,
    K,
    usable: usableCentres(damaged, bw, bh, half),
    offsets,
    bestD: new Float64Array(K),
    bestV: new Float64Array(K),
    // The known pixels of the patch being filled, and their values: the same for every candidate compared.
    knownOffsets: new Int32Array(offsets.length),
    knownValues: new Float64Array(offsets.length),
  };
}
type PatchSearch = ReturnType<typeof patchSearch>;

/**
 * The K undamaged patches within `win` of pixel i whose known pixels match its own best (mean squared difference),
 * left in `bestD` / `bestV` (their centres' values), best first; false when none was found.
 */
function bestMatches(sr: PatchSearch, i: number): boolean {
  const { bw, bh, I, known, usable, offsets, half, win, K, bestD, bestV, knownOffsets, knownValues } = sr;
  const x = i % bw;
  const y = (i - x) / bw;
  bestD.fill(Infinity);
  const inner = x >= half && y >= half && x < bw - half && y < bh - half;
  let count = 0;
  if (inner) {
    for (const o of offsets) {
      if (!known[i + o]) continue;
      knownOffsets[count] = o;
      knownValues[count] = I[i + o]!;
      count++;
    }
  }
  for (let cy = Math.max(half, y - win); cy <= Math.min(bh - 1 - half, y + win); cy++) {
    for (let cx = Math.max(half, x - win); cx <= Math.min(bw - 1 - half, x + win); cx++) {
      const c = cy * bw + cx;
      if (!usable[c]) continue;
      let s = 0;
      let m = 0;
      if (inner) {
        // Stops as soon as the candidate cannot be among the K best (the same choice, sooner).
        const limit = bestD[K - 1]! * count;
        for (let q = 0; q < count && s < limit; q++) {
          const e = knownValues[q]! - I[c + knownOffsets[q]!]!;
          s += e * e;
        }
        m = count;
      } else {
        for (let dy = -half; dy <= half; dy++) {
          for (let dx = -half; dx <= half; dx++) {
            const xx = x + dx;
            const yy = y + dy;
            if (xx < 0 || yy < 0 || xx >= bw || yy >= bh || !known[yy * bw + xx]) continue;
            const e = I[yy * bw + xx]! - I[c + dy * bw + dx]!;
            s += e * e;
            m++;
          }
        }
      }
      if (!m) continue;
      s /= m;
      if (s >= bestD[K - 1]!) continue;
      let k = K - 1;
      while (k > 0 && bestD[k - 1]! > s) {
        bestD[k] = bestD[k - 1]!;
        bestV[k] = bestV[k - 1]!;
        k--;
      }
      bestD[k] = s;
      bestV[k] = I[c]!;
    }
  }
  return bestD[0]! < Infinity;
}

/** The matches' centre values weighted by exp(−d / 2d₀) (d₀ the best distance, at least 1). */
function blend({ bestD, bestV }: PatchSearch, K: number): number {
  const h2 = 2 * Math.max(1, bestD[0]!);
  let sw = 0;
  let sv = 0;
  for (let k = 0; k < K && bestD[k]! < Infinity; k++) {
    const weight = Math.exp(-bestD[k]! / h2);
    sw += weight;
    sv += weight * bestV[k]!;
  }
  return sv / sw;
}

/** How much the matches disagree about the value filled in (their weighted spread around it). */
function matchSpread({ bestD, bestV }: PatchSearch, K: number, value: number): number {
  const h2 = 2 * Math.max(1, bestD[0]!);
  let sw = 0;
  let sq = 0;
  for (let k = 0; k < K && bestD[k]! < Infinity; k++) {
    const weight = Math.exp(-bestD[k]! / h2);
    sw += weight;
    sq += weight * (bestV[k]! - value) ** 2;
  }
  return Math.sqrt(sq / sw);
}
