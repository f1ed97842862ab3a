// People first: in a colour photo, face-shaped skin-tone regions in the upper part of the frame are taken as
// faces, and the head and shoulders below each as probably subject. No trained detector: skin tone in YCbCr
// (Chai & Ngan 1999) plus shape rules. Greyscale, sepia and other tinted photos have no usable skin tone and
// find no one here; saliency alone finds their subject.

import { components, distanceTo, type Rgb } from './planes';

export type Face = { x: number; y: number; width: number; height: number };

/** How much Cr must exceed Cb for a colour to be skin. */
const SKIN_WARMTH = 28;

/** Chroma spread (Cb/Cr units) below which a photo counts as monochrome or tinted. */
const MIN_CHROMA_SPREAD = 7;

function chroma(r: number, g: number, b: number): [number, number] {
  return [-0.168736 * r - 0.331264 * g + 0.5 * b, 0.5 * r - 0.418688 * g - 0.081312 * b];
}

/** Whether the photo has real colour (not greyscale, sepia or one tint). */
export function hasColour({ data, width, height }: Rgb): boolean {
  const n = width * height;
  let mb = 0;
  let mr = 0;
  for (let i = 0; i < n; i++) {
    const [cb, cr] = chroma(data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!);
    mb += cb;
    mr += cr;
  }
  mb /= n;
  mr /= n;
  let spread = 0;
  for (let i = 0; i < n; i++) {
    const [cb, cr] = chroma(data[i * 3]!, data[i * 3 + 1]!, data[i * 3 + 2]!);
    spread += (cb - mb) ** 2 + (cr - mr) ** 2;
  }
  return Math.sqrt(spread / n) >= MIN_CHROMA_SPREAD;
}

/** 1 where the colour is a skin tone (and not too dark). */
export function skinMask({ data, width, height }: Rgb): Uint8Array {
  const mask = new Uint8Array(width * height);
  for (let i = 0; i < mask.length; i++) {
    const r = data[i * 3]!;
    const g = data[i * 3 + 1]!;
    const b = data[i * 3 + 2]!;
    const [cb, cr] = chroma(r, g, b);
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    // Skin is clearly warm (Cr well above Cb): cream, beige and warm whites are not.
    const warm = cr - cb >= SKIN_WARMTH;
    mask[i] = y > 45 && warm && cb + 128 >= 77 && cb + 128 <= 127 && cr + 128 >= 136 && cr + 128 <= 173 ? 1 : 0;
  }
  return mask;
}

/** Face-shaped skin regions: big enough, upright-oval bounding box, mostly filled, centred in the upper 70 %. */
export function findFaces(image: Rgb): Face[] {
  const { width, height } = image;
  if (!hasColour(image)) return [];
  const skin = skinMask(image);
  const n = width * height;
  let total = 0;
  for (let i = 0; i < n; i++) total += skin[i]!;
  // A photo that is mostly "skin" is a warm-toned picture, not a close-up of skin.
  if (total > n * 0.45) return [];
  const { label, sizes } = openedComponents(skin, width, height, Math.max(1, Math.round(Math.min(width, height) * 0.025)));
  const boxes = sizes.map(() => ({ x0: Infinity, y0: Infinity, x1: -1, y1: -1 }));
  for (let i = 0; i < n; i++) {
    const id = label[i]!;
    if (!id) continue;
    const box = boxes[id]!;
    const x = i % width;
    const y = (i - x) / width;
    box.x0 = Math.min(box.x0, x);
    box.x1 = Math.max(box.x1, x);
    box.y0 = Math.min(box.y0, y);
    box.y1 = Math.max(box.y1, y);
  }
  const faces: (Face & { size: number })[] = [];
  for (let id = 1; id < sizes.length; id++) {
    const size = sizes[id]!;
    const box = boxes[id]!;
    const w = box.x1 - box.x0 + 1;
    const h = box.y1 - box.y0 + 1;
    const aspect = h / w;
    const fill = size / (w * h);
    const centreY = (box.y0 + box.y1) / 2 / height;
    // Up to close-ups, where face, neck and shoulders make one region of nearly half the frame.
    if (size < n * 0.004 || size > n * 0.45) continue;
    if (aspect < 0.75 || aspect > 2.2 || fill < 0.45 || centreY > 0.7) continue;
    faces.push({ x: box.x0, y: box.y0, width: w, height: h, size });
  }
  const biggest = Math.max(0, ...faces.map((f) => f.size));
  return faces.filter((f) => f.size >= biggest * 0.3).map(({ x, y, width: w, height: h }) => ({ x, y, width: w, height: h }));
}

/**
 * Components of the mask after an opening of radius r: thin links (a neck, an arm touching the face) no
 * longer join two regions, and each region gets back the pixels within r of its eroded core.
 */
function openedComponents(mask: Uint8Array, width: number, height: number, r: number): { label: Int32Array; sizes: number[] } {
  const n = width * height;
  const outside = new Uint8Array(n);
  for (let i = 0; i < n; i++) outside[i] = mask[i] ? 0 : 1;
  const depth = distanceTo(outside, width, height);
  const core = new Uint8Array(n);
  for (let i = 0; i < n; i++) core[i] = depth[i]! > r ? 1 : 0;
  const { label } = components(core, width);
  const reach = new Float32Array(n).fill(Infinity);
  let frontier: number[] = [];
  for (let i = 0; i < n; i++) {
    if (!label[i]) continue;
    reach[i] = 0;
    frontier.push(i);
  }
  for (let step = 1; step <= r + 1 && frontier.length; step++) {
    const next: number[] = [];
    for (const i of frontier) {
      const x = i % width;
      for (const j of [x > 0 ? i - 1 : -1, x < width - 1 ? i + 1 : -1, i - width, i + width]) {
        if (j < 0 || j >= n || !mask[j] || reach[j]! <= step) continue;
        reach[j] = step;
        label[j] = label[i]!;
        next.push(j);
      }
    }
    frontier = next;
  }
  const sizes = [0];
  for (let i = 0; i < n; i++) {
    const id = label[i]!;
    while (sizes.length <= id) sizes.push(0);
    if (id) sizes[id]!++;
  }
  return { label, sizes };
}

/**
 * Where each face's person probably is: 1 on the face, 0.8 on the head around it (more above it, for hair and
 * hats), and on the shoulders and body below, widening to three face widths, from 0.7 fading to no opinion
 * (0.5) six face heights down; 0 elsewhere.
 */
export function personPrior(faces: Face[], width: number, height: number): Float32Array {
  const prior = new Float32Array(width * height);
  for (const f of faces) {
    const cx = f.x + f.width / 2;
    const cy = f.y + f.height / 2;
    const top = f.y + f.height * 1.1;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        const ex = (x - cx) / (f.width / 2);
        const ey = (y - cy) / (f.height / 2);
        const face = ex * ex + ey * ey <= 1;
        const hx = (x - cx) / (f.width * 0.8);
        const hy = (y - (cy - f.height * 0.25)) / (f.height * 0.85);
        let p = face ? 1 : hx * hx + hy * hy <= 1 ? 0.8 : 0;
        if (y >= top) {
          const down = (y - top) / (f.height * 6);
          const half = f.width * (0.9 + 0.6 * Math.min(1, (y - top) / (f.height * 1.5)));
          if (down <= 1 && Math.abs(x - cx) <= half) p = Math.max(p, 0.7 - 0.2 * down);
        }
        prior[i] = Math.max(prior[i]!, p);
      }
    }
  }
  return prior;
}
