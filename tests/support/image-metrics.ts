// Scoring metrics exactly as defined by the old-photo fixtures' README (oldphoto-v1), so numbers
// here match the reference scorer: PSNR, SSIM on luma, CIEDE2000, CIE76, Δab, colourfulness.
// Inputs are interleaved 8-bit RGB buffers of the same size.

const M = [0.412453, 0.35758, 0.180423, 0.212671, 0.71516, 0.072169, 0.019334, 0.119193, 0.950227];
const WHITE = [0.95047, 1.0, 1.08883];
const LIN = Array.from({ length: 256 }, (_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});
const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);

export function srgbToLab(r: number, g: number, b: number): [number, number, number] {
  const R = LIN[r], G = LIN[g], B = LIN[b];
  const X = (M[0] * R + M[1] * G + M[2] * B) / WHITE[0];
  const Y = (M[3] * R + M[4] * G + M[5] * B) / WHITE[1];
  const Z = (M[6] * R + M[7] * G + M[8] * B) / WHITE[2];
  const fy = f(Y);
  return [116 * fy - 16, 500 * (f(X) - fy), 200 * (fy - f(Z))];
}

/** CIEDE2000 (kL = kC = kH = 1) per Sharma, Wu & Dalal (2005). */
export function ciede2000(L1: number, a1: number, b1: number, L2: number, a2: number, b2: number): number {
  const rad = Math.PI / 180;
  const C1 = Math.hypot(a1, b1), C2 = Math.hypot(a2, b2);
  const Cb = (C1 + C2) / 2;
  const Cb7 = Cb ** 7;
  const G = 0.5 * (1 - Math.sqrt(Cb7 / (Cb7 + 25 ** 7)));
  const a1p = (1 + G) * a1, a2p = (1 + G) * a2;
  const C1p = Math.hypot(a1p, b1), C2p = Math.hypot(a2p, b2);
  const hp = (b: number, a: number) => {
    if (b === 0 && a === 0) return 0;
    const h = Math.atan2(b, a) / rad;
    return h < 0 ? h + 360 : h;
  };
  const h1p = hp(b1, a1p), h2p = hp(b2, a2p);
  const dLp = L2 - L1, dCp = C2p - C1p;
  let dhp = 0;
  if (C1p * C2p !== 0) {
    dhp = h2p - h1p;
    if (dhp > 180) dhp -= 360;
    else if (dhp < -180) dhp += 360;
  }
  const dHp = 2 * Math.sqrt(C1p * C2p) * Math.sin((dhp / 2) * rad);
  const Lbp = (L1 + L2) / 2, Cbp = (C1p + C2p) / 2;
  let hbp = h1p + h2p;
  if (C1p * C2p !== 0) {
    if (Math.abs(h1p - h2p) <= 180) hbp = (h1p + h2p) / 2;
    else hbp = h1p + h2p < 360 ? (h1p + h2p + 360) / 2 : (h1p + h2p - 360) / 2;
  }
  const T = 1 - 0.17 * Math.cos((hbp - 30) * rad) + 0.24 * Math.cos(2 * hbp * rad) + 0.32 * Math.cos((3 * hbp + 6) * rad) - 0.2 * Math.cos((4 * hbp - 63) * rad);
  const dTheta = 30 * Math.exp(-(((hbp - 275) / 25) ** 2));
  const Cbp7 = Cbp ** 7;
  const RC = 2 * Math.sqrt(Cbp7 / (Cbp7 + 25 ** 7));
  const SL = 1 + (0.015 * (Lbp - 50) ** 2) / Math.sqrt(20 + (Lbp - 50) ** 2);
  const SC = 1 + 0.045 * Cbp;
  const SH = 1 + 0.015 * Cbp * T;
  const RT = -Math.sin(2 * dTheta * rad) * RC;
  return Math.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH));
}

export function psnr(a: Uint8Array, b: Uint8Array): number {
  let se = 0;
  for (let i = 0; i < a.length; i++) { const d = a[i] - b[i]; se += d * d; }
  if (se === 0) return 100;
  return Math.min(100, 10 * Math.log10((255 * 255) / (se / a.length)));
}

function luma(rgb: Uint8Array, n: number): Float64Array {
  const y = new Float64Array(n);
  for (let i = 0, p = 0; i < n; i++, p += 3) y[i] = 0.299 * rgb[p] + 0.587 * rgb[p + 1] + 0.114 * rgb[p + 2];
  return y;
}

/** Separable 11-tap Gaussian (σ 1.5), "valid" region only: output (w−10)×(h−10). */
function gaussValid(x: Float64Array, w: number, h: number): Float64Array {
  const k = Array.from({ length: 11 }, (_, i) => Math.exp(-((i - 5) ** 2) / (2 * 1.5 * 1.5)));
  const s = k.reduce((p, q) => p + q, 0);
  for (let i = 0; i < 11; i++) k[i] /= s;
  const ow = w - 10, oh = h - 10;
  const tmp = new Float64Array(ow * h);
  for (let y = 0; y < h; y++) for (let xx = 0; xx < ow; xx++) {
    let acc = 0;
    for (let i = 0; i < 11; i++) acc += k[i] * x[y * w + xx + i];
    tmp[y * ow + xx] = acc;
  }
  const out = new Float64Array(ow * oh);
  for (let y = 0; y < oh; y++) for (let xx = 0; xx < ow; xx++) {
    let acc = 0;
    for (let i = 0; i < 11; i++) acc += k[i] * tmp[(y + i) * ow + xx];
    out[y * ow + xx] = acc;
  }
  return out;
}

/** Mean SSIM on luma (Wang et al. 2004 with skimage's gaussian_weights settings). */
export function ssim(a: Uint8Array, b: Uint8Array, w: number, h: number): number {
  const n = w * h;
  const x = luma(a, n), y = luma(b, n);
  const xx = new Float64Array(n), yy = new Float64Array(n), xy = new Float64Array(n);
  for (let i = 0; i < n; i++) { xx[i] = x[i] * x[i]; yy[i] = y[i] * y[i]; xy[i] = x[i] * y[i]; }
  const mx = gaussValid(x, w, h), my = gaussValid(y, w, h);
  const sxx = gaussValid(xx, w, h), syy = gaussValid(yy, w, h), sxy = gaussValid(xy, w, h);
  const C1 = (0.01 * 255) ** 2, C2 = (0.03 * 255) ** 2;
  let sum = 0;
  for (let i = 0; i < mx.length; i++) {
    const vx = sxx[i] - mx[i] * mx[i], vy = syy[i] - my[i] * my[i], cxy = sxy[i] - mx[i] * my[i];
    sum += ((2 * mx[i] * my[i] + C1) * (2 * cxy + C2)) / ((mx[i] ** 2 + my[i] ** 2 + C1) * (vx + vy + C2));
  }
  return sum / mx.length;
}

/** Hasler–Süsstrunk colourfulness: σ_rgyb + 0.3·μ_rgyb, population statistics on 0..255. */
export function colourfulness(rgb: Uint8Array): number {
  const n = rgb.length / 3;
  let srg = 0, syb = 0, srg2 = 0, syb2 = 0;
  for (let p = 0; p < rgb.length; p += 3) {
    const rg = rgb[p] - rgb[p + 1], yb = (rgb[p] + rgb[p + 1]) / 2 - rgb[p + 2];
    srg += rg; syb += yb; srg2 += rg * rg; syb2 += yb * yb;
  }
  const mrg = srg / n, myb = syb / n;
  const vrg = srg2 / n - mrg * mrg, vyb = syb2 / n - myb * myb;
  return Math.sqrt(Math.max(0, vrg) + Math.max(0, vyb)) + 0.3 * Math.sqrt(mrg * mrg + myb * myb);
}

export type Scores = {
  psnr: number; ssim: number; deltaE2000: number; deltaE76: number; deltaAB: number;
  colourfulnessOutput: number; colourfulnessTruth: number; colourfulnessDiff: number;
};

/** Mean CIEDE2000 of an output against its truth over the pixels `mask` marks (NaN when it marks none). */
export function deltaE2000Inside(out: Uint8Array, truth: Uint8Array, mask: Uint8Array): number {
  let sum = 0, n = 0;
  for (let i = 0; i < mask.length; i++) {
    if (!mask[i]) continue;
    const p = i * 3;
    const [L1, a1, b1] = srgbToLab(out[p], out[p + 1], out[p + 2]);
    const [L2, a2, b2] = srgbToLab(truth[p], truth[p + 1], truth[p + 2]);
    sum += ciede2000(L1, a1, b1, L2, a2, b2);
    n++;
  }
  return n ? sum / n : NaN;
}

/** All fixture metrics of an output against its truth (same size, interleaved RGB). */
export function scoreImage(out: Uint8Array, truth: Uint8Array, w: number, h: number): Scores {
  const n = w * h;
  let de00 = 0, de76 = 0, dab = 0;
  for (let p = 0; p < n * 3; p += 3) {
    const [L1, a1, b1] = srgbToLab(out[p], out[p + 1], out[p + 2]);
    const [L2, a2, b2] = srgbToLab(truth[p], truth[p + 1], truth[p + 2]);
    de00 += ciede2000(L1, a1, b1, L2, a2, b2);
    de76 += Math.hypot(L1 - L2, a1 - a2, b1 - b2);
    dab += Math.hypot(a1 - a2, b1 - b2);
  }
  const mo = colourfulness(out), mt = colourfulness(truth);
  return {
    psnr: psnr(out, truth), ssim: ssim(out, truth, w, h),
    deltaE2000: de00 / n, deltaE76: de76 / n, deltaAB: dab / n,
    colourfulnessOutput: mo, colourfulnessTruth: mt, colourfulnessDiff: mo - mt,
  };
}

/** Whether each pixel lies within `r` px (Chebyshev) of a set pixel: a (2r+1)² square dilation, separable. */
export function dilateSquare(set: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const tmp = new Uint8Array(w * h), out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    let last = -Infinity; // x of the last set pixel seen going right
    for (let x = 0; x < w; x++) { if (set[y * w + x]) last = x; if (x - last <= r) tmp[y * w + x] = 1; }
    last = Infinity;
    for (let x = w - 1; x >= 0; x--) { if (set[y * w + x]) last = x; if (last - x <= r) tmp[y * w + x] = 1; }
  }
  for (let x = 0; x < w; x++) {
    let last = -Infinity;
    for (let y = 0; y < h; y++) { if (tmp[y * w + x]) last = y; if (y - last <= r) out[y * w + x] = 1; }
    last = Infinity;
    for (let y = h - 1; y >= 0; y--) { if (tmp[y * w + x]) last = y; if (last - y <= r) out[y * w + x] = 1; }
  }
  return out;
}

export type RemovalScore = { removal: number; excessOutput: number; excessInput: number; damagedPixels: number };

/** Mask value from which a pixel counts as damaged (a stroke blended at a quarter or more). */
export const DAMAGED = 64;
/** The fitted slope is taken as at least this when the residual is divided by it. */
const MIN_SLOPE = 0.2;

/**
 * Damage removal as the fixtures' README defines it (revised score), on luma: damaged pixels D (mask ≥ 64),
 * ring R (in the 9×9 square around D, outside its 3×3 square, mask ≤ 5), clean C (outside the 9×9 square).
 * `Y_X ≈ a·Y_truth + b` fitted over C; residual |Y_X − (a·Y_truth + b)| / a (in the truth's units, so undoing
 * the fade is not counted as leftover damage); excess = mean residual over D − over R;
 * removal = 1 − excess(output) / excess(input).
 */
export function damageRemoval(out: Uint8Array, input: Uint8Array, truth: Uint8Array, mask: Uint8Array, w: number, h: number): RemovalScore {
  const n = w * h;
  const yo = luma(out, n), yi = luma(input, n), yt = luma(truth, n);
  const D = mask.map((v) => (v >= DAMAGED ? 1 : 0));
  const near3 = dilateSquare(D, w, h, 1), near9 = dilateSquare(D, w, h, 4);
  const excess = (y: Float64Array) => {
    let st = 0, sy = 0, stt = 0, sty = 0, c = 0;
    for (let i = 0; i < n; i++) if (!near9[i]) { st += yt[i]; sy += y[i]; stt += yt[i] * yt[i]; sty += yt[i] * y[i]; c++; }
    const a = (c * sty - st * sy) / (c * stt - st * st || 1);
    const b = (sy - a * st) / (c || 1);
    const slope = Math.max(MIN_SLOPE, a);
    let sd = 0, nd = 0, sr = 0, nr = 0;
    for (let i = 0; i < n; i++) {
      const r = Math.abs(y[i] - (a * yt[i] + b)) / slope;
      if (D[i]) { sd += r; nd++; } else if (near9[i] && !near3[i] && mask[i] <= 5) { sr += r; nr++; }
    }
    return sd / (nd || 1) - sr / (nr || 1);
  };
  const eo = excess(yo), ei = excess(yi);
  return { removal: 1 - eo / ei, excessOutput: eo, excessInput: ei, damagedPixels: D.reduce((s, v) => s + v, 0) };
}

export type DetectionScore = {
  precision: number;
  recall: number;
  flaggedPct: number;
  precisionAnyDamage: number;
  /** The counts behind the ratios, so several photos can be pooled. */
  counts: { detected: number; hits: number; damaged: number; found: number };
};

/**
 * A detector's mask against the damage mask (≥ 64 is damage, as for removal). A detected pixel within 1 px of damage is a
 * hit (precision); a damaged pixel within 1 px of a detection is found (recall). `precisionAnyDamage` also
 * counts hits on faint damage (mask > 5): it tells real false alarms from faint strokes below the threshold.
 */
export function detectionScore(detected: Uint8Array, mask: Uint8Array, w: number, h: number): DetectionScore {
  const D = mask.map((v) => (v >= DAMAGED ? 1 : 0));
  const nearD = dilateSquare(D, w, h, 1), nearDet = dilateSquare(detected.map((v) => (v ? 1 : 0)), w, h, 1);
  const nearAny = dilateSquare(mask.map((v) => (v > 5 ? 1 : 0)), w, h, 1);
  let det = 0, hit = 0, hitAny = 0, dam = 0, found = 0;
  for (let i = 0; i < w * h; i++) {
    if (detected[i]) { det++; if (nearD[i]) hit++; if (nearAny[i]) hitAny++; }
    if (D[i]) { dam++; if (nearDet[i]) found++; }
  }
  return {
    precision: det ? hit / det : 1,
    recall: dam ? found / dam : 1,
    flaggedPct: (100 * det) / (w * h),
    precisionAnyDamage: det ? hitAny / det : 1,
    counts: { detected: det, hits: hit, damaged: dam, found },
  };
}
