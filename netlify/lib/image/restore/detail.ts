import { bilinearRows, guidedCoefficients } from '../planes';

// Grain and detail: the edge-preserving denoise, and the gentle sharpening at the end.

/** Grain size (in grain spreads) the self-guided filter flattens: variations of grain size go, edges pass. */
const DENOISE_SPREADS = 2.2;
/**
 * How much of the grain is kept, by the filter's local gain A (the share of a window's variation it passes): the
 * pipeline's share from `structure` up (texture and edges, where flattening grain-sized variation would take fine
 * detail with it), falling to none at `flat`. Grain alone gives A ≈ 1 / (1 + DENOISE_SPREADS²) ≈ 0.17, so flat
 * ground keeps about 60 % of the share and its smoothest windows none: grain there is noise the photo never had.
 * Measured on the fixtures and the validation set: mean SSIM +0.009 on both, damage removal unchanged.
 */
const GRAIN_KEPT = { flat: 0.05, structure: 0.25 };
/** The share of the grain kept at a pixel of gain `a`, `keep` being the pipeline's share over structure. */
const keptShare = (a: number, keep: number) => keep * Math.min(1, Math.max(0, (a - GRAIN_KEPT.flat) / (GRAIN_KEPT.structure - GRAIN_KEPT.flat)));
/** Grain spreads (after the tone curve) below which the unsharp mask leaves a difference alone. */
const SHARPEN_SPREADS = 1.5;

/**
 * Edge-preserving denoise: a self-guided filter of the working plane `Lc` (w × h) with eps set from the measured
 * grain `sigma`, applied to `out` (W × H; the same plane when the sizes agree), keeping up to `1 − amount` of the grain
 * where the window shows structure and less on flat ground (`GRAIN_KEPT`);
 * `scale` is how many pixels wide the grain is (2 on an oversampled plane).
 * At a smaller working size the coefficients reach full resolution a row at a time (two full-size planes
 * would be 8 bytes a pixel).
 */
export function denoise(out: Float32Array, W: number, H: number, Lc: Float32Array, w: number, h: number, sigma: number, amount: number, scale = 1): void {
  if (amount <= 0 || sigma <= 0.3) return;
  const full = w === W && h === H;
  // Grain `scale` px wide (an oversampled scan) is smoothed over `scale` times the reach, and eps grows with it:
  // the median's residual measures such clumped grain as finer than it is.
  const eps = (DENOISE_SPREADS * sigma * scale) ** 2;
  const { A, B } = guidedCoefficients(Lc, Lc, w, h, (full ? 2 : 1) * scale, eps);
  const keep = 1 - amount;
  if (full) {
    for (let i = 0; i < out.length; i++) {
      const q = A[i]! * out[i]! + B[i]!;
      out[i] = q + keptShare(A[i]!, keep) * (out[i]! - q);
    }
    return;
  }
  const row = bilinearRows(w, h, W, H);
  const Ar = new Float32Array(W);
  const Br = new Float32Array(W);
  for (let Y = 0, o = 0; Y < H; Y++, o += W) {
    row(A, Y, Ar);
    row(B, Y, Br);
    for (let X = 0; X < W; X++) {
      const q = Ar[X]! * out[o + X]! + Br[X]!;
      out[o + X] = q + keptShare(Ar[X]!, keep) * (out[o + X]! - q);
    }
  }
}

/** Pixels of a plane of another size (the working plane) to leave alone. */
export type LeaveMask = { mask: Uint8Array; width: number; height: number };

/**
 * Gentle sharpening: a binomial 3×3 unsharp mask of gain `amount`, soft-thresholded at the grain level
 * (`sigma` × the tone curve's `gain`) so the remaining grain is not amplified. Pixels under `leave` (given at
 * the working size, read at the nearest working pixel) keep their value.
 */
export function sharpen(out: Float32Array, W: number, H: number, sigma: number, gain: number, amount: number, leave?: LeaveMask): void {
  if (amount <= 0) return;
  const col = leave && Int32Array.from({ length: W }, (_, x) => Math.min(leave.width - 1, Math.floor((x * leave.width) / W)));
  const tmp = new Float32Array(out.length);
  for (let y = 0; y < H; y++) {
    const r = y * W;
    tmp[r] = (3 * out[r]! + out[r + Math.min(1, W - 1)]!) / 4;
    for (let x = 1; x < W - 1; x++) tmp[r + x] = (out[r + x - 1]! + 2 * out[r + x]! + out[r + x + 1]!) / 4;
    if (W > 1) tmp[r + W - 1] = (out[r + W - 2]! + 3 * out[r + W - 1]!) / 4;
  }
  const thr = SHARPEN_SPREADS * sigma * gain;
  for (let y = 0; y < H; y++) {
    const up = Math.max(0, y - 1) * W;
    const r = y * W;
    const dn = Math.min(H - 1, y + 1) * W;
    const lr = leave ? Math.min(leave.height - 1, Math.floor((y * leave.height) / H)) * leave.width : 0;
    for (let x = 0; x < W; x++) {
      if (leave && leave.mask[lr + col![x]!]) continue;
      const blur = (tmp[up + x]! + 2 * tmp[r + x]! + tmp[dn + x]!) / 4;
      const d = out[r + x]! - blur;
      const ad = Math.abs(d);
      if (ad > thr) out[r + x]! += amount * Math.sign(d) * (ad - thr);
    }
  }
}

/** Keeps every value within L*'s range. */
export function clampL(out: Float32Array): void {
  for (let i = 0; i < out.length; i++) out[i] = out[i]! < 0 ? 0 : out[i]! > 100 ? 100 : out[i]!;
}
