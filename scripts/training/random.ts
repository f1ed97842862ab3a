import { mulberry32 } from '../../src/lib/random';

/** Deterministic random numbers (mulberry32), so a seed always paints the same photo. */
export function random(seed: number) {
  const next = mulberry32(seed);
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * next();
  const int = (lo: number, hi: number) => Math.floor(uniform(lo, hi + 1));
  const normal = () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next());
  return { next, uniform, int, normal, chance: (p: number) => next() < p };
}
export type Rng = ReturnType<typeof random>;
