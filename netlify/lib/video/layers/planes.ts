// Small plane helpers the layer analysis shares: CIELAB of an RGB buffer, box blurs, connected components,
// a Euclidean-ish distance transform and bilinear resampling. Planes are row-major typed arrays.

import { sampleAt } from '../sampling';

/** An interleaved 8-bit RGB picture. */
export type Rgb = { data: Uint8Array; width: number; height: number };

const LINEAR = Float32Array.from({ length: 256 }, (_, i) => {
  const c = i / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
});

const labF = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);

/** CIELAB (D65) planes of an sRGB picture. */
export function toLab({ data, width, height }: Rgb): { L: Float32Array; a: Float32Array; b: Float32Array } {
  const n = width * height;
  const L = new Float32Array(n);
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = LINEAR[data[i * 3]!]!;
    const g = LINEAR[data[i * 3 + 1]!]!;
    const bl = LINEAR[data[i * 3 + 2]!]!;
    const x = labF((0.412453 * r + 0.35758 * g + 0.180423 * bl) / 0.95047);
    const y = labF(0.212671 * r + 0.71516 * g + 0.072169 * bl);
    const z = labF((0.019334 * r + 0.119193 * g + 0.950227 * bl) / 1.08883);
    L[i] = 116 * y - 16;
    a[i] = 500 * (x - y);
    b[i] = 200 * (y - z);
  }
  return { L, a, b };
}

/** Mean over a (2r+1)² square, edges clamped, in two separable passes. */
export function boxBlur(src: Float32Array, width: number, height: number, r: number): Float32Array {
  if (r < 1) return Float32Array.from(src);
  const tmp = new Float32Array(src.length);
  const out = new Float32Array(src.length);
  const line = new Float64Array(Math.max(width, height) + 1);
  const pass = (input: Float32Array, output: Float32Array, length: number, lines: number, step: number, stride: number) => {
    for (let l = 0; l < lines; l++) {
      const base = l * stride;
      line[0] = 0;
      for (let i = 0; i < length; i++) line[i + 1] = line[i]! + input[base + i * step]!;
      for (let i = 0; i < length; i++) {
        const lo = Math.max(0, i - r);
        const hi = Math.min(length - 1, i + r);
        output[base + i * step] = (line[hi + 1]! - line[lo]!) / (hi - lo + 1);
      }
    }
  };
  pass(src, tmp, width, height, 1, width);
  pass(tmp, out, height, width, width, 1);
  return out;
}

/** The value below which `q` (0..1) of the plane's values lie. */
export function quantile(values: Float32Array, q: number): number {
  const sorted = Float32Array.from(values).sort();
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.floor(q * (sorted.length - 1))))]!;
}

/** 4-connected components of the set pixels: labels from 1 and each component's size. */
export function components(mask: Uint8Array, width: number): { label: Int32Array; sizes: number[] } {
  const label = new Int32Array(mask.length);
  const sizes = [0];
  const stack: number[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || label[start]) continue;
    const id = sizes.length;
    let size = 0;
    label[start] = id;
    stack.push(start);
    while (stack.length) {
      const i = stack.pop()!;
      size++;
      const x = i % width;
      const neighbours = [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width];
      for (const j of neighbours) {
        if (j < 0 || j >= mask.length || !mask[j] || label[j]) continue;
        label[j] = id;
        stack.push(j);
      }
    }
    sizes.push(size);
  }
  return { label, sizes };
}

/**
 * Distance (pixels, chamfer 3-4 approximation of Euclidean) from each pixel to the nearest pixel where
 * `seed` is set; Infinity where there is no seed at all.
 */
export function distanceTo(seed: Uint8Array, width: number, height: number): Float32Array {
  const d = new Float32Array(seed.length);
  for (let i = 0; i < seed.length; i++) d[i] = seed[i] ? 0 : Infinity;
  const a = 1;
  const b = Math.SQRT2;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      let v = d[i]!;
      if (x > 0) v = Math.min(v, d[i - 1]! + a);
      if (y > 0) {
        v = Math.min(v, d[i - width]! + a);
        if (x > 0) v = Math.min(v, d[i - width - 1]! + b);
        if (x < width - 1) v = Math.min(v, d[i - width + 1]! + b);
      }
      d[i] = v;
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      let v = d[i]!;
      if (x < width - 1) v = Math.min(v, d[i + 1]! + a);
      if (y < height - 1) {
        v = Math.min(v, d[i + width]! + a);
        if (x < width - 1) v = Math.min(v, d[i + width + 1]! + b);
        if (x > 0) v = Math.min(v, d[i + width - 1]! + b);
      }
      d[i] = v;
    }
  }
  return d;
}

/** Bilinear sample of a plane at (x, y), coordinates clamped to the plane. */
export function sample(plane: Float32Array | Uint8Array, width: number, height: number, x: number, y: number): number {
  if (width < 2 || height < 2) return plane[0]!;
  const cx = Math.min(width - 1.001, Math.max(0, x));
  const cy = Math.min(height - 1.001, Math.max(0, y));
  return sampleAt(plane, width, cx, cy);
}

/** Resamples a plane to another size (pixel centres aligned), bilinear. */
export function resample(plane: Float32Array, width: number, height: number, toWidth: number, toHeight: number): Float32Array {
  const out = new Float32Array(toWidth * toHeight);
  const sx = width / toWidth;
  const sy = height / toHeight;
  for (let y = 0; y < toHeight; y++) {
    const fy = (y + 0.5) * sy - 0.5;
    for (let x = 0; x < toWidth; x++) out[y * toWidth + x] = sample(plane, width, height, (x + 0.5) * sx - 0.5, fy);
  }
  return out;
}
