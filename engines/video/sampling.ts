// Bilinear samples of 8-bit planes, the one kernel every layer of a frame is drawn with. The callers keep the
// position inside the plane (one pixel short of its right and bottom edges).

/** Fixed-point position scale: 16.16. */
export const ONE = 65536;

/** Sample at (u, v) given in 16.16 fixed point, with 8-bit weights: the fast path of the frame loops. */
export function sampleFixed(plane: Uint8Array, width: number, u: number, v: number): number {
  const fu = (u >> 8) & 255;
  const fv = (v >> 8) & 255;
  const p = (v >> 16) * width + (u >> 16);
  const a = plane[p]!;
  const c = plane[p + width]!;
  const top = (a << 8) + (plane[p + 1]! - a) * fu;
  const bottom = (c << 8) + (plane[p + width + 1]! - c) * fu;
  return ((top << 8) + (bottom - top) * fv + 32768) >> 16;
}

/**
 * Sample of an 8-bit plane at (u, v) in floating point (not rounded). Typed to Uint8Array on purpose: every caller is
 * a frame loop over 8-bit planes, and a kernel that only ever sees one array type stays monomorphic and is inlined
 * (the face warp took 40 % longer through it when it also read float planes; those use `layers/planes.ts` `sample`).
 */
export function sampleAt(plane: Uint8Array, width: number, u: number, v: number): number {
  const iu = u | 0;
  const iv = v | 0;
  const fu = u - iu;
  const fv = v - iv;
  const p = iv * width + iu;
  const top = plane[p]! + (plane[p + 1]! - plane[p]!) * fu;
  const bottom = plane[p + width]! + (plane[p + width + 1]! - plane[p + width]!) * fu;
  return top + (bottom - top) * fv;
}

/**
 * Pixels x0..x1 of an output row whose source is one source row (r0 = its offset, fv its 8-bit vertical
 * weight) at columns u0 + x·du (16.16): the background's inner loop, where every pixel shares the row.
 */
export function sampleRow(src: Uint8Array, width: number, r0: number, fv: number, u: number, du: number, dst: Uint8Array, o: number, x0: number, x1: number): void {
  const r1 = r0 + width;
  for (let x = x0; x < x1; x++) {
    const iu = u >> 16;
    const fu = (u >> 8) & 255;
    u += du;
    const a = src[r0 + iu]!;
    const c = src[r1 + iu]!;
    const top = (a << 8) + (src[r0 + iu + 1]! - a) * fu;
    const bottom = (c << 8) + (src[r1 + iu + 1]! - c) * fu;
    dst[o + x] = ((top << 8) + (bottom - top) * fv + 32768) >> 16;
  }
}
