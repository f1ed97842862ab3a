// Gaussian mixture colour models for GrabCut (Rother, Kolmogorov & Blake 2004): K full-covariance
// components over RGB, learnt from the pixels currently labelled one side, giving each pixel the cost
// −log p(colour) of belonging to that side.

/** Added to each covariance diagonal (RGB units²): keeps flat or greyscale regions invertible. */
const REGULARISATION = 4;

type Component = { weight: number; mean: Float64Array; inverse: Float64Array; logNorm: number };

export class ColourModel {
  private components: Component[] = [];

  /**
   * Fits K components to the pixels of `rgb` (interleaved, 3 bytes) where `select[i]` is set: a deterministic
   * k-means start (pixels spread along the brightest-to-darkest order), then a few assignment rounds.
   */
  static fit(rgb: Uint8Array, select: Uint8Array, k = 5, rounds = 4): ColourModel {
    const model = new ColourModel();
    const chosen: number[] = [];
    for (let i = 0; i < select.length; i++) if (select[i]) chosen.push(i);
    if (chosen.length === 0) return model;
    const count = Math.min(k, chosen.length);
    const luma = (i: number) => rgb[i * 3]! * 0.299 + rgb[i * 3 + 1]! * 0.587 + rgb[i * 3 + 2]! * 0.114;
    const sorted = [...chosen].sort((a, b) => luma(a) - luma(b));
    const centres = Array.from({ length: count }, (_, c) => {
      const i = sorted[Math.floor(((c + 0.5) / count) * sorted.length)]!;
      return [rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!];
    });
    const label = new Uint8Array(chosen.length);
    for (let round = 0; round < rounds; round++) {
      for (let n = 0; n < chosen.length; n++) {
        const i = chosen[n]!;
        let best = 0;
        let bestDistance = Infinity;
        for (let c = 0; c < count; c++) {
          const d = (rgb[i * 3]! - centres[c]![0]!) ** 2 + (rgb[i * 3 + 1]! - centres[c]![1]!) ** 2 + (rgb[i * 3 + 2]! - centres[c]![2]!) ** 2;
          if (d < bestDistance) {
            bestDistance = d;
            best = c;
          }
        }
        label[n] = best;
      }
      const sums = Array.from({ length: count }, () => [0, 0, 0, 0]);
      for (let n = 0; n < chosen.length; n++) {
        const i = chosen[n]!;
        const s = sums[label[n]!]!;
        s[0]! += rgb[i * 3]!;
        s[1]! += rgb[i * 3 + 1]!;
        s[2]! += rgb[i * 3 + 2]!;
        s[3]! += 1;
      }
      for (let c = 0; c < count; c++) {
        const s = sums[c]!;
        if (s[3]! > 0) centres[c] = [s[0]! / s[3]!, s[1]! / s[3]!, s[2]! / s[3]!];
      }
    }
    model.estimate(rgb, chosen, label, count);
    return model;
  }

  /** Re-estimates weights, means and covariances from a hard assignment of the chosen pixels. */
  private estimate(rgb: Uint8Array, chosen: number[], label: Uint8Array, count: number): void {
    const stats = Array.from({ length: count }, () => new Float64Array(10));
    for (let n = 0; n < chosen.length; n++) {
      const i = chosen[n]!;
      const r = rgb[i * 3]!;
      const g = rgb[i * 3 + 1]!;
      const b = rgb[i * 3 + 2]!;
      const s = stats[label[n]!]!;
      s[0]! += 1;
      s[1]! += r;
      s[2]! += g;
      s[3]! += b;
      s[4]! += r * r;
      s[5]! += r * g;
      s[6]! += r * b;
      s[7]! += g * g;
      s[8]! += g * b;
      s[9]! += b * b;
    }
    this.components = [];
    for (const s of stats) {
      const n = s[0]!;
      if (n < 1) continue;
      const m = Float64Array.of(s[1]! / n, s[2]! / n, s[3]! / n);
      const c = [
        s[4]! / n - m[0]! * m[0]! + REGULARISATION, s[5]! / n - m[0]! * m[1]!, s[6]! / n - m[0]! * m[2]!,
        s[7]! / n - m[1]! * m[1]! + REGULARISATION, s[8]! / n - m[1]! * m[2]!,
        s[9]! / n - m[2]! * m[2]! + REGULARISATION,
      ];
      const [a, b, d, e, f, g] = c as [number, number, number, number, number, number];
      // Symmetric 3×3 [[a b d] [b e f] [d f g]]: determinant and inverse by cofactors.
      const det = a * (e * g - f * f) - b * (b * g - f * d) + d * (b * f - e * d);
      const inv = Float64Array.of(
        (e * g - f * f) / det, (d * f - b * g) / det, (b * f - d * e) / det,
        (a * g - d * d) / det, (b * d - a * f) / det,
        (a * e - b * b) / det,
      );
      this.components.push({ weight: n / chosen.length, mean: m, inverse: inv, logNorm: Math.log(n / chosen.length) - 0.5 * Math.log(Math.max(det, 1e-9)) });
    }
  }

  get size(): number {
    return this.components.length;
  }

  /** −log of the mixture density at (r, g, b), up to the constant (2π)^(3/2) shared by every model. */
  cost(r: number, g: number, b: number): number {
    let sum = 0;
    for (const c of this.components) {
      const x = r - c.mean[0]!;
      const y = g - c.mean[1]!;
      const z = b - c.mean[2]!;
      const q = c.inverse;
      const m = x * (q[0]! * x + 2 * q[1]! * y + 2 * q[2]! * z) + y * (q[3]! * y + 2 * q[4]! * z) + z * q[5]! * z;
      sum += Math.exp(c.logNorm - 0.5 * m);
    }
    return -Math.log(sum + 1e-300);
  }
}
