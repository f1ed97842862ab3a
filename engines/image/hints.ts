import type { ChromaPlanes } from './colorizer';
import { conjugateGradient } from './conjugate-gradient';
import { hexToLab } from '../shared';
import type { ColorHint } from '../../src/lib/tool/image-schema';

// Colour hints after Levin, Lischinski & Weiss (2004), "Colorization using Optimization":
// neighbouring pixels (3×3) with similar luminance should have similar chroma. The affinity is
// w_rs = exp(-(L_r − L_s)² / (2σ_r²)), σ_r the local luminance variance, as in the paper. We minimise
// the symmetric form Σ w_rs (U_r − U_s)² + λ Σ (U_r − U0_r)² + Σ s_r (U_r − T_r)², with the buyer's hinted
// pixels fixed, where U0 is the automatic chroma (λ small: hints win inside their region, far regions keep U0)
// and T, s the soft hints (a colour a pixel should lean to and how strongly: what the engine itself knows, such
// as a face's skin, which edges still bound and a buyer's hint overrides). The system is symmetric positive
// definite, solved by Jacobi-preconditioned conjugate gradient at reduced resolution; the caller upsamples the
// result guided by full-resolution luminance.

export type { ColorHint };

/** Soft hints at the chroma plane's size: per pixel a target chroma and its weight (0 = none; 1 ≈ one strong neighbour). */
export type SoftHints = { a: Float32Array; b: Float32Array; weight: Float32Array };

export type PropagateOptions = {
  /** Pull towards the automatic chroma (see above). */
  lambda?: number;
  iterations?: number;
  /** Radius of a buyer's hint in chroma pixels (default a 128th of the long side). */
  radius?: number;
  soft?: SoftHints;
};

const OFFSETS: [number, number][] = [[1, 0], [-1, 1], [0, 1], [1, 1]]; // half of the 8-neighbourhood; edges are symmetric

/** The buyer's hints as fixed pixels (a disc each) with their chroma; null when none is usable. */
function hintPixels(hints: readonly ColorHint[], w: number, h: number, rad: number) {
  const fixed = new Uint8Array(w * h);
  const a = new Float32Array(w * h), b = new Float32Array(w * h);
  for (const hint of hints) {
    const lab = hexToLab(hint.color);
    if (!lab) continue;
    const cx = Math.round(Math.min(1, Math.max(0, hint.x)) * (w - 1)), cy = Math.round(Math.min(1, Math.max(0, hint.y)) * (h - 1));
    for (let y = Math.max(0, cy - rad); y <= Math.min(h - 1, cy + rad); y++)
      for (let x = Math.max(0, cx - rad); x <= Math.min(w - 1, cx + rad); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 > rad * rad) continue;
        fixed[y * w + x] = 1;
        a[y * w + x] = lab[1];
        b[y * w + x] = lab[2];
      }
  }
  return fixed.some((v) => v) ? { fixed, a, b } : null;
}

/** Each pixel's neighbour along OFFSETS[k] at 4i + k, or −1 past the border. */
function neighbours(w: number, h: number): Int32Array {
  const nb = new Int32Array(w * h * 4).fill(-1);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    for (let k = 0; k < 4; k++) {
      const xx = x + OFFSETS[k]![0], yy = y + OFFSETS[k]![1];
      if (xx >= 0 && yy >= 0 && xx < w && yy < h) nb[(y * w + x) * 4 + k] = yy * w + xx;
    }
  }
  return nb;
}

/** Local variance σ_r² over the 3×3 window (floored so flat regions still connect strongly). */
function localVariance(L: Float32Array, w: number, h: number): Float32Array {
  const sig2 = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    let s = 0, s2 = 0, c = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx, yy = y + dy;
      if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
      const v = L[yy * w + xx]!;
      s += v;
      s2 += v * v;
      c++;
    }
    const m = s / c;
    sig2[y * w + x] = Math.min(12, Math.max(2, (s2 / c - m * m) * 0.6)); // capped: a window straddling an edge must not make the edge look weak
  }
  return sig2;
}

/** The affinities w_rs, one per pixel and OFFSETS direction (each edge stored once). */
function affinities(L: Float32Array, w: number, h: number, nb: Int32Array): Float32Array {
  const sig2 = localVariance(L, w, h);
  const wt = new Float32Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    for (let k = 0; k < 4; k++) {
      const j = nb[i * 4 + k]!;
      if (j < 0) continue;
      const d = L[i]! - L[j]!;
      const s = 0.5 * (sig2[i]! + sig2[j]!);
      wt[i * 4 + k] = Math.exp(-(d * d) / (2 * s)) + 1e-6;
    }
  }
  return wt;
}

/** The system's diagonal: the data weight (λ, plus the soft hints') and every edge's weight on both its ends. */
function systemDiagonal(wt: Float32Array, nb: Int32Array, n: number, lambda: number, soft?: SoftHints): Float32Array {
  const diag = new Float32Array(n).fill(lambda);
  if (soft) for (let i = 0; i < n; i++) diag[i] = lambda + soft.weight[i]!;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 4; k++) {
      const j = nb[i * 4 + k]!;
      if (j < 0) continue;
      diag[i]! += wt[i * 4 + k]!;
      diag[j]! += wt[i * 4 + k]!;
    }
  }
  return diag;
}

/** out = A·u restricted to free pixels (fixed pixels act as zero there: their values sit in the right-hand side). */
function freeProduct(wt: Float32Array, nb: Int32Array, diag: Float32Array, fixed: Uint8Array) {
  const n = diag.length;
  return (u: Float32Array, out: Float32Array) => {
    for (let i = 0; i < n; i++) out[i] = fixed[i] ? 0 : diag[i]! * u[i]!;
    for (let i = 0; i < n; i++) {
      for (let k = 0; k < 4; k++) {
        const j = nb[i * 4 + k]!;
        if (j < 0) continue;
        const c = wt[i * 4 + k]!;
        if (!fixed[i] && !fixed[j]) {
          out[i]! -= c * u[j]!;
          out[j]! -= c * u[i]!;
        }
      }
    }
  };
}

/** λ·U0 (+ s·T) on the free pixels, and the fixed pixels' pull on their free neighbours. */
function rightHandSide(wt: Float32Array, nb: Int32Array, fixed: Uint8Array, hint: Float32Array, prior: Float32Array, lambda: number, soft?: { target: Float32Array; weight: Float32Array }): Float32Array {
  const n = prior.length;
  const rhs = new Float32Array(n);
  for (let i = 0; i < n; i++) rhs[i] = fixed[i] ? 0 : lambda * prior[i]!;
  if (soft) for (let i = 0; i < n; i++) if (!fixed[i]) rhs[i] = lambda * prior[i]! + soft.weight[i]! * soft.target[i]!;
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 4; k++) {
      const j = nb[i * 4 + k]!;
      if (j < 0) continue;
      const c = wt[i * 4 + k]!;
      if (fixed[j] && !fixed[i]) rhs[i]! += c * hint[j]!;
      if (fixed[i] && !fixed[j]) rhs[j]! += c * hint[i]!;
    }
  }
  return rhs;
}

/**
 * The automatic chroma `base` with the buyer's `hints` and the engine's `soft` hints propagated along L* (w × h,
 * the chroma plane's size). Returns `base` itself when there is nothing to propagate.
 */
export function propagateHints(L: Float32Array, w: number, h: number, base: ChromaPlanes, hints: readonly ColorHint[], opts: PropagateOptions = {}): ChromaPlanes {
  const n = w * h;
  const lambda = opts.lambda ?? 2e-4;
  const rad = opts.radius ?? Math.max(1, Math.round(Math.max(w, h) / 128));
  const soft = opts.soft;
  const given = hintPixels(hints, w, h, rad);
  if (!given && !soft) return base;
  const { fixed, a: ha, b: hb } = given ?? { fixed: new Uint8Array(n), a: new Float32Array(n), b: new Float32Array(n) };

  const nb = neighbours(w, h);
  const wt = affinities(L, w, h, nb);
  const diag = systemDiagonal(wt, nb, n, lambda, soft);
  const apply = freeProduct(wt, nb, diag, fixed);
  const solve = (hint: Float32Array, prior: Float32Array, target?: Float32Array) => {
    const rhs = rightHandSide(wt, nb, fixed, hint, prior, lambda, soft && target && { target, weight: soft.weight });
    const u = new Float32Array(n);
    for (let i = 0; i < n; i++) u[i] = fixed[i] ? 0 : prior[i]!;
    conjugateGradient(apply, diag, rhs, u, { iterations: opts.iterations ?? 400 });
    for (let i = 0; i < n; i++) if (fixed[i]) u[i] = hint[i]!;
    return u;
  };
  const pa = base.width === w && base.height === h ? base.a : new Float32Array(n);
  const pb = base.width === w && base.height === h ? base.b : new Float32Array(n);
  return { a: solve(ha, pa, soft?.a), b: solve(hb, pb, soft?.b), width: w, height: h };
}
