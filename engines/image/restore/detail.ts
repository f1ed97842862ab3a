import { between, bilinearRowPairs, downsample, fitSize, guidedCoefficients, type RowPass } from '../../shared';
import { residualOf } from '../detect/residual';

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
/**
 * A second, wider filter for photos whose pixel-scale variation is grain nearly everywhere: `scale` times the
 * reach and eps, blended in by the photo's texture share (`textureShare`), fully up to `full` and not at all from
 * `none`. Where fine texture has the grain's variance (grass, brickwork, foliage), no local test tells it from
 * grain (docs/image-engine-history.md, "Denoise"), but such photos have many windows busier than their
 * quietest ones, and they keep the narrow filter. Chosen on the generated validation set: at 1.5 times every photo
 * up to 0.15 gained (SSIM +0.02 to +0.15), from 0.23 they gained or lost alike; twice the reach and eps gained
 * more than 1.5 times (mean SSIM 0.7306 → 0.7382).
 */
export const WIDE_DENOISE = { scale: 2, full: 0.15, none: 0.25, block: 8, quiet: 0.2, busy: 1.5, grainLike: 1.2 };

/**
 * The share of a residual plane's blocks (`WIDE_DENOISE.block` px square) whose spread is over `busy` times the
 * quietest fifth's: the photo's texture at the pixel's scale, with its grain as the unit. Null when even the
 * quiet blocks are busier than `grainLike` times the residual's robust spread `sigma`: then the residual is not
 * grain (a blocky, upscaled drawing), and the reference is wrong.
 */
export function textureShare(resid: Float32Array, w: number, h: number, sigma: number): number | null {
  const { block: B, quiet, busy, grainLike } = WIDE_DENOISE;
  const spreads: number[] = [];
  for (let by = 0; by + B <= h; by += B) {
    for (let bx = 0; bx + B <= w; bx += B) {
      let s = 0, s2 = 0;
      for (let y = by; y < by + B; y++) {
        for (let i = y * w + bx, end = i + B; i < end; i++) {
          const v = resid[i]!;
          s += v;
          s2 += v * v;
        }
      }
      const m = s / (B * B);
      spreads.push(Math.sqrt(Math.max(0, s2 / (B * B) - m * m)));
    }
  }
  if (!spreads.length) return null;
  const reference = Float64Array.from(spreads).sort()[Math.floor(quiet * (spreads.length - 1))]!;
  if (reference > grainLike * sigma) return null;
  return spreads.filter((v) => v > busy * reference).length / spreads.length;
}

/**
 * The texture share (textureShare) of an oversampled plane, measured on its half-size copy: there its
 * grain is about a pixel wide, as on the native photos the share's thresholds were chosen on (on the plane itself
 * a 5×5 median leaves most of two-pixel grain in place, and every photo reads as textured).
 */
export async function halfSizeTextureShare(working: Float32Array, w: number, h: number): Promise<number | null> {
  const { width, height } = fitSize(w, h, Math.max(w, h) / 2);
  const { r, sigma } = await residualOf(downsample(working, w, h, width, height), width, height);
  return textureShare(r, width, height, sigma);
}

/** How much of the wide filter a photo of texture share `share` gets (0…1). */
export function wideDenoiseWeight(share: number | null): number {
  if (share === null) return 0;
  return Math.min(1, Math.max(0, (WIDE_DENOISE.none - share) / (WIDE_DENOISE.none - WIDE_DENOISE.full)));
}

/** Grain spreads (after the tone curve) below which the unsharp mask leaves a difference alone. */
const SHARPEN_SPREADS = 1.5;

/**
 * Edge-preserving denoise: a self-guided filter of the working plane `Lc` (w × h) with eps set from the measured
 * grain `sigma`, applied to the full-resolution plane (W × H) a row at a time, keeping up to `1 − amount` of the
 * grain where the window shows structure and less on flat ground (`GRAIN_KEPT`); `scale` is how many pixels wide
 * the grain is (2 on an oversampled plane), and `wide` how much of the wider filter (WIDE_DENOISE) is blended in.
 * Null when there is nothing to do. At a smaller working size the coefficients reach full resolution a row at a
 * time (two full-size planes would be 8 bytes a pixel).
 */
export function denoiseRows(W: number, H: number, Lc: Float32Array, w: number, h: number, sigma: number, amount: number, scale = 1, wide = 0): RowPass | null {
  if (amount <= 0 || sigma <= 0.3) return null;
  const full = w === W && h === H;
  // Grain `scale` px wide (an oversampled scan) is smoothed over `scale` times the reach, and eps grows with it:
  // the median's residual measures such clumped grain as finer than it is.
  const coefficients = (s: number) => guidedCoefficients(Lc, Lc, w, h, Math.round((full ? 2 : 1) * s), (DENOISE_SPREADS * sigma * s) ** 2);
  const { A, B } = coefficients(scale);
  if (wide > 0) {
    // The output is linear in the coefficients: blending them blends the two filters' outputs.
    const far = coefficients(scale * WIDE_DENOISE.scale);
    for (let i = 0; i < A.length; i++) {
      A[i]! += wide * (far.A[i]! - A[i]!);
      B[i]! += wide * (far.B[i]! - B[i]!);
    }
  }
  const keep = 1 - amount;
  if (full) {
    return (Y, row) => {
      for (let X = 0, i = Y * W; X < W; X++, i++) {
        const q = A[i]! * row[X]! + B[i]!;
        row[X] = q + keptShare(A[i]!, keep) * (row[X]! - q);
      }
    };
  }
  const pair = bilinearRowPairs(w, h, W, H);
  return (Y, row) => {
    // A and B upsampled where they are used.
    const { top: tA, bot: bA, ty } = pair(A, Y);
    const { top: tB, bot: bB } = pair(B, Y);
    for (let X = 0; X < W; X++) {
      const a = between(tA, bA, ty, X);
      const q = a * row[X]! + between(tB, bB, ty, X);
      row[X] = q + keptShare(a, keep) * (row[X]! - q);
    }
  };
}

/** Pixels of a plane of another size (the working plane) to leave alone. */
export type LeaveMask = { mask: Uint8Array; width: number; height: number };

/**
 * Gentle sharpening: a binomial 3×3 unsharp mask of gain `amount`, soft-thresholded at the grain level
 * (`sigma` × the tone curve's `gain`) so the remaining grain is not amplified. Pixels under `leave` (given at
 * the working size, read at the nearest working pixel) keep their value. Every value ends within L*'s range.
 */
export function sharpen(out: Float32Array, W: number, H: number, sigma: number, gain: number, amount: number, leave?: LeaveMask): void {
  if (amount <= 0) {
    clampL(out);
    return;
  }
  const col = leave && Int32Array.from({ length: W }, (_, x) => Math.min(leave.width - 1, Math.floor((x * leave.width) / W)));
  // The horizontal blur of the rows above, at and below the one sharpened, each made before that row changes
  // (a full-size blurred copy of a 12 MP photo would be 48 MB).
  const across = (y: number, into: Float32Array) => {
    const r = y * W;
    into[0] = (3 * out[r]! + out[r + Math.min(1, W - 1)]!) / 4;
    for (let x = 1; x < W - 1; x++) into[x] = (out[r + x - 1]! + 2 * out[r + x]! + out[r + x + 1]!) / 4;
    if (W > 1) into[W - 1] = (out[r + W - 2]! + 3 * out[r + W - 1]!) / 4;
  };
  let above = new Float32Array(W), at = new Float32Array(W), below = new Float32Array(W);
  across(0, at);
  const thr = SHARPEN_SPREADS * sigma * gain;
  for (let y = 0; y < H; y++) {
    const r = y * W;
    const up = y > 0 ? above : at;
    const dn = y + 1 < H ? below : at;
    if (y + 1 < H) across(y + 1, below);
    const lr = leave ? Math.min(leave.height - 1, Math.floor((y * leave.height) / H)) * leave.width : 0;
    for (let x = 0; x < W; x++) {
      let v = out[r + x]!;
      if (!(leave && leave.mask[lr + col![x]!])) {
        const blur = (up[x]! + 2 * at[x]! + dn[x]!) / 4;
        const d = v - blur;
        const ad = Math.abs(d);
        // Rounded as the plane stores it before it is clamped.
        if (ad > thr) v = Math.fround(v + amount * Math.sign(d) * (ad - thr));
      }
      out[r + x] = v < 0 ? 0 : v > 100 ? 100 : v;
    }
    [above, at, below] = [at, below, above];
  }
}

/** Keeps every value within L*'s range. */
function clampL(out: Float32Array): void {
  for (let i = 0; i < out.length; i++) out[i] = out[i]! < 0 ? 0 : out[i]! > 100 ? 100 : out[i]!;
}
