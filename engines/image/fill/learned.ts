import model from './fill-model.json' with { type: 'json' };
import type { PatchConfidence } from './patches';

// A learned correction of the fill. The patch fill rebuilds a damaged pixel from what surrounds it, and cannot
// know what lay under a stroke that runs along a wire or an edge for its whole length; but a stroke is rarely
// opaque: the input under it still shows the structure, brightened or darkened. A small network looks at the
// input and the fill around each filled pixel (and which of those pixels are damaged) and says how far the
// truth lies from the fill. Trained by scripts/training/train-fill.ts (npm run train:fill) on old photos painted over
// Debian photos and aged a second time without their strokes (what lay under each), filled where the detector
// found damage, learning from the pixels under painted strokes. A scratch's twin is left out (correctFill
// `leave`): it is all stroke, and the network would read the faint line as a structure under it.

/** Half side of the window the network sees (3: 7×7). */
export const FILL_RADIUS = 3;
/** L* units of one feature step: the differences the network sees and the correction it gives. */
export const FILL_SCALE = 10;
const SIDE = 2 * FILL_RADIUS + 1;
/** The largest correction, in multiples of the fill's doubt (its matches' spread, or how far the best match
 * missed beyond the grain): 3 keeps every figure of the fixtures within 0.02 and a noise-free plane untouched. */
export const FILL_BOUND = 3;
/** Features: the input minus the fill at the pixel over the window, the mask over the window, the fill's 3×3
 * around it minus its centre (8), the fill's level, the photo's grain, how much the patch fill's matches
 * disagree and how well the best one matched. */
export const FILL_FEATURE_COUNT = 2 * SIDE * SIDE + 8 + 4;

export type FillNetwork = { hidden: number; mean: number[]; scale: number[]; W1: number[]; b1: number[]; W2: number[]; b2: number; features: number };
export const FILL_MODEL = model as unknown as FillNetwork;

/**
 * The features of filled pixel i of plane `filled` (w × h): `input` is the plane before the fill, `mask` the
 * filled pixels, `grain` the photo's pixel noise. Pixels beyond the border read as the nearest inside.
 */
export function fillFeatures(input: Float32Array, filled: Float32Array, mask: Uint8Array, w: number, h: number, grain: number, confidence: PatchConfidence, i: number, out: Float32Array, o = 0): void {
  const x = i % w;
  const y = (i - x) / w;
  const f = filled[i]!;
  let k = o;
  for (let dy = -FILL_RADIUS; dy <= FILL_RADIUS; dy++) {
    const yy = Math.min(h - 1, Math.max(0, y + dy));
    for (let dx = -FILL_RADIUS; dx <= FILL_RADIUS; dx++) {
      const j = yy * w + Math.min(w - 1, Math.max(0, x + dx));
      out[k] = (input[j]! - f) / FILL_SCALE;
      out[k + SIDE * SIDE] = mask[j]!;
      k++;
    }
  }
  k += SIDE * SIDE;
  for (let dy = -1; dy <= 1; dy++) {
    const yy = Math.min(h - 1, Math.max(0, y + dy));
    for (let dx = -1; dx <= 1; dx++) {
      if (!dx && !dy) continue;
      out[k++] = (filled[yy * w + Math.min(w - 1, Math.max(0, x + dx))]! - f) / FILL_SCALE;
    }
  }
  out[k++] = f / 100;
  out[k++] = grain / FILL_SCALE;
  out[k++] = confidence.spread[i]! / FILL_SCALE;
  out[k] = confidence.match[i]! / FILL_SCALE;
}

/**
 * The network with its input standardisation folded into the first layer, the weights by feature (a feature's
 * weights to every hidden unit side by side): a feature that is 0 (a quarter of them on the bench's 1 MP photo,
 * mostly the mask's window beside the stroke) is skipped. The same output as the network written out, up to
 * rounding (the fixtures' figures are identical photo by photo).
 */
type FoldedNetwork = { hidden: number; features: number; weights: Float64Array; bias: Float64Array; W2: Float64Array; b2: number };
const foldedNetworks = new WeakMap<FillNetwork, FoldedNetwork>();

function foldedOf(net: FillNetwork): FoldedNetwork {
  const known = foldedNetworks.get(net);
  if (known) return known;
  const { hidden, features: F } = net;
  const weights = new Float64Array(F * hidden);
  const bias = Float64Array.from(net.b1);
  for (let j = 0; j < hidden; j++) {
    for (let q = 0; q < F; q++) {
      const wq = net.W1[j * F + q]! / net.scale[q]!;
      weights[q * hidden + j] = wq;
      bias[j]! -= wq * net.mean[q]!;
    }
  }
  const made = { hidden, features: F, weights, bias, W2: Float64Array.from(net.W2), b2: net.b2 };
  foldedNetworks.set(net, made);
  return made;
}

/** The network's output for one row of raw features (a tanh hidden layer, a linear output); `a` is scratch. */
function evaluate(net: FoldedNetwork, row: Float32Array, a: Float64Array): number {
  const { hidden, features, weights } = net;
  a.set(net.bias);
  for (let q = 0; q < features; q++) {
    const v = row[q]!;
    if (v === 0) continue;
    for (let j = 0, r = q * hidden; j < hidden; j++) a[j]! += weights[r + j]! * v;
  }
  let s = net.b2;
  for (let j = 0; j < hidden; j++) s += net.W2[j]! * Math.tanh(a[j]!);
  return s;
}

/**
 * Corrects the fill of every masked pixel of `filled` (in place) by the network's estimate of the truth minus
 * the fill. `input` is the plane before the fill. Returns how many pixels it changed.
 */
export function correctFill(input: Float32Array, filled: Float32Array, mask: Uint8Array, w: number, h: number, grain: number, confidence: PatchConfidence, leave?: Uint8Array, net: FillNetwork = FILL_MODEL): number {
  if (!net.hidden || net.features !== FILL_FEATURE_COUNT) return 0;
  const folded = foldedOf(net);
  const row = new Float32Array(FILL_FEATURE_COUNT);
  const hiddenSums = new Float64Array(net.hidden);
  const corrections: number[] = [];
  const where: number[] = [];
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i] || leave?.[i]) continue;
    // Never further from the fill than the fill's own doubt: on a clean plane (matches that agree and fit)
    // the network has nothing to say, and it was never shown one.
    const bound = FILL_BOUND * Math.max(confidence.spread[i]!, confidence.match[i]! - 1.5 * grain, 0);
    if (!bound) continue;
    fillFeatures(input, filled, mask, w, h, grain, confidence, i, row);
    where.push(i);
    corrections.push(Math.max(-bound, Math.min(bound, evaluate(folded, row, hiddenSums) * FILL_SCALE)));
  }
  // Every correction is read off the fill as it was, then applied at once.
  where.forEach((i, k) => {
    filled[i]! += corrections[k]!;
  });
  return where.length;
}
