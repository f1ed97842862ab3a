// A per-pixel saliency map (0..1): how likely each pixel is part of the photo's subject before any cut.
// Four cues, each normalised to 0..1:
// - enclosure: the geodesic distance to the frame's border (Wei et al. 2012, "Geodesic saliency using
//   background priors"): the background reaches the border through smooth stretches, a subject only across
//   its own edges. The bottom border, where a sitter's body usually runs out of the frame, starts behind;
// - distinctness: colour distance (CIELAB) to the colours along the border (mostly background);
// - focus: local contrast, since the subject is usually the sharpest part and the background softer;
// - centre: photographers put subjects near the middle, a little above it.

import { rgbBufferToLab, boxMean } from '../../shared';
import { quantile, type Rgb } from './planes';
import { MinHeap } from './heap';

export const SALIENCY_WEIGHTS = { enclosure: 0.4, distinct: 0.2, focus: 0.15, centre: 0.25 } as const;

/** Colour steps (ΔE) up to this size cost nothing on a geodesic path: texture and noise are not edges. */
const GEODESIC_FLOOR = 3;
/** What a path starting on the bottom border pays up front (ΔE units). */
const BOTTOM_START = 10;

/** ΔE at which a colour counts as clearly unlike the border (the distinctness curve's scale). */
const DISTINCT_DELTA_E = 14;
/** Border colour clusters holding less than this share of the border are ignored (a subject touching it). */
const MIN_CLUSTER_SHARE = 0.06;

export type SaliencyMap = {
  saliency: Float32Array;
  /** The distinctness cue alone: low where a pixel looks like the border. */
  distinct: Float32Array;
  /** Distinctness from the border's main colour only (the one covering most of it): low on plain backdrop. */
  backdrop: Float32Array;
  /** The focus cue alone (also used to order depth). */
  focus: Float32Array;
};

export function saliencyMap(image: Rgb): SaliencyMap {
  const { width, height } = image;
  const lab = rgbBufferToLab(image.data, width, height);
  const { distinct, backdrop } = borderDistinctness(lab, width, height);
  const focus = focusMap(lab.L, width, height);
  const enclosure = geodesicEnclosure(lab, width, height);
  const saliency = new Float32Array(width * height);
  const { enclosure: we, distinct: wd, focus: wf, centre: wc } = SALIENCY_WEIGHTS;
  for (let y = 0; y < height; y++) {
    const dy = (y + 0.5) / height - 0.45;
    for (let x = 0; x < width; x++) {
      const dx = (x + 0.5) / width - 0.5;
      const centre = Math.exp(-(dx * dx) / (2 * 0.28 * 0.28) - (dy * dy) / (2 * 0.33 * 0.33));
      const i = y * width + x;
      saliency[i] = we * enclosure[i]! + wd * distinct[i]! + wf * focus[i]! + wc * centre;
    }
  }
  return { saliency, distinct, backdrop, focus };
}

/** Gradient energy of L*, averaged over ~3 % of the frame, scaled so the sharpest 5 % reach 1. */
function focusMap(L: Float32Array, width: number, height: number): Float32Array {
  const g = new Float32Array(L.length);
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      const gx = L[i + 1]! - L[i - 1]!;
      const gy = L[i + width]! - L[i - width]!;
      g[i] = Math.sqrt(gx * gx + gy * gy);
    }
  }
  const blurred = boxMean(g, width, height, Math.max(1, Math.round(Math.max(width, height) * 0.03)));
  const top = Math.max(1e-3, quantile(blurred, 0.95));
  for (let i = 0; i < blurred.length; i++) blurred[i] = Math.min(1, blurred[i]! / top);
  return blurred;
}

type Lab = { L: Float32Array; a: Float32Array; b: Float32Array };

/** Geodesic distance to the border over a lightly smoothed copy, scaled so the farthest 5 % reach 1. */
function geodesicEnclosure(lab: Lab, width: number, height: number): Float32Array {
  const n = width * height;
  const L = boxMean(lab.L, width, height, 1);
  const a = boxMean(lab.a, width, height, 1);
  const b = boxMean(lab.b, width, height, 1);
  const distance = new Float32Array(n).fill(Infinity);
  const heap = new MinHeap();
  for (let x = 0; x < width; x++) {
    heap.push(x, 0);
    heap.push((height - 1) * width + x, BOTTOM_START);
  }
  for (let y = 0; y < height; y++) {
    heap.push(y * width, 0);
    heap.push(y * width + width - 1, 0);
  }
  while (heap.size) {
    const d = heap.peekKey();
    const i = heap.pop();
    if (d >= distance[i]!) continue;
    distance[i] = d;
    const x = i % width;
    for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
      if (j < 0 || j >= n) continue;
      const step = Math.sqrt((L[i]! - L[j]!) ** 2 + (a[i]! - a[j]!) ** 2 + (b[i]! - b[j]!) ** 2);
      const next = d + Math.max(0, step - GEODESIC_FLOOR) + 0.05;
      if (next < distance[j]!) heap.push(j, next);
    }
  }
  const top = Math.max(1e-3, quantile(distance, 0.95));
  for (let i = 0; i < n; i++) distance[i] = Math.min(1, distance[i]! / top);
  return distance;
}

/** 1 − exp(−(ΔE to the nearest border colour cluster / scale)²), and the same for the main cluster alone. */
function borderDistinctness(lab: Lab, width: number, height: number): { distinct: Float32Array; backdrop: Float32Array } {
  const ring = Math.max(2, Math.round(Math.min(width, height) * 0.04));
  const samples: number[] = [];
  const weights: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const top = y < ring;
      const bottom = y >= height - ring;
      const side = x < ring || x >= width - ring;
      if (!top && !bottom && !side) continue;
      samples.push(y * width + x);
      weights.push(top ? 1 : bottom ? 0.35 : y < height * 0.6 ? 1 : 0.6);
    }
  }
  const centres = weightedKMeans(lab, samples, weights, 8);
  const main = centres[0]!;
  const distinct = new Float32Array(width * height);
  const backdrop = new Float32Array(width * height);
  const scale = DISTINCT_DELTA_E * DISTINCT_DELTA_E;
  for (let i = 0; i < distinct.length; i++) {
    let best = Infinity;
    for (const c of centres) {
      const d = (lab.L[i]! - c[0]!) ** 2 + (lab.a[i]! - c[1]!) ** 2 + (lab.b[i]! - c[2]!) ** 2;
      if (d < best) best = d;
    }
    distinct[i] = 1 - Math.exp(-best / scale);
    backdrop[i] = 1 - Math.exp(-((lab.L[i]! - main[0]!) ** 2 + (lab.a[i]! - main[1]!) ** 2 + (lab.b[i]! - main[2]!) ** 2) / scale);
  }
  return { distinct, backdrop };
}

/** k-means on the sampled pixels' Lab colours (deterministic start along L*), small clusters dropped, largest first. */
function weightedKMeans(lab: Lab, samples: number[], weights: number[], k: number): number[][] {
  const order = samples.map((_, n) => n).sort((p, q) => lab.L[samples[p]!]! - lab.L[samples[q]!]!);
  let centres = Array.from({ length: k }, (_, c) => {
    const i = samples[order[Math.floor(((c + 0.5) / k) * order.length)]!]!;
    return [lab.L[i]!, lab.a[i]!, lab.b[i]!];
  });
  let shares = new Array<number>(k).fill(0);
  for (let round = 0; round < 6; round++) {
    const sums = centres.map(() => [0, 0, 0, 0]);
    for (let n = 0; n < samples.length; n++) {
      const i = samples[n]!;
      let best = 0;
      let bestDistance = Infinity;
      for (let c = 0; c < centres.length; c++) {
        const d = (lab.L[i]! - centres[c]![0]!) ** 2 + (lab.a[i]! - centres[c]![1]!) ** 2 + (lab.b[i]! - centres[c]![2]!) ** 2;
        if (d < bestDistance) {
          bestDistance = d;
          best = c;
        }
      }
      const s = sums[best]!;
      const w = weights[n]!;
      s[0]! += w * lab.L[i]!;
      s[1]! += w * lab.a[i]!;
      s[2]! += w * lab.b[i]!;
      s[3]! += w;
    }
    const total = sums.reduce((t, s) => t + s[3]!, 0) || 1;
    shares = sums.map((s) => s[3]! / total);
    centres = sums.map((s, c) => (s[3]! > 0 ? [s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!] : centres[c]!));
  }
  return centres
    .map((centre, c) => ({ centre, share: shares[c]! }))
    .filter((c) => c.share >= MIN_CLUSTER_SHARE)
    .sort((a, b) => b.share - a.share)
    .map((c) => c.centre);
}
