import model from './damage-model.json' with { type: 'json' };
import { FEATURE_NAMES } from './damage-features';
import { OBJECT_FEATURE_NAMES } from './damage-objects';

/**
 * The damage classifiers: two one-hidden-layer networks, one giving each candidate pixel a probability of
 * being damage (over damage-features.ts), one deciding on each component of likely pixels as a whole (over
 * damage-objects.ts). Their weights (damage-model.json) are learned by scripts/train-damage-detector.ts
 * from damage painted on photos from Debian packages, never from the benchmark's fixtures.
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
export type DamageModels = { pixel: Network; object: Network };

/** Log-compression of a feature: large evidence keeps growing, but slowly. */
export const squash = (v: number) => Math.sign(v) * Math.log1p(Math.abs(v));

export const DAMAGE_MODELS = model as unknown as DamageModels;

/** The network's probability for each row of `values` (its feature count per row). */
export function predict(net: Network, values: Float32Array, names: readonly string[]): Float32Array {
  if (net.features.join() !== names.join()) throw new Error('The damage model was trained on other features: run scripts/train-damage-detector.ts');
  const F = names.length, H = net.hidden, count = values.length / F;
  const out = new Float32Array(count), z = new Float64Array(F);
  for (let c = 0; c < count; c++) {
    const o = c * F;
    for (let k = 0; k < F; k++) z[k] = (squash(values[o + k]!) - net.mean[k]!) / net.scale[k]!;
    let s = net.b2;
    for (let j = 0; j < H; j++) {
      let a = net.b1[j]!;
      const r = j * F;
      for (let k = 0; k < F; k++) a += net.W1[r + k]! * z[k]!;
      s += net.W2[j]! * Math.tanh(a);
    }
    out[c] = 1 / (1 + Math.exp(-s));
  }
  return out;
}

export const pixelProbabilities = (values: Float32Array, models = DAMAGE_MODELS) => predict(models.pixel, values, FEATURE_NAMES);
export const objectProbabilities = (values: Float32Array, models = DAMAGE_MODELS) => predict(models.object, values, OBJECT_FEATURE_NAMES);
