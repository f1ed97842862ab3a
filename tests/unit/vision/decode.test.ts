import { describe, expect, it } from 'vitest';
import {
  blazefaceAnchors,
  decodeBlazeface,
  decodeNanodet,
  eyeOf,
  iou,
  meshToImage,
  poseOf,
  squareAround,
  suppress,
} from '../../../engines/vision/decode';
import { MESH } from '../../../engines/vision/mesh';
import type { MeshPoint } from '../../../engines/vision/types';

describe('BlazeFace decoding', () => {
  it('has 896 anchors for 256 px: 512 at stride 16, then 384 at stride 32', () => {
    const a = blazefaceAnchors(256);
    expect(a.length).toBe(896 * 2);
    expect([a[0], a[1]]).toEqual([8, 8]);
    expect([a[2], a[3]]).toEqual([8, 8]); // two anchors per cell
    expect([a[4], a[5]]).toEqual([24, 8]);
    expect([a[512 * 2], a[512 * 2 + 1]]).toEqual([16, 16]);
    expect([a[895 * 2], a[895 * 2 + 1]]).toEqual([240, 240]);
  });

  it('places a box and keypoints relative to their anchor, keeping only confident rows', () => {
    const anchors = blazefaceAnchors(256);
    const rows = new Float32Array(896 * 17).fill(0);
    for (let i = 0; i < 896; i++) rows[i * 17] = -10;
    const i = 600; // a stride-32 anchor
    rows[i * 17] = 3; // sigmoid ≈ 0.95
    rows.set([4, -2, 40, 50, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6], i * 17 + 1);
    const found = decodeBlazeface(rows, anchors, 0.5);
    expect(found).toHaveLength(1);
    const [ax, ay] = [anchors[i * 2]!, anchors[i * 2 + 1]!];
    expect(found[0]!.x).toBeCloseTo(ax + 4 - 20);
    expect(found[0]!.y).toBeCloseTo(ay - 2 - 25);
    expect(found[0]!.width).toBe(40);
    expect(found[0]!.score).toBeCloseTo(0.9526, 3);
    expect(found[0]!.keypoints![5]).toEqual({ x: ax + 6, y: ay + 6 });
  });
});

describe('suppression and boxes', () => {
  it('measures overlap and keeps the best of overlapping boxes', () => {
    const a = { x: 0, y: 0, width: 10, height: 10, score: 0.9 };
    const b = { x: 5, y: 0, width: 10, height: 10, score: 0.8 };
    const c = { x: 30, y: 30, width: 10, height: 10, score: 0.7 };
    expect(iou(a, b)).toBeCloseTo(50 / 150);
    expect(suppress([c, b, a], 0.3)).toEqual([a, c]);
    expect(suppress([c, b, a], 0.5)).toEqual([a, b, c]);
    expect(suppress([c, b, a], 0.5, 1)).toEqual([a]);
  });

  it('squares a box around its centre', () => {
    expect(squareAround({ x: 10, y: 20, width: 20, height: 40 }, 1.5)).toEqual({ x: -10, y: 10, width: 60, height: 60 });
  });
});

/** A flat frontal mesh: points on a grid, the named landmarks placed where a face has them. */
function flatFace(): MeshPoint[] {
  const mesh: MeshPoint[] = Array.from({ length: MESH.count }, () => ({ x: 100, y: 100, z: 0 }));
  mesh[MESH.cheekRight] = { x: 60, y: 100, z: 0 };
  mesh[MESH.cheekLeft] = { x: 140, y: 100, z: 0 };
  mesh[MESH.forehead] = { x: 100, y: 40, z: 0 };
  mesh[MESH.chin] = { x: 100, y: 170, z: 0 };
  return mesh;
}

describe('mesh geometry', () => {
  it('maps crop coordinates to image pixels, z in the same scale', () => {
    const raw = new Float32Array(MESH.count * 3);
    raw.set([96, 48, -10], 0);
    const pts = meshToImage(raw, { x: 100, y: 200, width: 384, height: 384 }, 192);
    expect(pts[0]).toEqual({ x: 292, y: 296, z: -20 });
  });

  it('reads yaw, pitch and roll from the mesh axes', () => {
    expect(poseOf(flatFace())).toEqual({ yaw: 0, pitch: 0, roll: 0 });
    const turned = flatFace();
    // Turned toward the image's right: the cheek on that side goes back, the other comes forward.
    const a = Math.PI / 6;
    turned[MESH.cheekLeft] = { x: 100 + 40 * Math.cos(a), y: 100, z: 40 * Math.sin(a) };
    turned[MESH.cheekRight] = { x: 100 - 40 * Math.cos(a), y: 100, z: -40 * Math.sin(a) };
    expect(poseOf(turned).yaw).toBeCloseTo(30, 0);
    const nodding = flatFace();
    nodding[MESH.chin] = { x: 100, y: 165, z: 30 };
    expect(poseOf(nodding).pitch).toBeCloseTo((Math.atan2(30, 125) * 180) / Math.PI, 0);
    const rolled = flatFace();
    rolled[MESH.cheekLeft] = { x: 140, y: 140, z: 0 };
    rolled[MESH.cheekRight] = { x: 60, y: 60, z: 0 };
    expect(poseOf(rolled).roll).toBeCloseTo(45, 0);
  });

  it('measures eye openness as the lid gap over the eye width', () => {
    const mesh = flatFace();
    const upper = MESH.rightEyeUpper;
    const lower = MESH.rightEyeLower;
    lower.forEach((i, k) => (mesh[i] = { x: 40 + k * 5, y: 100, z: 0 }));
    upper.forEach((i, k) => (mesh[i] = { x: 45 + k * 5, y: 90, z: 0 }));
    const eye = eyeOf(mesh, upper, lower);
    expect(eye.width).toBe(40);
    expect(eye.openness).toBeCloseTo(0.25);
    upper.forEach((i, k) => (mesh[i] = { x: 45 + k * 5, y: 99, z: 0 }));
    expect(eyeOf(mesh, upper, lower).openness).toBeCloseTo(0.025);
  });
});

describe('NanoDet decoding', () => {
  it('reads a cell’s best class and its distances as the distribution’s expectation, in strides', () => {
    const grid = 2, stride = 8, classes = 3, bins = 3;
    const scores = new Float32Array(grid * grid * classes);
    scores[3 * classes + 2] = 0.9; // cell (1, 1), class 2
    scores[0 * classes + 1] = 0.1;
    const distances = new Float32Array(grid * grid * 4 * bins).fill(-50);
    // Cell 3: every side's distribution all on bin 2 → 2 strides = 16 px.
    for (let side = 0; side < 4; side++) distances[(3 * 4 + side) * bins + 2] = 50;
    const found = decodeNanodet([{ grid, stride, scores, distances }], classes, 0.5);
    expect(found).toHaveLength(1);
    expect(found[0]!.label).toBe(2);
    expect(found[0]!.x).toBeCloseTo(12 - 16);
    expect(found[0]!.width).toBeCloseTo(32);
  });
});
