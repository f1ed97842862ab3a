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

/** Sample at (u, v) in floating point (not rounded). */
export function sampleAt(plane: ArrayLike<number>, width: number, u: number, v: number): number {
  const iu = u | 0;
  const iv = v | 0;
  const fu = u - iu;
  const fv = v - iv;
  const p = iv * width + iu;
  const top = plane[p]! + (plane[p + 1]! - plane[p]!) * fu;
  const bottom = plane[p + width]! + (plane[p + width + 1]! - plane[p + width]!) * fu;
  return top + (bottom - top) * fv;
}
