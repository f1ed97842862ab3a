// The piecewise-affine warp: every pixel of a destination triangle reads the matching point of its source
// triangle (barycentric coordinates carried over), bilinearly, from a copy of the plane taken before the warp.
// The triangles tile the region, so every pixel in it is written; triangles that did not move are skipped
// (their pixels are already what they would be), unless `all`.
//
// The warp runs on every pixel of the face region in each of the clip's 150 frames (on a head-and-shoulders
// portrait, about a third of the frames' time), so it is written for speed with the same output: per triangle the
// barycentric weights are linear in x, so each row is walked only across the span the triangle covers, stepping
// the weights by a constant, and the 8-bit sample (`sampleAt`) is inlined.

import { sampleAt } from '../sampling';

/** Tolerance of the inside test: pixels on a shared edge belong to both triangles, so no seam is left unwritten. */
const EPS = -1e-7;

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
    // Weights of b and c (a gets the rest) at pixel (x, y): wb = kb·(x − ax) + lb·(y − ay), wc likewise.
    const kb = (cy - ay) * inv, lb = -(cx - ax) * inv;
    const kc = -(by - ay) * inv, lc = (bx - ax) * inv;
    for (let y = y0; y <= y1; y++) {
      const py = y - ay;
      const rb = lb * py - kb * ax, rc = lc * py - kc * ax; // the weights at x = 0 on this row
      // The span where wb ≥ EPS, wc ≥ EPS and wb + wc ≤ 1 − EPS, each weight linear in x.
      let lo: number = x0, hi: number = x1;
      if (kb > 0) lo = Math.max(lo, (EPS - rb) / kb);
      else if (kb < 0) hi = Math.min(hi, (EPS - rb) / kb);
      else if (rb < EPS) continue;
      if (kc > 0) lo = Math.max(lo, (EPS - rc) / kc);
      else if (kc < 0) hi = Math.min(hi, (EPS - rc) / kc);
      else if (rc < EPS) continue;
      const ks = kb + kc, rs = 1 - EPS - rb - rc;
      if (ks > 0) hi = Math.min(hi, rs / ks);
      else if (ks < 0) lo = Math.max(lo, rs / ks);
      else if (rs < 0) continue;
      if (lo > hi + 1) continue;
      // One pixel of slack on each side: the inside test below decides at the span's ends.
      const xs = Math.max(x0, Math.floor(lo) - 1);
      const xe = Math.min(x1, Math.ceil(hi) + 1);
      let wb = kb * xs + rb, wc = kc * xs + rc;
      const row = y * width;
      for (let x = xs; x <= xe; x++, wb += kb, wc += kc) {
        if (wb < EPS || wc < EPS || wb + wc > 1 - EPS) continue;
        let u = fax + wb * fbx + wc * fcx;
        let v = fay + wb * fby + wc * fcy;
        u = u < 0 ? 0 : u > maxU ? maxU : u;
        v = v < 0 ? 0 : v > maxV ? maxV : v;
        plane[row + x] = sampleAt(before, width, u, v) + 0.5;
      }
    }
  }
}
