// GrabCut (Rother, Kolmogorov & Blake 2004) seeded by a prior instead of a user's rectangle: colour models of
// the two sides and the minimum cut that separates them, alternated a few times. Each pixel pays the colour
// cost of its side plus a share of the prior's; neighbours with similar colours pay to be separated, so the
// cut follows the photo's edges.

import { ColourModel } from './gmm';
import { GridCut, NEIGHBOURS_8 } from './maxflow';
import type { Rgb } from './planes';

/** Hard labels: the pixel is subject (1), background (-1) or left to the cut (0). */
export type Seeds = Int8Array;

export type GrabCutOptions = {
  /** Alternations of model fitting and cutting. */
  iterations?: number;
  /** Weight of the edge term (the paper's γ). */
  smoothness?: number;
  /** Weight of the prior's −log against the colour models' (nats per nat). */
  priorWeight?: number;
};

/** Cost large enough that the cut never separates a seed from its side. */
const HARD = 1e6;

/**
 * Separates subject from background. `prior` (0..1 per pixel) is the probability of subject before colour
 * is looked at (saliency, people); it starts the labels and stays in every pixel's cost. Returns a 0/1 mask.
 */
export function grabCut(image: Rgb, prior: Float32Array, seeds: Seeds, opts: GrabCutOptions = {}): Uint8Array {
  const { width, height, data } = image;
  const n = width * height;
  const iterations = opts.iterations ?? 4;
  const gamma = opts.smoothness ?? 50;
  const lambda = opts.priorWeight ?? 1.5;
  const mask = new Uint8Array(n);
  for (let i = 0; i < n; i++) mask[i] = seeds[i] === 1 || (seeds[i] === 0 && prior[i]! >= 0.5) ? 1 : 0;
  const links = edgeWeights(image, gamma);
  const priorFg = new Float32Array(n);
  const priorBg = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const p = Math.min(0.97, Math.max(0.03, prior[i]!));
    priorFg[i] = -lambda * Math.log(p);
    priorBg[i] = -lambda * Math.log(1 - p);
  }
  for (let round = 0; round < iterations; round++) {
    const background = new Uint8Array(n);
    for (let i = 0; i < n; i++) background[i] = mask[i] ? 0 : 1;
    const fg = ColourModel.fit(data, mask);
    const bg = ColourModel.fit(data, background);
    if (fg.size === 0 || bg.size === 0) break;
    const graph = new GridCut(width, height);
    for (let i = 0; i < n; i++) {
      const r = data[i * 3]!;
      const g = data[i * 3 + 1]!;
      const b = data[i * 3 + 2]!;
      // Cutting i from the source (subject) labels it background: that costs the background's cost.
      const costBg = seeds[i] === 1 ? HARD : seeds[i] === -1 ? 0 : bg.cost(r, g, b) + priorBg[i]!;
      const costFg = seeds[i] === -1 ? HARD : seeds[i] === 1 ? 0 : fg.cost(r, g, b) + priorFg[i]!;
      graph.setTerminal(i, costBg, costFg);
      for (let k = 4; k < 8; k++) graph.setLink(i, k, links[i * 4 + k - 4]!);
    }
    graph.cut();
    let changed = 0;
    for (let i = 0; i < n; i++) {
      const next = graph.isSource(i) ? 1 : 0;
      if (next !== mask[i]) changed++;
      mask[i] = next;
    }
    if (changed < n * 0.001) break;
  }
  return mask;
}

/**
 * The edge term of each pixel's forward neighbours (directions 4..7 of NEIGHBOURS_8: right, and the three
 * below): γ/distance · exp(−β‖Δcolour‖²), β from the photo's mean squared neighbour difference.
 */
function edgeWeights({ data, width, height }: Rgb, gamma: number): Float32Array {
  const n = width * height;
  const diff = new Float32Array(n * 4);
  let sum = 0;
  let count = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      for (let k = 4; k < 8; k++) {
        const [dx, dy] = NEIGHBOURS_8[k]!;
        const xx = x + dx;
        const yy = y + dy;
        if (xx < 0 || xx >= width || yy >= height) continue;
        const j = yy * width + xx;
        const d = (data[i * 3]! - data[j * 3]!) ** 2 + (data[i * 3 + 1]! - data[j * 3 + 1]!) ** 2 + (data[i * 3 + 2]! - data[j * 3 + 2]!) ** 2;
        diff[i * 4 + k - 4] = d;
        sum += d;
        count++;
      }
    }
  }
  const beta = count && sum > 0 ? count / (2 * sum) : 0;
  const out = new Float32Array(n * 4);
  for (let i = 0; i < n * 4; i++) {
    const k = (i & 3) + 4;
    const [dx, dy] = NEIGHBOURS_8[k]!;
    out[i] = (gamma / Math.hypot(dx, dy)) * Math.exp(-beta * diff[i]!);
  }
  return out;
}
