// CIELAB (D65) conversions with the exact constants used by skimage.color.rgb2lab, so the engine
// and the benchmark agree. Lookup tables keep the full-resolution passes cheap.

const M = [0.412453, 0.35758, 0.180423, 0.212671, 0.71516, 0.072169, 0.019334, 0.119193, 0.950227];
const XN = 0.95047;
const ZN = 1.08883;
const EPS = 216 / 24389;
const KAPPA = 24389 / 27;

// Inverse of M, computed once.
const MI = (() => {
  const [a, b, c, d, e, f, g, h, i] = M;
  const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
  return [
    (e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det,
    (f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det,
    (d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det,
  ];
})();

export function srgbToLinear(c: number): number {
  return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
}
export function linearToSrgb(c: number): number {
  return c <= 0.0031308 ? 12.92 * c : 1.055 * Math.pow(c, 1 / 2.4) - 0.055;
}
const fLab = (t: number) => (t > EPS ? Math.cbrt(t) : (KAPPA * t + 16) / 116);
const fInv = (f: number) => {
  const f3 = f * f * f;
  return f3 > EPS ? f3 : (116 * f - 16) / KAPPA;
};

/** Relative luminance Y (0..1) of L* (0..100), and back. */
export const lToY = (L: number) => fInv((L + 16) / 116);
export const yToL = (Y: number) => 116 * fLab(Y) - 16;

const LIN8 = new Float32Array(256).map((_, i) => srgbToLinear(i / 255));
/** L* of a neutral grey of 8-bit sRGB value v. */
export const GREY_TO_L = new Float32Array(256).map((_, i) => 116 * fLab(LIN8[i]) - 16);

// Linear → 8-bit sRGB through a fine table (error well under half a level).
const GAMMA_N = 16384;
const GAMMA = new Uint8Array(GAMMA_N + 1).map((_, i) => Math.round(255 * linearToSrgb(i / GAMMA_N)));
const toByte = (lin: number) => (lin <= 0 ? 0 : lin >= 1 ? 255 : GAMMA[(lin * GAMMA_N + 0.5) | 0]);

export function rgbToLab(r: number, g: number, b: number): [number, number, number] {
  const R = LIN8[r], G = LIN8[g], B = LIN8[b];
  const fx = fLab((M[0] * R + M[1] * G + M[2] * B) / XN);
  const fy = fLab(M[3] * R + M[4] * G + M[5] * B);
  const fz = fLab((M[6] * R + M[7] * G + M[8] * B) / ZN);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

export function labToRgb(L: number, a: number, b: number): [number, number, number] {
  const fy = (L + 16) / 116;
  const X = XN * fInv(fy + a / 500), Y = fInv(fy), Z = ZN * fInv(fy - b / 200);
  return [
    toByte(MI[0] * X + MI[1] * Y + MI[2] * Z),
    toByte(MI[3] * X + MI[4] * Y + MI[5] * Z),
    toByte(MI[6] * X + MI[7] * Y + MI[8] * Z),
  ];
}

export type LabPlanes = { L: Float32Array; a: Float32Array; b: Float32Array; width: number; height: number };

/** Interleaved 8-bit RGB (3 channels) → planar Lab. */
export function rgbBufferToLab(rgb: Uint8Array, width: number, height: number, channels = 3): LabPlanes {
  const n = width * height;
  const L = new Float32Array(n), A = new Float32Array(n), B = new Float32Array(n);
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const [l, a, b] = rgbToLab(rgb[p], rgb[p + 1], rgb[p + 2]);
    L[i] = l;
    A[i] = a;
    B[i] = b;
  }
  return { L, a: A, b: B, width, height };
}

/** L* of interleaved RGB, one cube root per pixel (the chroma is not needed at full resolution). */
export function rgbBufferToL(rgb: Uint8Array, n: number, channels: number): Float32Array {
  const L = new Float32Array(n);
  if (channels < 3) {
    for (let i = 0, p = 0; i < n; i++, p += channels) L[i] = GREY_TO_L[rgb[p]];
    return L;
  }
  // The matrix row in locals: read from the array, it is loaded again for every pixel.
  const m3 = M[3], m4 = M[4], m5 = M[5];
  for (let i = 0, p = 0; i < n; i++, p += channels) {
    const r = rgb[p], g = rgb[p + 1], b = rgb[p + 2];
    if (r === g && g === b) {
      L[i] = GREY_TO_L[r];
      continue;
    }
    // Y → L* from a fine table, linearly interpolated (within 0.001 L*): a cube root per pixel of a 12 MP photo costs more.
    const x = (m3 * LIN8[r] + m4 * LIN8[g] + m5 * LIN8[b]) * Y_TO_L_N, k = x >= Y_TO_L_N ? Y_TO_L_N - 1 : x | 0;
    L[i] = Y_TO_L[k] + (x - k) * (Y_TO_L[k + 1] - Y_TO_L[k]);
  }
  return L;
}
const Y_TO_L_N = 65536;
const Y_TO_L = new Float64Array(Y_TO_L_N + 1).map((_, k) => 116 * fLab(k / Y_TO_L_N) - 16);

/** Planar Lab → interleaved 8-bit RGB, into `out` at byte `offset` when given (row-by-row callers). */
export function labToRgbBuffer(L: Float32Array, a: Float32Array, b: Float32Array, out = new Uint8Array(L.length * 3), offset = 0): Uint8Array {
  const n = L.length;
  // The inverse matrix in locals: read from the array, it is loaded again for every pixel.
  const [i0, i1, i2, i3, i4, i5, i6, i7, i8] = MI;
  for (let i = 0, p = offset; i < n; i++, p += 3) {
    const fy = (L[i] + 16) / 116;
    const X = XN * fInv(fy + a[i] / 500), Y = fInv(fy), Z = ZN * fInv(fy - b[i] / 200);
    out[p] = toByte(i0 * X + i1 * Y + i2 * Z);
    out[p + 1] = toByte(i3 * X + i4 * Y + i5 * Z);
    out[p + 2] = toByte(i6 * X + i7 * Y + i8 * Z);
  }
  return out;
}

/** '#rrggbb' → Lab, or null when malformed. */
export function hexToLab(hex: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  return rgbToLab(parseInt(m[1], 16), parseInt(m[2], 16), parseInt(m[3], 16));
}
