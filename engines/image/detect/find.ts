import { bilinearSampler, downsample, fitSize, upsample, grow } from '../../shared';
import { detectDamage } from './detector';
import { withFlanks } from './paths';
import { residualOf, robustSpread } from './residual';

/**
 * Pixel budgets of the damage search. A working plane up to DETECT_PIXELS is searched as it is, or at half size
 * when it is oversampled (fineShare below OVERSAMPLED: a scan finer than the print it shows, where a scratch is
 * 3–6 px wide, is searched where it is 1–3 px wide like the strokes the detector was trained on); a larger one
 * (a 12 MP photo's 2 MP plane) at COARSE_PIXELS, where a scratch of a few pixels is still a line (halving that
 * copy again when oversampled measured worse on the fixtures scanned at 3×). A mask found on a smaller copy is
 * refined on the working plane along the damage found only: inside its upsampled band, the pixels that stand
 * out of the median by more than the grain.
 */
export const DETECT_PIXELS = 1_100_000;
export const COARSE_PIXELS = 400_000;
/** A plane is oversampled when its finest octave's spread is below this share of the next octave's (natively
 * sampled photos, grain and all, measure 0.68–1.6 on the fixtures and validation photos; the fixtures scanned at
 * twice their size 0.40–0.67). */
export const OVERSAMPLED = 0.6;
/** The search plane's short side is never halved below this, px. */
const MIN_SIDE = 150;
/** Share of a coarse damage pixel that makes a working pixel part of the band, and the grain spreads it must stand out by. */
const BAND = 0.2;
const REFINE_SPREADS = 1.5;

/** Pixels to fill, how much of the fill replaces each (absent: all of it), and the pixels left unsharpened
 * besides them (the detector's doubtful ones; absent when the search ran on a smaller copy); `grown` when the
 * mask reaches a pixel beyond the damage (a search on a smaller copy: its refinement grows it). */
export type DamageMask = { mask: Uint8Array; weight?: Float32Array; suspect?: Uint8Array; twin?: Uint8Array; grown?: boolean };

type Size = { width: number; height: number };

/**
 * The damage mask (pixels to fill) of a working plane `Lw` with its 5×5 median `med` and pixel noise `grain`.
 * Borderline damage is filled partly (`weight`) on a plane searched at its own size; a search on a smaller copy
 * keeps only the sure damage. The median may still be being made: the search starts without it (the periodic
 * textures) and awaits it when it needs it.
 */
export async function findDamage(Lw: Float32Array, med: Float32Array | Promise<Float32Array>, w: number, h: number, grain: number, oversampled = false): Promise<DamageMask> {
  const size = searchSize(w, h, oversampled);
  if (size.width === w && size.height === h) return detectDamage(Lw, w, h, med);
  return { mask: await searchedSmaller(Lw, med, w, h, grain, size), grown: true };
}

/** The size the damage is searched at (see DETECT_PIXELS). */
export function searchSize(w: number, h: number, oversampled: boolean): Size {
  if (w * h > DETECT_PIXELS) return fitSize(w, h, Math.sqrt((COARSE_PIXELS * Math.max(w, h)) / Math.min(w, h)));
  return oversampled ? fitSize(w, h, Math.max(w, h) / 2) : { width: w, height: h };
}

/** Whether a plane is oversampled (see OVERSAMPLED); never when its half would be under MIN_SIDE. */
export function isOversampled(L: Float32Array, w: number, h: number): boolean {
  return Math.min(w, h) >= 2 * MIN_SIDE && fineShare(L, w, h) < OVERSAMPLED;
}

/**
 * How much of a plane's detail is in its finest octave: the robust spread of what a half-size copy loses, over
 * the same of the half-size copy. Grain and sharp detail keep it near 1; an upscaled or scanned-too-fine plane,
 * whose every feature spans two pixels or more, has little there.
 */
export function fineShare(L: Float32Array, w: number, h: number): number {
  const octave = (P: Float32Array, pw: number, ph: number) => {
    const s = fitSize(pw, ph, Math.max(pw, ph) / 2);
    const small = downsample(P, pw, ph, s.width, s.height);
    return { small, size: s, spread: lostSpread(P, small, pw, ph, s.width, s.height) };
  };
  const finest = octave(L, w, h);
  const next = octave(finest.small, finest.size.width, finest.size.height);
  return finest.spread / next.spread;
}

/**
 * robustSpread of what plane P (pw × ph) loses in its smaller copy `small` (sw × sh): P minus `small` upsampled,
 * as floats, taken at robustSpread's own samples alone (every step-th pixel of a large plane; those samples are
 * fewer than 400 000, so robustSpread takes every one of them).
 */
function lostSpread(P: Float32Array, small: Float32Array, pw: number, ph: number, sw: number, sh: number): number {
  const n = pw * ph;
  const step = Math.max(1, Math.floor(n / 200_000));
  // upsample returns a copy of a plane of its own size.
  const same = sw === pw && sh === ph;
  const back = bilinearSampler(sw, sh, pw, ph);
  const lost = new Float32Array(Math.ceil(n / step));
  for (let i = 0, j = 0; i < n; i += step, j++) {
    const x = i % pw;
    lost[j] = P[i]! - (same ? small[i]! : back(small, x, (i - x) / pw));
  }
  return robustSpread(lost);
}

/**
 * The damage of a working plane searched on a smaller copy (dw × dh), refined on the working plane: inside the
 * upsampled band of what was found, the pixels that stand out of the median by more than the grain.
 */
async function searchedSmaller(Lw: Float32Array, pendingMedian: Float32Array | Promise<Float32Array>, w: number, h: number, grain: number, { width: dw, height: dh }: Size): Promise<Uint8Array> {
  const coarse = (await detectDamage(downsample(Lw, w, h, dw, dh), dw, dh)).core;
  const med = await pendingMedian;
  const band = upsample(Float32Array.from(coarse), dw, dh, w, h);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) if (band[i]! > BAND && Math.abs(Lw[i]! - med[i]!) > REFINE_SPREADS * grain) mask[i] = 1;
  grow(mask, w, h);
  return mask;
}

/** A given damage mask (at the working size) with the strokes' flanks, as the detector gives them. */
export async function knownDamageMask(known: Uint8Array, Lw: Float32Array, w: number, h: number): Promise<Uint8Array> {
  if (known.length !== w * h) throw new Error(`The damage mask must be ${w}×${h}`);
  const wide = await residualOf(Lw, w, h, undefined, 9);
  return withFlanks(known, wide.r, wide.sigma, w, h);
}
