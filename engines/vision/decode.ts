// The models' raw outputs → boxes and points: BlazeFace's anchors and box regression, non-maximum suppression,
// FaceMesh's crop coordinates → image pixels, eye openness and head pose from the mesh, NanoDet's per-stride
// class scores and distance distributions. Plain arrays in, plain numbers out, so each is unit-tested.

import { MESH } from './mesh';
import type { Box, Eye, MeshPoint } from './types';

/** A candidate box in some pixel frame, with its score and (for faces) the detector's keypoints. */
export type Scored = Box & { score: number; keypoints?: { x: number; y: number }[] };

/**
 * BlazeFace's anchor centres for an input `size` pixels square (896 for 256: a 16×16 grid with 2 anchors per
 * cell at stride 16, then an 8×8 grid with 6 at stride 32), in input pixels.
 */
export function blazefaceAnchors(size: number): Float32Array {
  const levels = [
    { stride: size / 16, anchors: 2 },
    { stride: size / 8, anchors: 6 },
  ];
  const out: number[] = [];
  for (const { stride, anchors } of levels) {
    const cells = Math.ceil(size / stride);
    for (let gy = 0; gy < cells; gy++)
      for (let gx = 0; gx < cells; gx++) for (let a = 0; a < anchors; a++) out.push(stride * (gx + 0.5), stride * (gy + 0.5));
  }
  return Float32Array.from(out);
}

const sigmoid = (v: number) => 1 / (1 + Math.exp(-v));

/**
 * BlazeFace rows (per anchor: score logit, box centre offset x y, size w h, six keypoints x y, all in input
 * pixels relative to the anchor) → boxes over `minScore`, in input pixels.
 */
export function decodeBlazeface(rows: Float32Array, anchors: Float32Array, minScore: number): Scored[] {
  const stride = rows.length / (anchors.length / 2);
  const out: Scored[] = [];
  for (let i = 0; i < anchors.length / 2; i++) {
    const r = i * stride;
    const score = sigmoid(rows[r]!);
    if (score < minScore) continue;
    const ax = anchors[i * 2]!;
    const ay = anchors[i * 2 + 1]!;
    const cx = rows[r + 1]! + ax;
    const cy = rows[r + 2]! + ay;
    const w = rows[r + 3]!;
    const h = rows[r + 4]!;
    const keypoints = [];
    for (let k = 0; k < 6; k++) keypoints.push({ x: rows[r + 5 + k * 2]! + ax, y: rows[r + 6 + k * 2]! + ay });
    out.push({ x: cx - w / 2, y: cy - h / 2, width: w, height: h, score, keypoints });
  }
  return out;
}

export function iou(a: Box, b: Box): number {
  const x0 = Math.max(a.x, b.x);
  const y0 = Math.max(a.y, b.y);
  const x1 = Math.min(a.x + a.width, b.x + b.width);
  const y1 = Math.min(a.y + a.height, b.y + b.height);
  const inter = Math.max(0, x1 - x0) * Math.max(0, y1 - y0);
  const union = a.width * a.height + b.width * b.height - inter;
  return union > 0 ? inter / union : 0;
}

/** Greedy non-maximum suppression: best first, dropping any box overlapping a kept one by more than `maxIou`. */
export function suppress<T extends Scored>(boxes: T[], maxIou: number, limit = Infinity): T[] {
  const kept: T[] = [];
  for (const b of [...boxes].sort((p, q) => q.score - p.score)) {
    if (kept.length >= limit) break;
    if (kept.every((k) => iou(k, b) <= maxIou)) kept.push(b);
  }
  return kept;
}

/** A square box `factor` times the larger side of `b`, on the same centre. */
export function squareAround(b: Box, factor: number): Box {
  const side = Math.max(b.width, b.height) * factor;
  return { x: b.x + b.width / 2 - side / 2, y: b.y + b.height / 2 - side / 2, width: side, height: side };
}

/** FaceMesh's raw points (x y z in the `size`-pixel crop) → image pixels, for a crop taken from `crop`. */
export function meshToImage(raw: ArrayLike<number>, crop: Box, size: number): MeshPoint[] {
  const sx = crop.width / size;
  const sy = crop.height / size;
  const out: MeshPoint[] = [];
  for (let i = 0; i < MESH.count; i++) out.push({ x: crop.x + raw[i * 3]! * sx, y: crop.y + raw[i * 3 + 1]! * sy, z: raw[i * 3 + 2]! * sx });
  return out;
}

export function boundsOf(points: readonly { x: number; y: number }[]): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const p of points) {
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x);
    y1 = Math.max(y1, p.y);
  }
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

const dist = (a: { x: number; y: number }, b: { x: number; y: number }) => Math.hypot(a.x - b.x, a.y - b.y);

/** One eye from the mesh: its centre, width and openness (the lids' gap at the middle three pairs over the width). */
export function eyeOf(mesh: readonly MeshPoint[], upper: readonly number[], lower: readonly number[]): Eye {
  const corner0 = mesh[lower[0]!]!;
  const corner1 = mesh[lower[lower.length - 1]!]!;
  const width = dist(corner0, corner1);
  // Upper lid points 2..4 sit over lower lid points 3..5 (the lower row has the two corners as well).
  let gap = 0;
  for (let k = 0; k < 3; k++) gap += dist(mesh[upper[2 + k]!]!, mesh[lower[3 + k]!]!);
  const ring = [...upper, ...lower].map((i) => mesh[i]!);
  const centre = { x: ring.reduce((s, p) => s + p.x, 0) / ring.length, y: ring.reduce((s, p) => s + p.y, 0) / ring.length };
  return { upper, lower, centre, width, openness: width > 0 ? gap / 3 / width : 0 };
}

const DEG = 180 / Math.PI;

/**
 * Head pose from the mesh's own 3-D axes: left-right from cheek to cheek, up-down from forehead to chin.
 * Yaw > 0: turned toward the image's right; pitch > 0: nodding down; roll > 0: tilted clockwise.
 */
export function poseOf(mesh: readonly MeshPoint[]): { yaw: number; pitch: number; roll: number } {
  const a = mesh[MESH.cheekRight]!;
  const b = mesh[MESH.cheekLeft]!;
  const top = mesh[MESH.forehead]!;
  const bottom = mesh[MESH.chin]!;
  const across = { x: b.x - a.x, y: b.y - a.y, z: b.z - a.z };
  const down = { x: bottom.x - top.x, y: bottom.y - top.y, z: bottom.z - top.z };
  const roll = Math.atan2(across.y, across.x);
  // Undo the roll in the image plane before reading yaw and pitch.
  const c = Math.cos(-roll), s = Math.sin(-roll);
  const acrossX = across.x * c - across.y * s;
  const downY = down.x * s + down.y * c;
  return {
    yaw: round1(Math.atan2(across.z, acrossX) * DEG),
    pitch: round1(Math.atan2(down.z, downY) * DEG),
    roll: round1(roll * DEG),
  };
}

const round1 = (v: number) => Math.round(v * 10) / 10;

export type DetectorLevel = { grid: number; stride: number; scores: Float32Array; distances: Float32Array };

/**
 * NanoDet's heads, one per stride: per cell, 80 class scores and four distance distributions (left, top, right,
 * bottom; `bins` logits each, in strides). Boxes over `minScore`, in input pixels (the distance is the
 * distribution's expectation, as NanoDet's own integral head reads it).
 */
export function decodeNanodet(levels: DetectorLevel[], classes: number, minScore: number): (Scored & { label: number })[] {
  const out: (Scored & { label: number })[] = [];
  for (const { grid, stride, scores, distances } of levels) {
    const cells = grid * grid;
    const bins = distances.length / cells / 4;
    for (let i = 0; i < cells; i++) {
      let best = 0;
      for (let c = 1; c < classes; c++) if (scores[i * classes + c]! > scores[i * classes + best]!) best = c;
      const score = scores[i * classes + best]!;
      if (score < minScore) continue;
      const cx = ((i % grid) + 0.5) * stride;
      const cy = (Math.floor(i / grid) + 0.5) * stride;
      const d = [0, 1, 2, 3].map((side) => expectation(distances, (i * 4 + side) * bins, bins) * stride);
      out.push({ x: cx - d[0]!, y: cy - d[1]!, width: d[0]! + d[2]!, height: d[1]! + d[3]!, score, label: best });
    }
  }
  return out;
}

/** Σ i · softmax(v)_i over `n` logits from `at`. */
function expectation(v: Float32Array, at: number, n: number): number {
  let max = -Infinity;
  for (let k = 0; k < n; k++) max = Math.max(max, v[at + k]!);
  let sum = 0, weighted = 0;
  for (let k = 0; k < n; k++) {
    const e = Math.exp(v[at + k]! - max);
    sum += e;
    weighted += e * k;
  }
  return weighted / sum;
}
