import { mulberry32 } from '../../../src/lib/random';
import { setScanner } from '../../shared';

/** Deterministic standard normal samples (Box–Muller): the same photo renders the same way. */
export function gaussian(seed: number): () => number {
  const uniform = mulberry32(seed);
  return () => Math.sqrt(-2 * Math.log(1 - uniform())) * Math.cos(2 * Math.PI * uniform());
}

/**
 * Puts grain back over filled pixels: Gaussian noise of the photo's own grain strength `sigma` (L* units),
 * so a filled line carries the same grain as its surroundings instead of showing as a smooth stripe.
 */
export function addGrain(L: Float32Array, mask: Uint8Array, sigma: number, seed = 1): void {
  const g = gaussian(seed);
  const next = setScanner(mask);
  for (let i = next(0); i < mask.length; i = next(i + 1)) L[i]! += sigma * g();
}
