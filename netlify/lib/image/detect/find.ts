import { downsample, fitSize, upsample } from '../planes';
import { detectDamage } from './detector';
import { grow } from '../masks';
import { withFlanks } from './paths';
import { residualOf } from './residual';

/**
 * Pixel budgets of the damage search. A working plane up to DETECT_PIXELS is searched as it is; a larger one (a
 * 12 MP photo's 2 MP plane) at COARSE_PIXELS, where a scratch of a few pixels is still a line, and the mask found
 * there is refined on the working plane along the damage found only: inside its upsampled band, the pixels that
 * stand out of the median by more than the grain.
 */
export const DETECT_PIXELS = 1_100_000;
export const COARSE_PIXELS = 400_000;
/** Share of a coarse damage pixel that makes a working pixel part of the band, and the grain spreads it must stand out by. */
const BAND = 0.2;
const REFINE_SPREADS = 1.5;

/** Pixels to fill, and how much of the fill replaces each (absent: all of it). */
export type DamageMask = { mask: Uint8Array; weight?: Float32Array };

/**
 * The damage mask (pixels to fill) of a working plane `Lw` with its 5×5 median `med` and pixel noise `grain`.
 * Borderline damage is filled partly (`weight`) on a plane searched at its own size; the coarse search keeps
 * only the sure damage.
 */
export async function findDamage(Lw: Float32Array, med: Float32Array, w: number, h: number, grain: number): Promise<DamageMask> {
  if (w * h <= DETECT_PIXELS) return detectDamage(Lw, w, h, med);
  const coarseSide = Math.sqrt((COARSE_PIXELS * Math.max(w, h)) / Math.min(w, h));
  const { width: dw, height: dh } = fitSize(w, h, coarseSide);
  const coarse = (await detectDamage(downsample(Lw, w, h, dw, dh), dw, dh)).core;
  const band = upsample(Float32Array.from(coarse), dw, dh, w, h);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) if (band[i]! > BAND && Math.abs(Lw[i]! - med[i]!) > REFINE_SPREADS * grain) mask[i] = 1;
  grow(mask, w, h);
  return { mask };
}

/** A given damage mask (at the working size) with the strokes' flanks, as the detector gives them. */
export async function knownDamageMask(known: Uint8Array, Lw: Float32Array, w: number, h: number): Promise<Uint8Array> {
  if (known.length !== w * h) throw new Error(`The damage mask must be ${w}×${h}`);
  const wide = await residualOf(Lw, w, h, undefined, 9);
  return withFlanks(known, wide.r, wide.sigma, w, h);
}
