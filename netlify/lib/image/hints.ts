import type { ChromaPlanes } from './colorizer';
import { hexToLab } from './lab';
import type { ColorHint } from '../../../src/lib/tool/image-schema';

// Colour hints after Levin, Lischinski & Weiss (2004), "Colorization using Optimization":
// neighbouring pixels (3×3) with similar luminance should have similar chroma. The affinity is
// w_rs = exp(-(L_r − L_s)² / (2σ_r²)), σ_r the local luminance variance, as in the paper. We minimise
// the symmetric form Σ w_rs (U_r − U_s)² + λ Σ (U_r − U0_r)², with the hinted pixels fixed, where U0
// is the automatic chroma (λ small: hints win inside their region, far regions keep U0). The
// system is symmetric positive definite, solved by Jacobi-preconditioned conjugate gradient at
// reduced resolution; the caller upsamples the result guided by full-resolution luminance.

export type { ColorHint };

const OFFSETS: [number, number][] = [[1, 0], [-1, 1], [0, 1], [1, 1]]; // half of the 8-neighbourhood; edges are symmetric

export function propagateHints(
  L: Float32Array, w: number, h: number, base: ChromaPlanes, hints: readonly ColorHint[],
  opts: { lambda?: number; iterations?: number; radius?: number } = {},
): ChromaPlanes {
  const n = w * h;
  const lambda = opts.lambda ?? 2e-4;
  const fixed = new Uint8Array(n);
  const ha = new Float32Array(n), hb = new Float32Array(n);
  const rad = opts.radius ?? Math.max(1, Math.round(Math.max(w, h) / 128));
  for (const hint of hints) {
    const lab = hexToLab(hint.color);
    if (!lab) continue;
    const cx = Math.round(Math.min(1, Math.max(0, hint.x)) * (w - 1)), cy = Math.round(Math.min(1, Math.max(0, hint.y)) * (h - 1));
    for (let y = Math.max(0, cy - rad); y <= Math.min(h - 1, cy + rad); y++)
      for (let x = Math.max(0, cx - rad); x <= Math.min(w - 1, cx + rad); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 > rad * rad) continue;
        fixed[y * w + x] = 1;
        ha[y * w + x] = lab[1];
        hb[y * w + x] = lab[2];
      }
  }
  if (!fixed.some((v) => v)) return base;

  // Local variance σ_r² over the 3×3 window (floored so flat regions still connect strongly).
  const sig2 = new Float32Array(n);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let s = 0, s2 = 0, c = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx, yy = y + dy;
      if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
      const v = L[yy * w + xx];
      s += v;
      s2 += v * v;
      c++;
    }
    const m = s / c;
    sig2[y * w + x] = Math.min(12, Math.max(2, (s2 / c - m * m) * 0.6)); // capped: a window straddling an edge must not make the edge look weak
  }
  // Edge weights (4 per pixel, each shared with a neighbour).
  const wt = new Float32Array(n * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    OFFSETS.forEach(([dx, dy], k) => {
      const xx = x + dx, yy = y + dy;
      if (xx < 0 || yy < 0 || xx >= w || yy >= h) return;
      const d = L[i] - L[yy * w + xx];
      const s = 0.5 * (sig2[i] + sig2[yy * w + xx]);
      wt[i * 4 + k] = Math.exp(-(d * d) / (2 * s)) + 1e-6;
    });
  }
  const diag = new Float32Array(n).fill(lambda);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = y * w + x;
    OFFSETS.forEach(([dx, dy], k) => {
      const xx = x + dx, yy = y + dy;
      if (xx < 0 || yy < 0 || xx >= w || yy >= h) return;
      diag[i] += wt[i * 4 + k];
      diag[yy * w + xx] += wt[i * 4 + k];
    });
  }
  // y = A·u restricted to free pixels (fixed pixels act as zero there: their values sit in the right-hand side).
  const apply = (u: Float32Array, out: Float32Array) => {
    for (let i = 0; i < n; i++) out[i] = fixed[i] ? 0 : diag[i] * u[i];
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      for (let k = 0; k < 4; k++) {
        const [dx, dy] = OFFSETS[k];
        const xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const j = yy * w + xx, c = wt[i * 4 + k];
        if (!fixed[i] && !fixed[j]) {
          out[i] -= c * u[j];
          out[j] -= c * u[i];
        }
      }
    }
  };
  const solve = (hint: Float32Array, prior: Float32Array) => {
    const rhs = new Float32Array(n);
    for (let i = 0; i < n; i++) rhs[i] = fixed[i] ? 0 : lambda * prior[i];
    // Move the fixed pixels' contributions to the right-hand side.
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const i = y * w + x;
      for (let k = 0; k < 4; k++) {
        const [dx, dy] = OFFSETS[k];
        const xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const j = yy * w + xx, c = wt[i * 4 + k];
        if (fixed[j] && !fixed[i]) rhs[i] += c * hint[j];
        if (fixed[i] && !fixed[j]) rhs[j] += c * hint[i];
      }
    }
    const u = new Float32Array(n);
    for (let i = 0; i < n; i++) u[i] = fixed[i] ? 0 : prior[i];
    const r = new Float32Array(n), z = new Float32Array(n), p = new Float32Array(n), q = new Float32Array(n);
    apply(u, q);
    for (let i = 0; i < n; i++) {
      r[i] = fixed[i] ? 0 : rhs[i] - q[i];
      z[i] = r[i] / diag[i];
      p[i] = z[i];
    }
    let rz = 0;
    for (let i = 0; i < n; i++) rz += r[i] * z[i];
    const r0 = Math.sqrt(rhs.reduce((s, v) => s + v * v, 0)) || 1;
    for (let it = 0; it < (opts.iterations ?? 400); it++) {
      apply(p, q);
      let pq = 0;
      for (let i = 0; i < n; i++) pq += p[i] * q[i];
      if (pq <= 0) break;
      const alpha = rz / pq;
      let rr = 0;
      for (let i = 0; i < n; i++) {
        u[i] += alpha * p[i];
        r[i] -= alpha * q[i];
        rr += r[i] * r[i];
      }
      if (Math.sqrt(rr) < 1e-4 * r0) break;
      let rz2 = 0;
      for (let i = 0; i < n; i++) {
        z[i] = r[i] / diag[i];
        rz2 += r[i] * z[i];
      }
      const beta = rz2 / rz;
      rz = rz2;
      for (let i = 0; i < n; i++) p[i] = z[i] + beta * p[i];
    }
    for (let i = 0; i < n; i++) if (fixed[i]) u[i] = hint[i];
    return u;
  };
  const pa = base.width === w && base.height === h ? base.a : new Float32Array(n);
  const pb = base.width === w && base.height === h ? base.b : new Float32Array(n);
  return { a: solve(ha, pa), b: solve(hb, pb), width: w, height: h };
}
