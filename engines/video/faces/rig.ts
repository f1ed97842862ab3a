// The face rig: the mesh's 468 points plus a ring around the face outline and the corners of the region, one
// Delaunay triangulation over them, and the displacement each point gets for a pose. The head turns and nods
// about a pivot behind the face (the mesh is 3-D: the nose moves more than the cheeks); the outline follows a
// third of it and the ring none, so the face moves within the head and the hair and background stay put. A
// blink moves the upper lid down onto the lower one, the crease above half as far, each point only as far as
// the mesh around it allows.

import Delaunator from 'delaunator';
import { MESH } from '../../vision';
import type { Face } from '../../vision';
import { NOD_DEGREES, TURN_DEGREES, type FacePose } from './timing';

/** How far the outline moves with the face (the ring around it stays). */
const OUTLINE_SHARE = 0.35;
/** The fixed ring around the outline, as a multiple of the outline's distance from the face's centre. */
const RING = 1.3;
/** The pivot behind the face's outline, as a share of the face's width. */
const PIVOT_DEPTH = 0.2;
/** The upper lid stops this short of the lower (a shut lid still has a line, and no triangle folds). */
const LID_STOP = 0.92;
const CREASE_SHARE = 0.5;

export type Rig = {
  /** Rest positions, x y interleaved (still pixels). */
  rest: Float64Array;
  /** Depth of the points relative to the pivot (negative: in front), its relief eased in from the outline; 0 for the ring and corners. */
  depth: Float64Array;
  /** Share of the head's rotation each point follows. */
  weight: Float64Array;
  /** Per point: which eye's lower lid an upper-lid or crease point closes onto (index into `lowerLids`, or -1), and how far. */
  lidTarget: Int32Array;
  lidShare: Float64Array;
  lowerLids: (readonly number[])[];
  triangles: Uint32Array;
  /** Triangles smaller than this (px²) are too small to show a fold. */
  sliver: number;
  /** Region the warp touches (still pixels, integer bounds). */
  bounds: { x0: number; y0: number; x1: number; y1: number };
  centre: { x: number; y: number };
};

export function buildRig(face: Face, width: number, height: number): Rig {
  const mesh = face.mesh;
  const oval = MESH.faceOval.map((i) => mesh[i]!);
  const cx = oval.reduce((s, p) => s + p.x, 0) / oval.length;
  const cy = oval.reduce((s, p) => s + p.y, 0) / oval.length;
  const ovalZ = oval.reduce((s, p) => s + p.z, 0) / oval.length;
  const ring = oval.map((p) => ({ x: cx + (p.x - cx) * RING, y: cy + (p.y - cy) * RING }));
  const xs = ring.map((p) => p.x);
  const ys = ring.map((p) => p.y);
  const bounds = {
    x0: Math.max(0, Math.floor(Math.min(...xs)) - 2),
    y0: Math.max(0, Math.floor(Math.min(...ys)) - 2),
    x1: Math.min(width, Math.ceil(Math.max(...xs)) + 2),
    y1: Math.min(height, Math.ceil(Math.max(...ys)) + 2),
  };
  const corners = [
    { x: bounds.x0, y: bounds.y0 },
    { x: bounds.x1, y: bounds.y0 },
    { x: bounds.x1, y: bounds.y1 },
    { x: bounds.x0, y: bounds.y1 },
  ];
  const count = MESH.count + ring.length + corners.length;
  const rest = new Float64Array(count * 2);
  const depth = new Float64Array(count);
  const weight = new Float64Array(count);
  mesh.forEach((p, i) => {
    rest[i * 2] = p.x;
    rest[i * 2 + 1] = p.y;
  });
  [...ring, ...corners].forEach((p, k) => {
    rest[(MESH.count + k) * 2] = p.x;
    rest[(MESH.count + k) * 2 + 1] = p.y;
  });
  // Inside the face the share rises from the outline's to all of it over a fifth of the face's width.
  const reach = 0.2 * face.box.width;
  // The relief (depth from the outline's) rises the same way: the outline is one depth, the pivot's distance
  // in front of it, so it shifts as one piece, and the face's sides, which the mesh puts far back, cannot move
  // against the points just inside them and fold.
  for (let i = 0; i < MESH.count; i++) {
    const d = distanceToPolygon(mesh[i]!, oval);
    const t = Math.min(1, d / reach);
    const s = t * t * (3 - 2 * t);
    weight[i] = OUTLINE_SHARE + (1 - OUTLINE_SHARE) * s;
    depth[i] = -PIVOT_DEPTH * face.box.width + (mesh[i]!.z - ovalZ) * s;
  }
  for (const i of MESH.faceOval) {
    weight[i] = OUTLINE_SHARE;
    depth[i] = -PIVOT_DEPTH * face.box.width;
  }
  const lidTarget = new Int32Array(count).fill(-1);
  const lidShare = new Float64Array(count);
  const lowerLids = [MESH.rightEyeLower, MESH.leftEyeLower];
  [
    [MESH.rightEyeUpper, MESH.rightEyeUpperCrease],
    [MESH.leftEyeUpper, MESH.leftEyeUpperCrease],
  ].forEach(([upper, crease], eye) => {
    // The lid's ends, next to the corners, close a little less (the lid is a curve pinned at the corners), and
    // the crease's ends, which reach past the corners, hardly at all (moving them would squeeze the skin beside the eye).
    upper!.forEach((u, k) => {
      const end = k === 0 || k === upper!.length - 1;
      lidTarget[u] = eye;
      lidShare[u] = LID_STOP * (end ? 0.8 : 1);
      lidTarget[crease![k]!] = eye;
      lidShare[crease![k]!] = LID_STOP * CREASE_SHARE * (end ? 0.2 : 1);
    });
  });
  const triangles = new Delaunator(rest).triangles;
  const sliver = (face.box.width / 100) ** 2;
  const rig = { rest, depth, weight, lidTarget, lidShare, lowerLids, triangles, sliver, bounds, centre: { x: cx, y: cy } };
  fitLids(rig);
  return rig;
}

/** Each round takes this share off the closing of the lid points of a triangle the shut eye would fold. */
const LID_BACK_OFF = 0.75;
const LID_ROUNDS = 12;

/**
 * Closes each lid point only as far as the mesh around it allows: where the shut lid would fold a triangle (a lid
 * seen at an angle, its end pressed against the points beside the eye's corner), that triangle's lid points
 * close less, round by round, until none folds. Most eyes need no round; a foreshortened one keeps its blink with
 * a lid end that closes a little less instead of losing the blink.
 */
function fitLids(rig: Rig): void {
  const out = new Float64Array(rig.rest.length);
  // Shut at rest and at the turn's and nod's peak (the blink comes while the face is turned).
  const shut = [{ yaw: 0, pitch: 0, closure: 1 }, { yaw: TURN_DEGREES, pitch: NOD_DEGREES, closure: 1 }];
  for (let round = 0; round < LID_ROUNDS; round++) {
    const folded = [...new Set(shut.flatMap((pose) => folds(rig, posed(rig, pose, 1, out), DEFAULT_SQUASH, true)))];
    if (folded.length === 0) return;
    for (const t of folded) {
      for (let k = 0; k < 3; k++) {
        const i = rig.triangles[t + k]!;
        if (rig.lidTarget[i]! >= 0) rig.lidShare[i]! *= LID_BACK_OFF;
      }
    }
  }
}

/** The points' positions for a pose (degrees, closure 0..1), into `out` (x y interleaved, still pixels). */
export function posed(rig: Rig, pose: FacePose, scale: number, out: Float64Array): Float64Array {
  const { rest, depth, weight, lidTarget, lidShare, lowerLids, centre } = rig;
  const yaw = (pose.yaw * scale * Math.PI) / 180;
  const pitch = (pose.pitch * scale * Math.PI) / 180;
  const cy = Math.cos(yaw), sy = Math.sin(yaw), cp = Math.cos(pitch), sp = Math.sin(pitch);
  const n = rest.length / 2;
  for (let i = 0; i < n; i++) {
    const x = rest[i * 2]! - centre.x;
    const y = rest[i * 2 + 1]! - centre.y;
    const z = depth[i]!;
    // Yaw about the vertical axis, then pitch about the horizontal one; orthographic projection.
    const x1 = x * cy - z * sy;
    const z1 = x * sy + z * cy;
    const y1 = y * cp - z1 * sp;
    const w = weight[i]!;
    out[i * 2] = rest[i * 2]! + w * (x1 - x);
    out[i * 2 + 1] = rest[i * 2 + 1]! + w * (y1 - y);
  }
  if (pose.closure > 0) {
    for (let i = 0; i < n; i++) {
      const t = lidTarget[i]!;
      if (t < 0) continue;
      const share = lidShare[i]! * pose.closure;
      // Straight down toward the lower lid right below, where it is in this pose (it turned with the face).
      const below = lidAt(out, lowerLids[t]!, out[i * 2]!);
      out[i * 2 + 1] += share * (below - out[i * 2 + 1]!);
    }
  }
  return out;
}

/** The y of a lid polyline (point indices, corner to corner) at x, held at the corners' y beyond them. */
function lidAt(points: Float64Array, lid: readonly number[], x: number): number {
  let first = lid[0]!, last = lid[lid.length - 1]!;
  if (points[first * 2]! > points[last * 2]!) [first, last] = [last, first];
  if (x <= points[first * 2]!) return points[first * 2 + 1]!;
  if (x >= points[last * 2]!) return points[last * 2 + 1]!;
  for (let k = 0; k + 1 < lid.length; k++) {
    const a = lid[k]!, b = lid[k + 1]!;
    const ax = points[a * 2]!, bx = points[b * 2]!;
    if ((x - ax) * (x - bx) <= 0 && ax !== bx) return points[a * 2 + 1]! + ((x - ax) / (bx - ax)) * (points[b * 2 + 1]! - points[a * 2 + 1]!);
  }
  return points[first * 2 + 1]!;
}

/**
 * Whether every triangle keeps its orientation in `points` (none folds over a neighbour); the eye openings'
 * triangles may shrink to nothing as the lids meet, no other may lose more than `squash` of its area. Slivers
 * under a hundredth of the face's width squared are left out: the mesh packs points closely at the lips and the
 * eyes' corners, where a turn may flip a sliver of a pixel or two without any visible fold.
 */
export function keepsShape(rig: Rig, points: Float64Array, squash = DEFAULT_SQUASH): boolean {
  return folds(rig, points, squash, false).length === 0;
}

const DEFAULT_SQUASH = 0.85;

/** The triangles (offsets into `rig.triangles`) that fold in `points`: every one, or the first only. */
function folds(rig: Rig, points: Float64Array, squash: number, all: boolean): number[] {
  const { rest, triangles, lidTarget, sliver } = rig;
  const found: number[] = [];
  for (let t = 0; t < triangles.length; t += 3) {
    const a = triangles[t]!, b = triangles[t + 1]!, c = triangles[t + 2]!;
    const before = area(rest, a, b, c);
    const after = area(points, a, b, c);
    if (Math.abs(before) < sliver) continue;
    const ratio = after / before;
    const lid = lidTarget[a]! >= 0 || lidTarget[b]! >= 0 || lidTarget[c]! >= 0;
    if (ratio < (lid ? 0 : 1 - squash)) {
      found.push(t);
      if (!all) break;
    }
  }
  return found;
}

export function area(p: Float64Array, a: number, b: number, c: number): number {
  return ((p[b * 2]! - p[a * 2]!) * (p[c * 2 + 1]! - p[a * 2 + 1]!) - (p[c * 2]! - p[a * 2]!) * (p[b * 2 + 1]! - p[a * 2 + 1]!)) / 2;
}

function distanceToPolygon(p: { x: number; y: number }, poly: { x: number; y: number }[]): number {
  let best = Infinity;
  for (let i = 0; i < poly.length; i++) {
    const a = poly[i]!;
    const b = poly[(i + 1) % poly.length]!;
    const dx = b.x - a.x, dy = b.y - a.y;
    const len = dx * dx + dy * dy;
    const t = len > 0 ? Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / len)) : 0;
    best = Math.min(best, Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy));
  }
  return best;
}
