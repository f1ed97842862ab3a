// The subject's alpha matte at output size: the small mask enlarged, then refined with a guided filter (He,
// Sun & Tang 2013) that lets the edge follow the photo's own edges, a few pixels wide. The subject's colours
// near the edge are then re-estimated from inside (the edge pixels mix in the old background, which would show
// as a fringe once the layers move apart).

import { guidedCoefficients, resize } from '../../shared';
import { distanceTo } from './planes';

/** Guided filter regulariser, in (luma 0..1)² units: smaller follows weaker edges. */
const EPSILON = 2e-3;

/**
 * Alpha (0..255) at width × height from a mask of any size (0/1, or a soft 0..1 coverage such as a
 * segmentation's). `luma` (0..255, width × height) guides the edge; `radius` is the matte's half-width in pixels.
 */
export function alphaMatte(
  mask: Uint8Array | Float32Array,
  maskWidth: number,
  maskHeight: number,
  luma: Uint8Array,
  width: number,
  height: number,
  radius: number,
): Uint8Array {
  const n = width * height;
  const soft = resize(Float32Array.from(mask), maskWidth, maskHeight, width, height);
  const guide = new Float32Array(n);
  for (let i = 0; i < n; i++) guide[i] = luma[i]! / 255;
  const r = Math.max(1, Math.round(radius));
  const { A, B } = guidedCoefficients(guide, soft, width, height, r, EPSILON);
  // Only near the enlarged mask's edge may alpha differ from it: elsewhere the filter would only add noise.
  const edge = new Uint8Array(n);
  for (let i = 0; i < n; i++) edge[i] = soft[i]! > 0.02 && soft[i]! < 0.98 ? 1 : 0;
  const near = distanceTo(edge, width, height);
  const alpha = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const q = near[i]! <= 2 * r ? A[i]! * guide[i]! + B[i]! : soft[i]!;
    // A slight contrast stretch: the filter's tails would leave a faint veil far from the edge.
    alpha[i] = Math.round(255 * Math.min(1, Math.max(0, (q - 0.08) / 0.84)));
  }
  return alpha;
}

/**
 * The subject's colours with the background taken out of its edge: pixels that are not fully subject (and a
 * ring `grow` pixels wide outside it) get the mean of the fully-subject pixels next to them, ring by ring
 * outwards. Interleaved RGB in, a new buffer out.
 */
export function decontaminate(rgb: Uint8Array, alpha: Uint8Array, width: number, height: number, grow: number): Uint8Array {
  const n = width * height;
  const out = Uint8Array.from(rgb);
  const known = new Uint8Array(n);
  const todo = new Uint8Array(n);
  const partial = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    known[i] = alpha[i]! >= 250 ? 1 : 0;
    partial[i] = alpha[i]! > 0 ? 1 : 0;
  }
  const reach = distanceTo(partial, width, height);
  for (let i = 0; i < n; i++) todo[i] = !known[i] && reach[i]! <= grow ? 1 : 0;
  let ring: number[] = [];
  for (let i = 0; i < n; i++) if (todo[i] && touchesKnown(known, i, width, height)) ring.push(i);
  while (ring.length) {
    const values = ring.map((i) => neighbourMean(out, known, i, width, height));
    ring.forEach((i, k) => {
      out.set(values[k]!, i * 3);
      known[i] = 1;
      todo[i] = 0;
    });
    const next = new Set<number>();
    for (const i of ring) {
      for (const j of neighbours(i, width, height)) if (todo[j]) next.add(j);
    }
    ring = [...next];
  }
  return out;
}

function neighbours(i: number, width: number, height: number): number[] {
  const x = i % width;
  const y = (i - x) / width;
  const list: number[] = [];
  for (let dy = -1; dy <= 1; dy++) {
    for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx;
      const yy = y + dy;
      if ((dx || dy) && xx >= 0 && yy >= 0 && xx < width && yy < height) list.push(yy * width + xx);
    }
  }
  return list;
}

function touchesKnown(known: Uint8Array, i: number, width: number, height: number): boolean {
  return neighbours(i, width, height).some((j) => known[j]);
}

function neighbourMean(rgb: Uint8Array, known: Uint8Array, i: number, width: number, height: number): [number, number, number] {
  let r = 0;
  let g = 0;
  let b = 0;
  let count = 0;
  for (const j of neighbours(i, width, height)) {
    if (!known[j]) continue;
    r += rgb[j * 3]!;
    g += rgb[j * 3 + 1]!;
    b += rgb[j * 3 + 2]!;
    count++;
  }
  return count ? [r / count, g / count, b / count] : [rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!];
}
