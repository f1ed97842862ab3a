// The piecewise-affine warp: every pixel of a destination triangle reads the matching point of its source
// triangle (barycentric coordinates carried over), bilinearly, from a copy of the plane taken before the warp.
// The triangles tile the region, so every pixel in it is written; triangles that did not move are skipped
// (their pixels are already what they would be), unless `all`.

import { sampleAt } from '../sampling';

export function warpPlane(
  plane: Uint8Array,
  width: number,
  height: number,
  before: Uint8Array,
  triangles: Uint32Array,
  to: Float64Array,
  from: Float64Array,
  all = false,
): void {
  const maxU = width - 1.001;
  const maxV = height - 1.001;
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t]! * 2, b = triangles[t + 1]! * 2, c = triangles[t + 2]! * 2;
    const ax = to[a]!, ay = to[a + 1]!, bx = to[b]!, by = to[b + 1]!, cx = to[c]!, cy = to[c + 1]!;
    if (
      !all &&
      Math.abs(ax - from[a]!) + Math.abs(ay - from[a + 1]!) + Math.abs(bx - from[b]!) + Math.abs(by - from[b + 1]!) +
        Math.abs(cx - from[c]!) + Math.abs(cy - from[c + 1]!) < 0.01
    )
      continue;
    const det = (bx - ax) * (cy - ay) - (cx - ax) * (by - ay);
    if (Math.abs(det) < 1e-9) continue;
    const inv = 1 / det;
    const x0 = Math.max(0, Math.floor(Math.min(ax, bx, cx)));
    const x1 = Math.min(width - 1, Math.ceil(Math.max(ax, bx, cx)));
    const y0 = Math.max(0, Math.floor(Math.min(ay, by, cy)));
    const y1 = Math.min(height - 1, Math.ceil(Math.max(ay, by, cy)));
    const fax = from[a]!, fay = from[a + 1]!;
    const fbx = from[b]! - fax, fby = from[b + 1]! - fay;
    const fcx = from[c]! - fax, fcy = from[c + 1]! - fay;
    const eps = -1e-7;
    for (let y = y0; y <= y1; y++) {
      const py = y - ay;
      for (let x = x0; x <= x1; x++) {
        const px = x - ax;
        // Barycentric weights of b and c (a gets the rest).
        const wb = (px * (cy - ay) - py * (cx - ax)) * inv;
        const wc = (py * (bx - ax) - px * (by - ay)) * inv;
        if (wb < eps || wc < eps || wb + wc > 1 - eps) continue;
        let u = fax + wb * fbx + wc * fcx;
        let v = fay + wb * fby + wc * fcy;
        u = u < 0 ? 0 : u > maxU ? maxU : u;
        v = v < 0 ? 0 : v > maxV ? maxV : v;
        plane[y * width + x] = sampleAt(before, width, u, v) + 0.5;
      }
    }
  }
}
