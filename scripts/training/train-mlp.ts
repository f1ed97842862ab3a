import { squash, type Network } from '../../engines/image';
import { random } from './old-photo';

/**
 * Trains a one-hidden-layer tanh network (Adam, mini-batches), each sample weighted (a subsampled class counts
 * for what it stands for), deterministically from `seed`. A classifier (the default) has a sigmoid output trained
 * on log-loss, its features log-compressed as model.ts expects; a regression (`value`) a linear output trained on
 * the squared error, its features as they are. Features are standardised either way.
 */
export function trainMlp(
  X: Float32Array,
  y: ArrayLike<number>,
  features: readonly string[],
  opts: { hidden?: number; epochs?: number; weights?: Float32Array; seed?: number; rate?: number; output?: 'probability' | 'value' } = {},
): Network {
  const F = features.length, n = y.length, H = opts.hidden ?? 12, epochs = opts.epochs ?? 8, weights = opts.weights;
  const value = opts.output === 'value';
  const r = random(opts.seed ?? 7);
  const Z = new Float32Array(n * F);
  for (let i = 0; i < n * F; i++) Z[i] = value ? X[i]! : squash(X[i]!);
  const mean = Array<number>(F).fill(0), scale = Array<number>(F).fill(0);
  for (let i = 0; i < n; i++) for (let k = 0; k < F; k++) mean[k]! += Z[i * F + k]! / n;
  for (let i = 0; i < n; i++) for (let k = 0; k < F; k++) scale[k]! += (Z[i * F + k]! - mean[k]!) ** 2 / n;
  // A feature that never varies (a constant up to rounding) is left unscaled.
  for (let k = 0; k < F; k++) scale[k] = Math.sqrt(scale[k]!) > 1e-4 ? Math.sqrt(scale[k]!) : 1;
  for (let i = 0; i < n; i++) for (let k = 0; k < F; k++) Z[i * F + k] = (Z[i * F + k]! - mean[k]!) / scale[k]!;

  const oW1 = 0, ob1 = H * F, oW2 = ob1 + H, ob2 = oW2 + H;
  const p = new Float64Array(ob2 + 1).map(() => (r.next() - 0.5) * 0.6);
  const m1 = new Float64Array(p.length), m2 = new Float64Array(p.length), g = new Float64Array(p.length), hid = new Float64Array(H);
  const order = Array.from({ length: n }, (_, i) => i);
  const rate = opts.rate ?? 0.01, batch = 256;
  let t = 0;
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = n - 1; i > 0; i--) { const j = Math.floor(r.next() * (i + 1)); [order[i], order[j]] = [order[j]!, order[i]!]; }
    for (let start = 0; start < n; start += batch) {
      g.fill(0);
      const end = Math.min(n, start + batch);
      for (let q = start; q < end; q++) {
        const i = order[q]!, o = i * F;
        let z = p[ob2]!;
        for (let j = 0; j < H; j++) {
          let a = p[ob1 + j]!;
          for (let k = 0; k < F; k++) a += p[oW1 + j * F + k]! * Z[o + k]!;
          hid[j] = Math.tanh(a);
          z += p[oW2 + j]! * hid[j]!;
        }
        const dz = (weights ? weights[i]! : 1) * ((value ? z : 1 / (1 + Math.exp(-z))) - y[i]!);
        g[ob2]! += dz;
        for (let j = 0; j < H; j++) {
          g[oW2 + j]! += dz * hid[j]!;
          const da = dz * p[oW2 + j]! * (1 - hid[j]! * hid[j]!);
          g[ob1 + j]! += da;
          for (let k = 0; k < F; k++) g[oW1 + j * F + k]! += da * Z[o + k]!;
        }
      }
      t++;
      for (let k = 0; k < p.length; k++) {
        const gk = g[k]! / (end - start);
        m1[k] = 0.9 * m1[k]! + 0.1 * gk;
        m2[k] = 0.999 * m2[k]! + 0.001 * gk * gk;
        p[k]! -= (rate * (m1[k]! / (1 - 0.9 ** t))) / (Math.sqrt(m2[k]! / (1 - 0.999 ** t)) + 1e-8);
      }
    }
  }
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return {
    features: [...features], hidden: H, mean: mean.map(round), scale: scale.map(round),
    W1: Array.from(p.subarray(oW1, ob1), round), b1: Array.from(p.subarray(ob1, oW2), round), W2: Array.from(p.subarray(oW2, ob2), round), b2: round(p[ob2]!),
  };
}
