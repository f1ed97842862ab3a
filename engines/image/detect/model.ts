import model from './model.json' with { type: 'json' };
import { FEATURE_NAMES } from './evidence';
import { OBJECT_FEATURE_NAMES } from './objects';

/**
 * The damage classifiers: one-hidden-layer networks, one giving each candidate pixel a probability of being
 * damage (over evidence.ts), and a few deciding on each component of likely pixels as a whole (over
 * objects.ts), their probabilities averaged. The object networks are trained alike from other starting
 * weights: one alone swings with those weights (validation removal moved by up to 2.3 points between three).
 * Their weights (model.json) are learned by scripts/training/train-damage-detector.ts (`npm run train:damage`) from
 * damage painted on photos from Debian packages, never from the benchmark's fixtures.
 */
export type Network = {
  features: readonly string[];
  hidden: number;
  mean: number[];
  scale: number[];
  W1: number[];
  b1: number[];
  W2: number[];
  b2: number;
};
export type DamageModels = { pixel: Network; object: Network[] };

/** Log-compression of a feature: large evidence keeps growing, but slowly. */
export const squash = (v: number) => Math.sign(v) * Math.log1p(Math.abs(v));

export const DAMAGE_MODELS = model as unknown as DamageModels;

type Packed = { mean: Float64Array; scale: Float64Array; W1: Float64Array; b1: Float64Array; W2: Float64Array };

/** A network's weights as typed arrays, made once: the pixel network runs on every candidate of a photo. */
const packed = new WeakMap<Network, Packed>();
function pack(net: Network): Packed {
  let p = packed.get(net);
  if (!p) {
    p = {
      mean: Float64Array.from(net.mean),
      scale: Float64Array.from(net.scale),
      W1: Float64Array.from(net.W1),
      b1: Float64Array.from(net.b1),
      W2: Float64Array.from(net.W2),
    };
    packed.set(net, p);
  }
  return p;
}

/** The network's probability for each row of `values` (its feature count per row). */
export function predict(net: Network, values: Float32Array, names: readonly string[]): Float32Array {
  if (net.features.join() !== names.join()) throw new Error('The damage model was trained on other features: run npm run train:damage');
  const F = names.length;
  const H = net.hidden;
  const count = values.length / F;
  const { mean, scale, W1, b1, W2 } = pack(net);
  const out = new Float32Array(count);
  const z = new Float64Array(F);
  const b2 = net.b2;
  for (let c = 0; c < count; c++) {
    const o = c * F;
    for (let k = 0; k < F; k++) z[k] = (squash(values[o + k]!) - mean[k]!) / scale[k]!;
    let s = b2;
    let j = 0;
    // Four hidden units at a time, each unit's sum in its own order (they no longer wait on one another).
    for (; j + 4 <= H; j += 4) {
      const r = j * F;
      let a0 = b1[j]!;
      let a1 = b1[j + 1]!;
      let a2 = b1[j + 2]!;
      let a3 = b1[j + 3]!;
      for (let k = 0; k < F; k++) {
        const zk = z[k]!;
        a0 += W1[r + k]! * zk;
        a1 += W1[r + F + k]! * zk;
        a2 += W1[r + 2 * F + k]! * zk;
        a3 += W1[r + 3 * F + k]! * zk;
      }
      s += W2[j]! * Math.tanh(a0);
      s += W2[j + 1]! * Math.tanh(a1);
      s += W2[j + 2]! * Math.tanh(a2);
      s += W2[j + 3]! * Math.tanh(a3);
    }
    for (; j < H; j++) {
      let a = b1[j]!;
      const r = j * F;
      for (let k = 0; k < F; k++) a += W1[r + k]! * z[k]!;
      s += W2[j]! * Math.tanh(a);
    }
    out[c] = 1 / (1 + Math.exp(-s));
  }
  return out;
}

export const pixelProbabilities = (values: Float32Array, models = DAMAGE_MODELS) => predict(models.pixel, values, FEATURE_NAMES);
/** The object networks' mean probability for each component. */
export function objectProbabilities(values: Float32Array, models = DAMAGE_MODELS): Float32Array {
  const out = new Float32Array(values.length / OBJECT_FEATURE_NAMES.length);
  for (const net of models.object) {
    const p = predict(net, values, OBJECT_FEATURE_NAMES);
    for (let c = 0; c < out.length; c++) out[c]! += p[c]! / models.object.length;
  }
  return out;
}
