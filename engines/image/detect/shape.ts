/** Principal axis, its length and width (px) and straightness of a set of pixels. */
export function shape(members: Int32Array, w: number) {
  let sx = 0;
  let sy = 0;
  for (const i of members) {
    sx += i % w;
    sy += Math.floor(i / w);
  }
  const m = members.length;
  const cx = sx / m;
  const cy = sy / m;
  let cxx = 0;
  let cyy = 0;
  let cxy = 0;
  for (const i of members) {
    const dx = (i % w) - cx;
    const dy = Math.floor(i / w) - cy;
    cxx += dx * dx;
    cyy += dy * dy;
    cxy += dx * dy;
  }
  cxx /= m;
  cyy /= m;
  cxy /= m;
  const tr = cxx + cyy;
  const disc = Math.sqrt(Math.max(0, (tr * tr) / 4 - (cxx * cyy - cxy * cxy)));
  const l1 = tr / 2 + disc;
  const l2 = Math.max(0, tr / 2 - disc);
  let ax = l1 - cyy;
  let ay = cxy;
  if (Math.abs(ax) + Math.abs(ay) < 1e-9) {
    ax = cxx >= cyy ? 1 : 0;
    ay = cxx >= cyy ? 0 : 1;
  }
  const norm = Math.hypot(ax, ay);
  return { cx, cy, ax: ax / norm, ay: ay / norm, length: Math.sqrt(12 * l1) + 1, width: Math.sqrt(12 * l2) + 1, straightness: tr > 0 ? l1 / tr : 1 };
}
