import { linearToSrgb, lToY, srgbToLinear, yToL, between, bilinearRowPairs, percentiles, type RowPass } from '../../shared';
import type { Tone } from '../../../src/lib/tool/image-schema';

// Tone: undoing the fade, the local contrast boost and the lens fall-off correction, on full-resolution L*.

/** L* (0..100) → display value (sRGB-encoded grey, 0..1) and back. */
export function lToValue(L: number): number {
  return linearToSrgb(lToY(L));
}
export function valueToL(v: number): number {
  return yToL(srgbToLinear(v));
}

/** Display value the darkest tones (0.5th percentile) are brought back to. */
const BLACK = 0.02;
/** Percentiles of the working plane taken as its black, middle and white. */
const LOW = 0.005;
const HIGH = 0.995;

/**
 * Tone curve undoing a fade, in display value v (sRGB grey 0..1), anchored at the median so the
 * photo's overall key is kept: shadows stretched so the 0.5th percentile returns to black,
 * highlights by the same gain at most (less if the 99.5th percentile would pass white). Blended
 * with the identity by `amount`; returned as a 257-entry table over L*.
 */
export function fadeCurve(loV: number, midV: number, hiV: number, amount: number): (L: number) => number {
  const gLo = (midV - BLACK) / Math.max(0.05, midV - loV);
  const gHi = Math.min(gLo, (1 - midV) / Math.max(0.05, hiV - midV));
  const lut = new Float32Array(257);
  for (let k = 0; k <= 256; k++) {
    const L = (k / 256) * 100;
    const v0 = lToValue(L);
    const v = Math.min(1, Math.max(0, midV + (v0 - midV) * (v0 < midV ? gLo : gHi)));
    lut[k] = L + amount * (valueToL(v) - L);
  }
  return (L: number) => {
    const x = Math.min(256, Math.max(0, (L / 100) * 256));
    const k = Math.min(255, x | 0);
    const f = x - k;
    return lut[k]! + f * (lut[k + 1]! - lut[k]!);
  };
}

/**
 * The fade curve of a photo from its working plane `Lw`. A faded print lifts its blacks and dims its whites in
 * *print density*, an affine squeeze of the display value (sRGB), not of L*: it is undone there. Blacks go back
 * to black; the highlights are stretched to white only if they are bright enough to have been white, so a
 * dark-toned photo keeps its dark tone.
 */
export function photoFadeCurve(Lw: Float32Array, amount: number): { curve: (L: number) => number; stretch: [number, number] } {
  const [lo, hi, md] = percentiles(Lw, [LOW, HIGH, 0.5]);
  return { curve: fadeCurve(lToValue(lo), lToValue(md), lToValue(hi), amount), stretch: [lo, hi] };
}

/** Contrast gain of a tone curve at mid-grey (L* 40 → 60), for scaling grain thresholds after it. */
export function midGain(curve: (L: number) => number): number {
  const d = curve(60) - curve(40);
  return d > 0 ? d / 20 : 1;
}

export type LocalContrast = { A: Float32Array; B: Float32Array; width: number; height: number; alpha: number };

/**
 * The tone of the full-resolution plane (W × H), a row at a time: the tone curve on every pixel, with a share
 * `alpha` of the detail above an edge-aware base layer added back first when `base` (guided-filter coefficients
 * at the working size) is given; then the lens fall-off correction of strength `vignette` (0 turns it off).
 *
 * Lens fall-off: old lenses darken the corners; brighten them by the prior 1 / (1 − k·r²) (r = 1 at the
 * corners). Estimating k per photo proved unreliable (content looks like vignetting), so this is a fixed, mild
 * correction.
 */
export function toneRows(W: number, H: number, curve: (L: number) => number, base: LocalContrast | null, vignette: number): RowPass {
  const pair = base && bilinearRowPairs(base.width, base.height, W, H);
  const fallOff = vignette > 0 ? lensFallOff(W, H, vignette) : null;
  return (Y, row) => {
    if (!base) {
      for (let X = 0; X < W; X++) row[X] = curve(row[X]!);
    } else {
      // The base's coefficients upsampled where they are used.
      const { top: tA, bot: bA, ty } = pair!(base.A, Y);
      const { top: tB, bot: bB } = pair!(base.B, Y);
      for (let X = 0; X < W; X++) {
        const v = row[X]!;
        const b = between(tA, bA, ty, X) * v + between(tB, bB, ty, X);
        row[X] = curve(b + (1 + base.alpha) * (v - b));
      }
    }
    fallOff?.(Y, row);
  };
}

/** The lens fall-off correction of strength k (see toneRows), as a row pass. */
function lensFallOff(W: number, H: number, k: number): RowPass {
  const cx = (W - 1) / 2;
  const cy = (H - 1) / 2;
  const R2 = cx * cx + cy * cy || 1;
  // L* → display value and back through tables: this runs on every pixel of a 12 MP photo.
  const toV = new Float32Array(1025).map((_, j) => lToValue(j / 10.24));
  const toL = new Float32Array(4097).map((_, j) => valueToL(j / 4096));
  const dx2 = Float64Array.from({ length: W }, (_, x) => (x - cx) ** 2);
  return (y, row) => {
    const dy2 = (y - cy) ** 2;
    for (let x = 0; x < W; x++) {
      const g = 1 / (1 - k * ((dx2[x]! + dy2) / R2));
      if (g < 1.002) continue;
      const v = toV[Math.min(1024, Math.max(0, (row[x]! * 10.24 + 0.5) | 0))]! * g;
      row[x] = v >= 1 ? 100 : toL[(v * 4096 + 0.5) | 0]!;
    }
  };
}

/**
 * Grey, sepia or colour from the chroma of a thumbnail: grey has almost no chroma; sepia has
 * modest chroma whose hue sits in one narrow warm band; anything else is colour.
 */
export function detectTone(a: Float32Array, b: Float32Array): Tone {
  const n = a.length;
  let sumC = 0;
  let sa = 0;
  let sb = 0;
  for (let i = 0; i < n; i++) {
    const c = Math.hypot(a[i]!, b[i]!);
    sumC += c;
    if (c > 1e-6) {
      sa += a[i]! / c;
      sb += b[i]! / c;
    }
  }
  const meanC = sumC / n;
  if (meanC < 2.5) return 'grey';
  // 1 = every pixel has the same hue.
  const coherence = Math.hypot(sa, sb) / n;
  const hue = (Math.atan2(sb, sa) * 180) / Math.PI;
  if (meanC < 30 && coherence > 0.85 && hue > 20 && hue < 110) return 'sepia';
  return 'colour';
}
