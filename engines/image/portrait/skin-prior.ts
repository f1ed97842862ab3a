import prior from './skin-prior.json' with { type: 'json' };

// The chroma of skin and lips by lightness, fitted on the faces of colour photos (the face mesh's skin and lips;
// scripts/training/fit-skin-prior.ts writes skin-prior.json). Skin is redder and more saturated in its mid-tones than in
// its highlights and shadows, so the prior is a table over L*, read with linear interpolation.

export type SkinPrior = {
  /** Bin width in L*; bin k covers [k·step, (k + 1)·step). */
  step: number;
  /** Median a*, b* of skin per bin (every bin filled: empty ones from their neighbours). */
  a: number[];
  b: number[];
  /** Lips against the skin at the same L*: median Δa*, Δb*. */
  lips: { da: number; db: number };
};

export const SKIN_PRIOR: SkinPrior = prior;

/** Skin chroma at lightness L (0..100). */
export function skinChroma(L: number, p: SkinPrior = SKIN_PRIOR): [number, number] {
  const t = Math.min(p.a.length - 1, Math.max(0, L / p.step - 0.5));
  const k = Math.min(p.a.length - 2, Math.floor(t)), f = t - k;
  return [p.a[k]! + f * (p.a[k + 1]! - p.a[k]!), p.b[k]! + f * (p.b[k + 1]! - p.b[k]!)];
}
