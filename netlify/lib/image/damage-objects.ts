import { FEATURE_COUNT, type DamageFeatures } from './damage-features';

// Damage as objects: the pixels the pixel classifier finds likely are grouped into 8-connected components,
// and each is described as a whole — its size, length and width along its principal axis, how straight and
// how upright it is, its contrast, how much coarser structure it sits on, and how crowded its surroundings
// are — so a speck or a scratch can be told from a piece of lettering, a wire or a leaf, which look alike
// pixel by pixel. The component classifier (damage-model.ts) decides on these.

export const OBJECT_FEATURE_NAMES = [
  'size', 'length', 'width', 'meanP', 'maxP', 'residual5', 'line41', 'coarse', 'activity', 'edge', 'upright', 'crowding', 'side2', 'speck', 'straightness',
] as const;
export const OBJECT_FEATURE_COUNT = OBJECT_FEATURE_NAMES.length;

/** Pixel probability above which a pixel joins a component. */
export const OBJECT_FLOOR = 0.2;

export type DamageObjects = {
  /** Component id per plane pixel (0: none). */
  label: Int32Array;
  /** Pixels of each component (index id − 1). */
  pixels: Int32Array[];
  /** OBJECT_FEATURE_COUNT values per component. */
  values: Float32Array;
  /** Unit principal axis of each component (x, y), for following scratches. */
  axis: Float32Array;
};

export function damageObjects(f: DamageFeatures, p: Float32Array, w: number, h: number): DamageObjects {
  const n = w * h;
  const cand = new Int32Array(n).fill(-1);
  f.candidates.forEach((i, c) => (cand[i] = c));
  const likely = (i: number) => cand[i]! >= 0 && p[cand[i]!]! > OBJECT_FLOOR;
  const label = new Int32Array(n);
  const pixels: Int32Array[] = [];
  const stack: number[] = [];
  for (const s of f.candidates) {
    if (label[s] || !likely(s)) continue;
    const id = pixels.length + 1, members: number[] = [];
    label[s] = id;
    stack.push(s);
    while (stack.length) {
      const i = stack.pop()!, x = i % w, y = (i - x) / w;
      members.push(i);
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        const xx = x + dx, yy = y + dy;
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const j = yy * w + xx;
        if (!label[j] && likely(j)) { label[j] = id; stack.push(j); }
      }
    }
    pixels.push(Int32Array.from(members));
  }

  // Likely pixels per integral image, for crowding: how many others share the neighbourhood.
  const S = new Int32Array((w + 1) * (h + 1));
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) S[(y + 1) * (w + 1) + x + 1] = (label[y * w + x] ? 1 : 0) + S[y * (w + 1) + x + 1]! + S[(y + 1) * (w + 1) + x]! - S[y * (w + 1) + x]!;
  const boxCount = (x0: number, y0: number, x1: number, y1: number) => S[(y1 + 1) * (w + 1) + x1 + 1]! - S[y0 * (w + 1) + x1 + 1]! - S[(y1 + 1) * (w + 1) + x0]! + S[y0 * (w + 1) + x0]!;

  const values = new Float32Array(pixels.length * OBJECT_FEATURE_COUNT);
  const axis = new Float32Array(pixels.length * 2);
  pixels.forEach((members, k) => {
    let sx = 0, sy = 0, x0 = w, y0 = h, x1 = 0, y1 = 0;
    const sums = new Float64Array(FEATURE_COUNT);
    let sp = 0, mp = 0;
    for (const i of members) {
      const x = i % w, y = (i - x) / w, c = cand[i]!;
      sx += x; sy += y;
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
      for (let j = 0; j < FEATURE_COUNT; j++) sums[j] += f.values[c * FEATURE_COUNT + j]!;
      sp += p[c]!; mp = Math.max(mp, p[c]!);
    }
    const m = members.length, cx = sx / m, cy = sy / m;
    let cxx = 0, cyy = 0, cxy = 0;
    for (const i of members) { const dx = (i % w) - cx, dy = Math.floor(i / w) - cy; cxx += dx * dx; cyy += dy * dy; cxy += dx * dy; }
    cxx /= m; cyy /= m; cxy /= m;
    const tr = cxx + cyy, det = cxx * cyy - cxy * cxy, disc = Math.sqrt(Math.max(0, (tr * tr) / 4 - det));
    const l1 = tr / 2 + disc, l2 = Math.max(0, tr / 2 - disc);
    let ax = l1 - cyy, ay = cxy;
    if (Math.abs(ax) + Math.abs(ay) < 1e-9) { ax = cxx >= cyy ? 1 : 0; ay = cxx >= cyy ? 0 : 1; }
    const norm = Math.hypot(ax, ay);
    axis[2 * k] = ax / norm; axis[2 * k + 1] = ay / norm;
    // Straightness: how much of the spread lies along one line (1 for a straight stroke).
    const straight = tr > 0 ? l1 / tr : 1;
    const margin = 8;
    const bx0 = Math.max(0, x0 - margin), by0 = Math.max(0, y0 - margin), bx1 = Math.min(w - 1, x1 + margin), by1 = Math.min(h - 1, y1 + margin);
    const others = boxCount(bx0, by0, bx1, by1) - m;
    const area = (bx1 - bx0 + 1) * (by1 - by0 + 1) - m;
    const o = k * OBJECT_FEATURE_COUNT;
    values[o] = m;
    values[o + 1] = Math.sqrt(12 * l1) + 1;
    values[o + 2] = Math.sqrt(12 * l2) + 1;
    values[o + 3] = sp / m;
    values[o + 4] = mp;
    values[o + 5] = sums[0]! / m;
    values[o + 6] = sums[4]! / m;
    values[o + 7] = sums[11]! / m;
    values[o + 8] = sums[7]! / m;
    values[o + 9] = sums[12]! / m;
    values[o + 10] = Math.abs(axis[2 * k + 1]!);
    values[o + 11] = area > 0 ? (100 * others) / area : 0;
    values[o + 12] = sums[5]! / m;
    values[o + 13] = sums[8]! / m;
    values[o + 14] = straight;
  });
  return { label, pixels, values, axis };
}
