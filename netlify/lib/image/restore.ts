import { detectDamage, grow, pixelNoise } from './damage-detect';
import { medianPlane, robustSpread } from './damage-features';
import { healMarks, type HealMark } from './heal';
import type { Tone } from '../../../src/lib/tool/image-schema';
import { addGrain, inpaintExemplar } from './inpaint';
import { linearToSrgb, lToY, srgbToLinear, yToL } from './lab';
import { bilinearRows, downsample, fitSize, guidedCoefficients, percentile, upsample } from './planes';

// Luminance restoration. Every step works on CIELAB L* (0..100). The analysis (median, noise
// estimate, guided-filter coefficients) runs at a working resolution; the result is applied to the
// full-resolution plane, so fine detail survives and a 12 MP photo stays fast.

export type RestoreOptions = {
  /** Pixel budget of the working resolution used for analysis. */
  workPixels: number;
  /** 0..1: how much of the estimated grain to remove. */
  denoise: number;
  /** Gain of the edge-aware local contrast boost (0 = off). */
  localContrast: number;
  /** Gain of the thresholded unsharp mask (0 = off). */
  sharpen: number;
  /** 0..1: how far the faded tonal range is stretched back to full scale. */
  fade: number;
  /** Corner brightening of the lens fall-off correction (0 = off; 0.12 ≈ a mild old-lens vignette). */
  vignette: number;
};

/** L* (0..100) → display value (sRGB-encoded grey, 0..1) and back. */
function lToValue(L: number): number {
  return linearToSrgb(lToY(L));
}
function valueToL(v: number): number {
  return yToL(srgbToLinear(v));
}

/** Display value the darkest tones (0.5th percentile) are brought back to. */
const BLACK = 0.02;

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
    const k = Math.min(255, x | 0), f = x - k;
    return lut[k] + f * (lut[k + 1] - lut[k]);
  };
}

export type RestoreReport = {
  defectPixels: number; noiseSigma: number; stretch: [number, number];
  /** The damage mask (1 = removed) at `maskWidth` × `maskHeight`. */
  mask: Uint8Array; maskWidth: number; maskHeight: number;
};

/**
 * Pixel budgets of the damage search. The detector's features cost a few microseconds a pixel, so a working
 * plane up to DETECT_PIXELS is searched as it is, and a larger one (a 12 MP photo's 2 MP plane) at
 * COARSE_PIXELS, where a scratch of a few pixels is still a line; the found mask is then refined on the
 * working plane: only the pixels inside its upsampled band that stand out of the median by more than the
 * grain are kept, with one pixel of rim.
 */
const DETECT_PIXELS = 1_100_000, COARSE_PIXELS = 400_000;

async function findDamage(Lw: Float32Array, med: Float32Array, w: number, h: number, grain: number): Promise<Uint8Array> {
  if (w * h <= DETECT_PIXELS) return (await detectDamage(Lw, w, h, med)).mask;
  const { width: dw, height: dh } = fitSize(w, h, Math.sqrt(COARSE_PIXELS * Math.max(w, h) / Math.min(w, h)));
  const coarse = (await detectDamage(downsample(Lw, w, h, dw, dh), dw, dh)).core;
  const cf = new Float32Array(dw * dh);
  for (let i = 0; i < cf.length; i++) cf[i] = coarse[i];
  const band = upsample(cf, dw, dh, w, h), mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) if (band[i] > 0.2 && Math.abs(Lw[i] - med[i]) > 1.5 * grain) mask[i] = 1;
  grow(mask, w, h);
  return mask;
}

/** A given damage mask (at the working size) with the detector's one-pixel rim. */
function grownMask(known: Uint8Array, w: number, h: number): Uint8Array {
  if (known.length !== w * h) throw new Error(`The damage mask must be ${w}×${h}`);
  const mask = known.slice();
  grow(mask, w, h);
  return mask;
}

export async function restoreLuminance(
  L: Float32Array, W: number, H: number, opts: RestoreOptions, timings: Record<string, number> = {}, heal: HealMark[] = [],
  knownDamage?: Uint8Array,
): Promise<{ L: Float32Array; report: RestoreReport }> {
  const N = W * H;
  const { width: w, height: h } = W * H > opts.workPixels ? fitSize(W, H, Math.sqrt(opts.workPixels * Math.max(W, H) / Math.min(W, H))) : { width: W, height: H };
  const full = w === W && h === H;
  let t = performance.now();
  const lap = (k: string) => { const now = performance.now(); timings[k] = (timings[k] ?? 0) + now - t; t = now; };

  const Lw = full ? L : downsample(L, W, H, w, h);
  const out = L.slice();

  // 1. Dust, scratches and fibres (damage-detect.ts), found at the working resolution and rebuilt from the
  //    texture around them (exemplar inpainting), with grain put back so no smooth stripe shows.
  const med = await medianPlane(Lw, w, h, 5);
  const resid = new Float32Array(w * h);
  for (let i = 0; i < resid.length; i++) resid[i] = Lw[i] - med[i];
  const sigma = robustSpread(resid);
  const grain = pixelNoise(Lw, w, h);
  const damage = knownDamage ? grownMask(knownDamage, w, h) : await findDamage(Lw, med, w, h, grain);
  lap('detect');
  let defectPixels = 0;
  for (let i = 0; i < damage.length; i++) defectPixels += damage[i];
  const Lc = Lw === L ? Lw.slice() : Lw;
  if (full) {
    inpaintExemplar(Lc, w, h, damage);
    addGrain(Lc, damage, grain);
    for (let i = 0; i < N; i++) if (damage[i]) out[i] = Lc[i];
  } else if (defectPixels) {
    // The working plane only guides the denoise below: the median is fill enough there.
    for (let i = 0; i < damage.length; i++) if (damage[i]) Lc[i] = med[i];
    // Back at full resolution, row by row (no full-size planes): within the upsampled band of the damage,
    // the pixels that stand out from the upsampled median are filled and given grain at full resolution.
    const grainFull = pixelNoise(L, W, H);
    const df = new Float32Array(w * h);
    for (let i = 0; i < df.length; i++) df[i] = damage[i];
    const row = bilinearRows(w, h, W, H);
    const du = new Float32Array(W), mm = new Float32Array(W);
    const fine = new Uint8Array(N);
    // Rows of the working plane with any damage, widened by one: full-resolution rows between others are skipped.
    const busyRow = new Uint8Array(h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) if (damage[y * w + x]) { busyRow[Math.max(0, y - 1)] = busyRow[y] = busyRow[Math.min(h - 1, y + 1)] = 1; break; }
    for (let Y = 0; Y < H; Y++) {
      if (!busyRow[Math.min(h - 1, Math.floor(((Y + 0.5) * h) / H))]) continue;
      row(df, Y, du); row(med, Y, mm);
      const o = Y * W;
      for (let X = 0; X < W; X++) if (du[X] > 0.2 && Math.abs(L[o + X] - mm[X]) > 1.5 * grainFull) fine[o + X] = 1;
    }
    // A large photo's damage is filled from nearer patches: its texture repeats at a smaller scale in pixels.
    inpaintExemplar(out, W, H, fine, { window: 7 });
    addGrain(out, fine, grainFull);
  }
  lap('defects');
  if (heal.length) {
    healMarks(out, W, H, heal, full ? grain : pixelNoise(L, W, H));
    if (full) Lc.set(out);
    lap('heal');
  }

  // 2. Edge-preserving denoise: self-guided filter; eps set from the measured grain so only
  //    variations of grain size are flattened, edges (variance ≫ eps) pass through.
  if (opts.denoise > 0 && sigma > 0.3) {
    const eps = (2.2 * sigma) ** 2;
    const { A, B } = guidedCoefficients(Lc, Lc, w, h, full ? 2 : 1, eps);
    const keep = 1 - opts.denoise;
    if (full) {
      for (let i = 0; i < N; i++) { const q = A[i] * out[i] + B[i]; out[i] = q + keep * (out[i] - q); }
    } else {
      // Coefficients brought to full resolution a row at a time: two full-size planes would be 8 bytes a pixel.
      const row = bilinearRows(w, h, W, H), Ar = new Float32Array(W), Br = new Float32Array(W);
      for (let Y = 0, o = 0; Y < H; Y++, o += W) {
        row(A, Y, Ar); row(B, Y, Br);
        for (let X = 0; X < W; X++) { const q = Ar[X] * out[o + X] + Br[X]; out[o + X] = q + keep * (out[o + X] - q); }
      }
    }
  }
  lap('denoise');

  // 3. Fade. A faded print lifts its blacks and dims its whites in *print density*, i.e. an affine
  //    squeeze of the display value (sRGB), not of L*: undo it there. Blacks (0.5th percentile) go
  //    back to black; the highlights are stretched to white only if they are bright enough to have
  //    been white — a dark-toned photo keeps its dark tone instead of being pushed to full scale.
  const lo = percentile(Lc, 0.005), hi = percentile(Lc, 0.995), md = percentile(Lc, 0.5);
  const curve = fadeCurve(lToValue(lo), lToValue(md), lToValue(hi), opts.fade);
  // 4. Local contrast: add back a share of the detail above an edge-aware base layer.
  const baseR = Math.max(4, Math.round(Math.min(w, h) / 40));
  const base = opts.localContrast > 0 ? guidedCoefficients(Lc, Lc, w, h, baseR, 60) : null;
  const alpha = opts.localContrast;
  if (base) {
    const row = bilinearRows(w, h, W, H), Ar = new Float32Array(W), Br = new Float32Array(W);
    for (let Y = 0, o = 0; Y < H; Y++, o += W) {
      row(base.A, Y, Ar); row(base.B, Y, Br);
      for (let X = 0; X < W; X++) { const v = out[o + X], b = Ar[X] * v + Br[X]; out[o + X] = curve(b + (1 + alpha) * (v - b)); }
    }
  } else for (let i = 0; i < N; i++) out[i] = curve(out[i]);
  // Lens fall-off: old lenses darken the corners; brighten them by the prior 1 / (1 − k·r²)
  // (r = 1 at the corners). Estimating k per photo proved unreliable (content looks like
  // vignetting), so this is a fixed, mild correction; 0 turns it off.
  if (opts.vignette > 0) {
    const cx = (W - 1) / 2, cy = (H - 1) / 2, R2 = cx * cx + cy * cy || 1;
    // L* → display value and back through tables: this runs on every pixel of a 12 MP photo.
    const toV = new Float32Array(1025).map((_, k) => lToValue(k / 10.24));
    const toL = new Float32Array(4097).map((_, k) => valueToL(k / 4096));
    for (let y = 0; y < H; y++) {
      const dy2 = (y - cy) ** 2;
      for (let x = 0; x < W; x++) {
        const g = 1 / (1 - opts.vignette * (((x - cx) ** 2 + dy2) / R2));
        if (g < 1.002) continue;
        const i = y * W + x;
        const v = toV[Math.min(1024, Math.max(0, (out[i] * 10.24 + 0.5) | 0))] * g;
        out[i] = v >= 1 ? 100 : toL[(v * 4096 + 0.5) | 0];
      }
    }
  }
  const gain = curve(60) - curve(40) > 0 ? (curve(60) - curve(40)) / 20 : 1;
  lap('tone');

  // 5. Gentle sharpening: binomial 3×3 unsharp mask, soft-thresholded at the grain level so the
  //    remaining grain is not amplified.
  if (opts.sharpen > 0) {
    const tmp = new Float32Array(N);
    for (let y = 0; y < H; y++) {
      const r = y * W;
      tmp[r] = (3 * out[r] + out[r + Math.min(1, W - 1)]) / 4;
      for (let x = 1; x < W - 1; x++) tmp[r + x] = (out[r + x - 1] + 2 * out[r + x] + out[r + x + 1]) / 4;
      if (W > 1) tmp[r + W - 1] = (out[r + W - 2] + 3 * out[r + W - 1]) / 4;
    }
    const thr = 1.5 * sigma * gain;
    const beta = opts.sharpen;
    for (let y = 0; y < H; y++) {
      const up = Math.max(0, y - 1) * W, r = y * W, dn = Math.min(H - 1, y + 1) * W;
      for (let x = 0; x < W; x++) {
        const blur = (tmp[up + x] + 2 * tmp[r + x] + tmp[dn + x]) / 4;
        const d = out[r + x] - blur;
        const ad = Math.abs(d);
        if (ad > thr) out[r + x] += beta * Math.sign(d) * (ad - thr);
      }
    }
  }
  for (let i = 0; i < N; i++) out[i] = out[i] < 0 ? 0 : out[i] > 100 ? 100 : out[i];
  lap('sharpen');
  return { L: out, report: { defectPixels, noiseSigma: sigma, stretch: [lo, hi], mask: damage, maskWidth: w, maskHeight: h } };
}

/**
 * Grey, sepia or colour from the chroma of a thumbnail: grey has almost no chroma; sepia has
 * modest chroma whose hue sits in one narrow warm band; anything else is colour.
 */
export function detectTone(a: Float32Array, b: Float32Array): Tone {
  const n = a.length;
  let sumC = 0, sa = 0, sb = 0;
  for (let i = 0; i < n; i++) {
    const c = Math.hypot(a[i], b[i]);
    sumC += c;
    if (c > 1e-6) { sa += a[i] / c; sb += b[i] / c; }
  }
  const meanC = sumC / n;
  if (meanC < 2.5) return 'grey';
  const coherence = Math.hypot(sa, sb) / n; // 1 = every pixel has the same hue
  const hue = (Math.atan2(sb, sa) * 180) / Math.PI;
  if (meanC < 30 && coherence > 0.85 && hue > 20 && hue < 110) return 'sepia';
  return 'colour';
}
