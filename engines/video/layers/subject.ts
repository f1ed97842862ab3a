// Finds the photo's subject on a small copy: people first (faces in colour photos), then saliency; GrabCut
// turns the prior into a mask along the photo's edges; the result is kept only when it is clearly a subject
// (size, contrast with its surroundings, an edge that follows the picture's). Otherwise the video keeps the
// flat camera move and the job records why.

import { grabCut, type Seeds } from './grabcut';
import { findFaces, hasColour, personPrior, type Face } from './people';
import { rgbBufferToLab, boxMean } from '../../shared';
import { components, quantile, type Rgb } from './planes';
import type { SaliencyMap } from './saliency-map';

/** When a found region counts as a clear subject; outside these the render falls back to the flat move. */
export const SUBJECT_RULES = {
  minArea: 0.03,
  maxArea: 0.85,
  /**
   * Share of the frame's border the subject may cover (more: it is the background itself); a found person,
   * whose hat, arms and shoulders often run out of a close-up, may cover more.
   */
  maxBorderShare: 0.55,
  maxBorderShareOfPerson: 0.75,
  /**
   * A region running into both the left and the right border over this share of their height, or spanning
   * this share of the frame's width, is a band of landscape (water, a field, a tree line), not a subject,
   * unless a person was found in it.
   */
  maxSideSpan: 0.12,
  maxWidthSpan: 0.83,
  /**
   * Area over the area of its convex hull: below it the region is scattered pieces (a pair of eyes, leaves, a
   * sign and half a car) rather than one thing; a person's outline may be anything.
   */
  minSolidity: 0.6,
  /** Share of the outline where the step across it is weaker than most of the photo's: a cut through a surface. */
  maxWeakEdge: 0.3,
  /** Mean colour step across the subject's edge over the photo's mean neighbour step. */
  minEdgeContrast: 1.6,
  /** Mean saliency inside minus outside. */
  minSaliencyGap: 0.08,
} as const;

export type SubjectScores = {
  area: number;
  borderShare: number;
  /** The smaller of the shares of the left and the right border the region covers. */
  sideSpan: number;
  /** Width of the region's bounding box over the frame's. */
  widthSpan: number;
  solidity: number;
  weakEdge: number;
  edgeContrast: number;
  saliencyGap: number;
};

/** What found the subject: people (the vision models' segmentation, or faces in the colours), an object the
 * detector boxed, or saliency alone. */
export type SubjectCue = 'people' | 'object' | 'saliency';

export type Subject = {
  /** 1 on the subject, at the analysed copy's size. */
  mask: Uint8Array;
  width: number;
  height: number;
  faces: Face[];
  cue: SubjectCue;
  /** What was found, in words, for the job's record ("2 people", "dog"). */
  found?: string;
  /** A soft coverage (0..1) finer than `mask`, which the matte starts from when there is one (a segmentation). */
  soft?: { mask: Float32Array; width: number; height: number };
  /** The focus cue (0..1), for depth ordering. */
  focus: Float32Array;
  scores: SubjectScores;
};

export type SubjectSearch = { subject: Subject; reason?: undefined } | { subject: null; reason: string; scores?: SubjectScores };

/** The subject from faces in the colours and saliency alone (find-subject.ts tries the vision models' answer first). */
export function findSalientSubject(image: Rgb, { saliency, backdrop, focus }: SaliencyMap): SubjectSearch {
  const { width, height } = image;
  const n = width * height;
  const faces = findFaces(image);
  const person = personPrior(faces, width, height);
  const lo = quantile(saliency, 0.1);
  const hi = Math.max(lo + 1e-3, quantile(saliency, 0.99));
  const prior = new Float32Array(n);
  const seeds: Seeds = new Int8Array(n);
  const ring = Math.max(1, Math.round(Math.min(width, height) * 0.02));
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      const s = Math.min(1, Math.max(0, (saliency[i]! - lo) / (hi - lo)));
      prior[i] = Math.max(0.08 + 0.84 * s, 0.9 * person[i]!);
      const onRing = x < ring || y < ring || x >= width - ring || y >= height - ring;
      // Certain background: the frame's edge where it has the backdrop's main colour (a hat or a shoulder
      // reaching the edge has another, and stays for the cut to decide).
      if (onRing && backdrop[i]! < 0.25 && person[i] === 0) seeds[i] = -1;
    }
  }
  for (const f of faces) seedFace(seeds, f, width);
  const raw = grabCut(hasColour(image) ? image : textureFeatures(image), prior, seeds);
  const mask = tidy(raw, seeds, width, height);
  const scores = score(image, mask, saliency);
  const reason = rejection(scores, faces.length > 0);
  if (reason) return { subject: null, reason, scores };
  return { subject: { mask, width, height, faces, cue: faces.length ? 'people' : 'saliency', focus, scores } };
}

/**
 * For a photo without colour, GrabCut's three channels carry luminance, its local mean and its local
 * contrast instead of RGB: grey subjects and grey backgrounds still differ in texture and surroundings.
 */
export function textureFeatures({ data, width, height }: Rgb): Rgb {
  const n = width * height;
  const luma = new Float32Array(n);
  for (let i = 0; i < n; i++) luma[i] = 0.299 * data[i * 3]! + 0.587 * data[i * 3 + 1]! + 0.114 * data[i * 3 + 2]!;
  const mean = boxMean(luma, width, height, 2);
  const deviation = new Float32Array(n);
  for (let i = 0; i < n; i++) deviation[i] = Math.abs(luma[i]! - mean[i]!);
  const contrast = boxMean(deviation, width, height, 2);
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    out[i * 3] = luma[i]!;
    out[i * 3 + 1] = mean[i]!;
    out[i * 3 + 2] = Math.min(255, contrast[i]! * 6);
  }
  return { data: out, width, height };
}

/** The inner 70 % of a face's ellipse is subject, whatever the colours say. */
function seedFace(seeds: Seeds, f: Face, width: number): void {
  const cx = f.x + f.width / 2;
  const cy = f.y + f.height / 2;
  for (let y = f.y; y < f.y + f.height; y++) {
    for (let x = f.x; x < f.x + f.width; x++) {
      const ex = (x + 0.5 - cx) / (f.width * 0.35);
      const ey = (y + 0.5 - cy) / (f.height * 0.35);
      if (ex * ex + ey * ey <= 1) seeds[y * width + x] = 1;
    }
  }
}

/** Keeps the main region, any other at least a quarter its size and any holding a face; fills small holes. */
export function tidy(mask: Uint8Array, seeds: Seeds, width: number, height: number): Uint8Array {
  const n = width * height;
  const { label, sizes } = components(mask, width);
  const largest = Math.max(0, ...sizes.slice(1));
  const keep = sizes.map((s, id) => id > 0 && s >= largest * 0.25 && s >= n * 0.005);
  for (let i = 0; i < n; i++) if (seeds[i] === 1 && label[i]) keep[label[i]!] = true;
  const out = new Uint8Array(n);
  for (let i = 0; i < n; i++) out[i] = keep[label[i]!] ? 1 : 0;
  const holes = new Uint8Array(n);
  for (let i = 0; i < n; i++) holes[i] = out[i] ? 0 : 1;
  const gaps = components(holes, width);
  const touches = new Uint8Array(gaps.sizes.length);
  for (let x = 0; x < width; x++) {
    touches[gaps.label[x]!] = 1;
    touches[gaps.label[n - 1 - x]!] = 1;
  }
  for (let y = 0; y < height; y++) {
    touches[gaps.label[y * width]!] = 1;
    touches[gaps.label[y * width + width - 1]!] = 1;
  }
  for (let i = 0; i < n; i++) {
    const id = gaps.label[i]!;
    if (id && !touches[id] && gaps.sizes[id]! < n * 0.01) out[i] = 1;
  }
  return out;
}

export function score(image: Rgb, mask: Uint8Array, saliency: Float32Array): SubjectScores {
  const { width, height } = image;
  const n = width * height;
  const { L, a, b } = rgbBufferToLab(image.data, width, height);
  const step = (i: number, j: number) => Math.sqrt((L[i]! - L[j]!) ** 2 + (a[i]! - a[j]!) ** 2 + (b[i]! - b[j]!) ** 2);
  let area = 0;
  let inside = 0;
  let outside = 0;
  let allSteps = 0;
  let allCount = 0;
  let edgeSteps = 0;
  let edgeCount = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (mask[i]) {
        area++;
        inside += saliency[i]!;
      } else {
        outside += saliency[i]!;
      }
      for (const j of [x + 1 < width ? i + 1 : -1, y + 1 < height ? i + width : -1]) {
        if (j < 0) continue;
        const s = step(i, j);
        allSteps += s;
        allCount++;
        if (mask[i] !== mask[j]) {
          edgeSteps += s;
          edgeCount++;
        }
      }
    }
  }
  let border = 0;
  let perimeter = 0;
  for (let i = 0; i < n; i++) {
    const x = i % width;
    const y = (i - x) / width;
    if (x !== 0 && y !== 0 && x !== width - 1 && y !== height - 1) continue;
    perimeter++;
    border += mask[i]!;
  }
  // Rows where the region comes within 4 % of the width of each side (the cut stops short of the border).
  const near = Math.max(2, Math.round(width * 0.04));
  let left = 0;
  let right = 0;
  for (let y = 0; y < height; y++) {
    let l = 0;
    let r = 0;
    for (let x = 0; x < near; x++) {
      l |= mask[y * width + x]!;
      r |= mask[y * width + width - 1 - x]!;
    }
    left += l;
    right += r;
  }
  const meanStep = allSteps / Math.max(1, allCount);
  const outline = outlineSteps(L, a, b, mask, width, height);
  return {
    area: area / n,
    borderShare: border / Math.max(1, perimeter),
    sideSpan: Math.min(left, right) / height,
    ...shape(mask, width, height),
    weakEdge: outline.weak,
    edgeContrast: edgeCount ? edgeSteps / edgeCount / Math.max(0.5, meanStep) : 0,
    saliencyGap: area && area < n ? inside / area - outside / (n - area) : 0,
  };
}

export function rejection(s: SubjectScores, person: boolean): string | undefined {
  if (s.area < SUBJECT_RULES.minArea) return 'no subject found';
  if (s.area > SUBJECT_RULES.maxArea) return 'the subject fills the frame';
  if (s.borderShare > (person ? SUBJECT_RULES.maxBorderShareOfPerson : SUBJECT_RULES.maxBorderShare)) return 'no background around the subject';
  if (!person && (s.sideSpan > SUBJECT_RULES.maxSideSpan || s.widthSpan > SUBJECT_RULES.maxWidthSpan)) return 'a landscape band, not a subject';
  if (!person && s.solidity < SUBJECT_RULES.minSolidity) return 'scattered pieces, not one subject';
  if (s.weakEdge > SUBJECT_RULES.maxWeakEdge) return 'the outline cuts through the picture instead of following an edge';
  if (s.edgeContrast < SUBJECT_RULES.minEdgeContrast) return 'the subject has no clear edge';
  if (s.saliencyGap < SUBJECT_RULES.minSaliencyGap) return 'the subject does not stand out';
  return undefined;
}

/** Bounding-box width share and solidity (area over convex hull area, the hull of the outline pixels). */
function shape(mask: Uint8Array, width: number, height: number): { widthSpan: number; solidity: number } {
  const points: [number, number][] = [];
  let area = 0;
  let x0 = width;
  let x1 = -1;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      area++;
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      const rim = x === 0 || y === 0 || x === width - 1 || y === height - 1;
      if (rim || !mask[i - 1] || !mask[i + 1] || !mask[i - width] || !mask[i + width]) points.push([x, y], [x + 1, y], [x, y + 1], [x + 1, y + 1]);
    }
  }
  const hull = hullArea(points);
  return { widthSpan: area ? (x1 - x0 + 1) / width : 0, solidity: hull > 0 ? Math.min(1, area / hull) : 0 };
}

/** Area of the convex hull of the points (Andrew's monotone chain). */
function hullArea(points: [number, number][]): number {
  if (points.length < 3) return 0;
  const sorted = [...points].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  const cross = (o: [number, number], p: [number, number], q: [number, number]) => (p[0] - o[0]) * (q[1] - o[1]) - (p[1] - o[1]) * (q[0] - o[0]);
  const half = (list: [number, number][]) => {
    const chain: [number, number][] = [];
    for (const p of list) {
      while (chain.length >= 2 && cross(chain[chain.length - 2]!, chain[chain.length - 1]!, p) <= 0) chain.pop();
      chain.push(p);
    }
    chain.pop();
    return chain;
  };
  const hull = [...half(sorted), ...half([...sorted].reverse())];
  let twice = 0;
  for (let i = 0; i < hull.length; i++) {
    const [ax, ay] = hull[i]!;
    const [bx, by] = hull[(i + 1) % hull.length]!;
    twice += ax * by - bx * ay;
  }
  return Math.abs(twice) / 2;
}

/**
 * The colour step (ΔE, two pixels apart) across the outline against the photo's own steps: the share of the
 * outline's steps below the photo's 75th percentile step.
 */
function outlineSteps(L: Float32Array, a: Float32Array, b: Float32Array, mask: Uint8Array, width: number, height: number): { weak: number } {
  const all: number[] = [];
  const across: number[] = [];
  for (let y = 0; y < height - 2; y++) {
    for (let x = 0; x < width - 2; x++) {
      const i = y * width + x;
      for (const j of [i + 2, i + 2 * width]) {
        const step = Math.hypot(L[i]! - L[j]!, a[i]! - a[j]!, b[i]! - b[j]!);
        all.push(step);
        if (mask[i] !== mask[j]) across.push(step);
      }
    }
  }
  if (!across.length) return { weak: 0 };
  const typical = Float32Array.from(all).sort()[Math.floor(all.length * 0.75)]!;
  return { weak: across.filter((s) => s < typical).length / across.length };
}
