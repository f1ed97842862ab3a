import sharp from 'sharp';
import { boxMean, downsample, fitSize, guidedCoefficients, percentile, upsample } from './planes';

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
};

export type RestoreReport = { defectPixels: number; noiseSigma: number; stretch: [number, number] };

/** 5×5 median of a plane, run by libvips on an 8-bit copy (detection only needs 8 bits). */
async function median5(src: Float32Array, w: number, h: number): Promise<Float32Array> {
  const u8 = new Uint8Array(w * h);
  for (let i = 0; i < u8.length; i++) u8[i] = Math.max(0, Math.min(255, Math.round(src[i] * 2.55)));
  const out = await sharp(u8, { raw: { width: w, height: h, channels: 1 } }).median(5).toColourspace('b-w').raw().toBuffer(); // b-w: sharp would otherwise emit 3 channels
  const med = new Float32Array(w * h);
  for (let i = 0; i < med.length; i++) med[i] = out[i] / 2.55;
  return med;
}

/** Robust noise sigma from the median residual (1.4826 · MAD). */
function noiseSigma(resid: Float32Array): number {
  const abs = new Float32Array(resid.length);
  for (let i = 0; i < resid.length; i++) abs[i] = Math.abs(resid[i]);
  return 1.4826 * percentile(abs, 0.5, 0, 50, 4096);
}

/**
 * Dust and scratch mask: pixels that differ from their 5×5 median by much more than the grain and
 * the local structure explain. A thin line or speck disappears in the median; real texture raises
 * the local spread of the median itself and so raises the threshold.
 */
export function defectMask(Lw: Float32Array, med: Float32Array, w: number, h: number, sigma: number): Uint8Array {
  const n = w * h;
  const m2 = new Float32Array(n);
  for (let i = 0; i < n; i++) m2[i] = med[i] * med[i];
  const mm = boxMean(med, w, h, 2), mm2 = boxMean(m2, w, h, 2);
  const raw = new Uint8Array(n);
  const floor = Math.max(5, 3.5 * sigma);
  for (let i = 0; i < n; i++) {
    const spread = Math.sqrt(Math.max(0, mm2[i] - mm[i] * mm[i]));
    if (Math.abs(Lw[i] - med[i]) > floor + 0.9 * spread) raw[i] = 1;
  }
  // Grow by one pixel so the soft rim of a scratch goes too.
  const mask = new Uint8Array(n);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    if (!raw[y * w + x]) continue;
    for (let dy = -1; dy <= 1; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= h) continue;
      for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx;
        if (xx >= 0 && xx < w) mask[yy * w + xx] = 1;
      }
    }
  }
  return mask;
}

export async function restoreLuminance(
  L: Float32Array, W: number, H: number, opts: RestoreOptions, timings: Record<string, number> = {},
): Promise<{ L: Float32Array; report: RestoreReport }> {
  const N = W * H;
  const { width: w, height: h } = W * H > opts.workPixels ? fitSize(W, H, Math.sqrt(opts.workPixels * Math.max(W, H) / Math.min(W, H))) : { width: W, height: H };
  const full = w === W && h === H;
  let t = performance.now();
  const lap = (k: string) => { const now = performance.now(); timings[k] = (timings[k] ?? 0) + now - t; t = now; };

  const Lw = full ? L : downsample(L, W, H, w, h);
  const out = full ? L.slice() : L.slice();

  // 1. Dust and scratches.
  const med = await median5(Lw, w, h);
  const resid = new Float32Array(w * h);
  for (let i = 0; i < resid.length; i++) resid[i] = Lw[i] - med[i];
  const sigma = noiseSigma(resid);
  const mask = defectMask(Lw, med, w, h, sigma);
  let defectPixels = 0;
  const Lc = Lw === L ? Lw.slice() : Lw;
  for (let i = 0; i < mask.length; i++) if (mask[i]) { Lc[i] = med[i]; defectPixels++; }
  if (full) {
    for (let i = 0; i < N; i++) if (mask[i]) out[i] = med[i];
  } else if (defectPixels) {
    const mf = new Float32Array(w * h);
    for (let i = 0; i < mf.length; i++) mf[i] = mask[i];
    const mu = upsample(mf, w, h, W, H), medU = upsample(med, w, h, W, H);
    for (let i = 0; i < N; i++) if (mu[i] > 0.2) { const k = Math.min(1, mu[i] * 1.6); out[i] = out[i] * (1 - k) + medU[i] * k; }
  }
  lap('defects');

  // 2. Edge-preserving denoise: self-guided filter; eps set from the measured grain so only
  //    variations of grain size are flattened, edges (variance ≫ eps) pass through.
  if (opts.denoise > 0 && sigma > 0.3) {
    const eps = (2.2 * sigma) ** 2;
    const { A, B } = guidedCoefficients(Lc, Lc, w, h, full ? 2 : 1, eps);
    const keep = 1 - opts.denoise;
    if (full) {
      for (let i = 0; i < N; i++) { const q = A[i] * out[i] + B[i]; out[i] = q + keep * (out[i] - q); }
    } else {
      const Au = upsample(A, w, h, W, H), Bu = upsample(B, w, h, W, H);
      for (let i = 0; i < N; i++) { const q = Au[i] * out[i] + Bu[i]; out[i] = q + keep * (out[i] - q); }
    }
  }
  lap('denoise');

  // 3. Fade: stretch the 0.5–99.5 % range of L* back towards full scale (never compress it).
  const lo = percentile(Lc, 0.005), hi = percentile(Lc, 0.995);
  const fullGain = Math.min(2.5, Math.max(1, 94 / Math.max(1e-3, hi - lo)));
  const gain = 1 + opts.fade * (fullGain - 1);
  // Map lo→3 and the range with `gain`; when not fully stretched keep the midpoint where it was.
  const mid = (lo + hi) / 2, newMid = 3 + (gain * (hi - lo)) / 2;
  const target = 3 + (1 - opts.fade) * (mid - newMid);
  // 4. Local contrast: add back a share of the detail above an edge-aware base layer.
  const baseR = Math.max(4, Math.round(Math.min(w, h) / 40));
  const base = opts.localContrast > 0 ? guidedCoefficients(Lc, Lc, w, h, baseR, 60) : null;
  const Au = base ? upsample(base.A, w, h, W, H) : null, Bu = base ? upsample(base.B, w, h, W, H) : null;
  const alpha = opts.localContrast;
  for (let i = 0; i < N; i++) {
    let v = out[i];
    if (Au && Bu) { const b = Au[i] * v + Bu[i]; v = b + (1 + alpha) * (v - b); }
    out[i] = target + (v - lo) * gain;
  }
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
  return { L: out, report: { defectPixels, noiseSigma: sigma, stretch: [lo, hi] } };
}

export type Tone = 'grey' | 'sepia' | 'colour';

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
