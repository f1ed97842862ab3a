// Small plane helpers of the layer analysis that the image engine has no use for: quantiles, connected
// components, a Euclidean-ish distance transform and one clamped bilinear sample. Planes are row-major typed
// arrays. CIELAB, box means, the guided filter and resampling are the image engine's (`image/lab.ts`,
// `image/planes.ts`), used by both engines.

/** An interleaved 8-bit RGB picture. */
export type Rgb = { data: Uint8Array; width: number; height: number };

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

/**
 * Bilinear sample of a plane of any type at (x, y), coordinates clamped to the plane: called per mesh node or map
 * cell, not per pixel. The frame loops' 8-bit kernel is `sampling.ts` `sampleAt`, kept to one array type.
 */
export function sample(plane: Float32Array | Uint8Array, width: number, height: number, x: number, y: number): number {
  if (width < 2 || height < 2) return plane[0]!;
  const cx = Math.min(width - 1.001, Math.max(0, x));
  const cy = Math.min(height - 1.001, Math.max(0, y));
  const ix = cx | 0, iy = cy | 0;
  const p = iy * width + ix;
  const top = plane[p]! + (plane[p + 1]! - plane[p]!) * (cx - ix);
  const bottom = plane[p + width]! + (plane[p + width + 1]! - plane[p + width]!) * (cx - ix);
  return top + (bottom - top) * (cy - iy);
}
