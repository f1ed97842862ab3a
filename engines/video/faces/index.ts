// Faces that move: for each face large enough and facing the camera, a slight turn and nod and one blink,
// drawn over each composed frame as a piecewise-affine warp of the face region over the mesh's triangles
// (`rig.ts`, `warp.ts`), timed over the clip (`timing.ts`). A face too small, in profile, partly hidden or one
// whose mesh would fold under the motion is left as it is, with the reason recorded; where only the blink would
// fold it (eyelids seen at an angle), the face turns and nods without blinking.

import type { Face } from '../../vision';
import { cameraRectAt, type CameraPath } from '../motion';
import { buildRig, keepsShape, posed, type Rig } from './rig';
import { poseAt } from './timing';
import { warpPlane } from './warp';

/** A face narrower than this share of the frame's short side is too small to animate convincingly. */
export const MIN_FACE_SHARE = 0.1;
/** And never narrower than this many pixels. */
export const MIN_FACE_PIXELS = 64;
/** The mesh model's confidence under which the face is taken as partly hidden. */
export const MIN_MESH_SCORE = 0.6;
/** An eye narrower open than this (openness) is closed or hidden already: no blink. */
export const MIN_OPEN_EYE = 0.12;
export const MAX_FACES = 3;

export type FaceDecision =
  | { animated: true; box: { x: number; y: number; width: number; height: number }; scale: number; blink: boolean; note?: string }
  | { animated: false; box: { x: number; y: number; width: number; height: number }; reason: string };

/** For the job's record: how many faces were found, how many move, and why each other one does not. */
export type FacesReport = { found: number; animated: number; decisions: FaceDecision[]; error?: string };

type Animated = { rig: Rig; scale: number; blink: boolean };

/** Which faces move and how far; `frames`/`fps` is the clip's timing. */
export function planFaces(faces: Face[], width: number, height: number, frames: number, fps: number): { animated: Animated[]; report: FacesReport } {
  const decisions: FaceDecision[] = [];
  const animated: Animated[] = [];
  const minWidth = Math.max(MIN_FACE_PIXELS, MIN_FACE_SHARE * Math.min(width, height));
  for (const face of [...faces].sort((a, b) => b.box.width - a.box.width)) {
    const box = roundBox(face.box);
    const skip = (reason: string) => decisions.push({ animated: false, box, reason });
    if (animated.length >= MAX_FACES) { skip('more faces than are animated'); continue; }
    if (face.box.width < minWidth) { skip(`too small (${Math.round(face.box.width)} px wide, needs ${Math.round(minWidth)})`); continue; }
    // Turned or nodding further than the vision module's `frontal` allows reads as a profile: the mesh's far side is a guess there.
    if (!face.frontal) { skip(`in profile (yaw ${face.pose.yaw}°, pitch ${face.pose.pitch}°)`); continue; }
    if (face.score < MIN_MESH_SCORE) { skip(`partly hidden (mesh confidence ${face.score.toFixed(2)})`); continue; }
    if (face.box.x < 0 || face.box.y < 0 || face.box.x + face.box.width > width || face.box.y + face.box.height > height) { skip('cut by the frame'); continue; }
    const rig = buildRig(face, width, height);
    const open = Math.min(face.eyes.left.openness, face.eyes.right.openness) >= MIN_OPEN_EYE;
    const motion = chooseMotion((scale, blink) => keepsShapeThroughout(rig, frames, fps, scale, blink), open);
    if (!motion) { skip('the mesh would fold under the motion'); continue; }
    const { scale, blink } = motion;
    animated.push({ rig, scale, blink });
    decisions.push({ animated: true, box, scale, blink, ...(open && !blink && { note: 'no blink: the eyelids would fold' }) });
  }
  return { animated, report: { found: faces.length, animated: animated.length, decisions } };
}

/** Shares of the full motion tried, largest first. */
const SCALES = [1, 0.7, 0.5] as const;

/**
 * The motion a face gets: the largest share of the turn and nod, with the blink when the eyes are open, under
 * which `fits` holds; else, when only the blink folds the mesh (a lid seen at an angle), the turn and nod alone —
 * a face that moves without blinking rather than one frozen or torn. Null when nothing fits.
 */
export function chooseMotion(fits: (scale: number, blink: boolean) => boolean, open: boolean): { scale: number; blink: boolean } | null {
  for (const blink of open ? [true, false] : [false]) {
    for (const scale of SCALES) if (fits(scale, blink)) return { scale, blink };
  }
  return null;
}

/** No frame of the clip folds a triangle of the face's mesh at this share of the motion. */
function keepsShapeThroughout(rig: Rig, frames: number, fps: number, scale: number, blink: boolean): boolean {
  const out = new Float64Array(rig.rest.length);
  for (let n = 0; n < frames; n++) {
    const pose = poseAt(n, frames, fps);
    if (!blink) pose.closure = 0;
    if (!keepsShape(rig, posed(rig, pose, scale, out))) return false;
  }
  return true;
}

const roundBox = (b: Face['box']) => ({ x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) });

/**
 * Draws the faces' motion over composed yuv420p frames. The faces are where the camera's flat move puts
 * them (the subject's core follows the whole move), so the mesh is mapped through the camera window of each frame.
 */
export class FaceAnimator {
  private readonly posedPts: Float64Array[];
  private readonly to: Float64Array[];
  private readonly from: Float64Array[];
  private before: Uint8Array | null = null;

  constructor(
    private readonly faces: Animated[],
    private readonly path: CameraPath,
    private readonly width: number,
    private readonly height: number,
    private readonly fps: number,
  ) {
    this.posedPts = faces.map((f) => new Float64Array(f.rig.rest.length));
    this.to = faces.map((f) => new Float64Array(f.rig.rest.length));
    this.from = faces.map((f) => new Float64Array(f.rig.rest.length));
  }

  /** Frame n (yuv420p, `width` × `height`) warped in place. */
  apply(n: number, frame: Uint8Array): void {
    const { width: W, height: H } = this;
    const cw = W >> 1, ch = H >> 1;
    this.before ??= new Uint8Array(frame.length);
    this.before.set(frame);
    const r = cameraRectAt(this.path, n);
    const planes = [
      { at: 0, w: W, h: H, scale: 1 },
      { at: W * H, w: cw, h: ch, scale: 2 },
      { at: W * H + cw * ch, w: cw, h: ch, scale: 2 },
    ];
    this.faces.forEach((face, k) => {
      const pose = poseAt(n, this.path.frames, this.fps);
      if (!face.blink) pose.closure = 0;
      const pts = posed(face.rig, pose, face.scale, this.posedPts[k]!);
      for (const p of planes) {
        this.toFrame(pts, r, p.scale, this.to[k]!);
        this.toFrame(face.rig.rest, r, p.scale, this.from[k]!);
        warpPlaneOf(frame, this.before!, p, face.rig.triangles, this.to[k]!, this.from[k]!);
      }
    });
  }

  /** Still pixels → this frame's plane pixels (chroma: half size, centres at luma 2x + 0.5). */
  private toFrame(src: Float64Array, r: { x: number; y: number; w: number; h: number }, scale: number, out: Float64Array): void {
    const { width: W, height: H } = this;
    for (let i = 0; i < src.length; i += 2) {
      const x = (src[i]! - W * r.x) / r.w;
      const y = (src[i + 1]! - H * r.y) / r.h;
      out[i] = scale === 1 ? x : (x - 0.5) / 2;
      out[i + 1] = scale === 1 ? y : (y - 0.5) / 2;
    }
  }
}

function warpPlaneOf(frame: Uint8Array, before: Uint8Array, p: { at: number; w: number; h: number }, triangles: Uint32Array, to: Float64Array, from: Float64Array): void {
  const size = p.w * p.h;
  warpPlane(frame.subarray(p.at, p.at + size), p.w, p.h, before.subarray(p.at, p.at + size), triangles, to, from);
}


/**
 * Finds the faces on the output-size still (RGB) and plans their motion for a clip along `path`. A failure of
 * the face models is recorded and the clip is made without face motion: the camera move alone is still a clip.
 */
export async function animateFaces(
  still: Uint8Array,
  width: number,
  height: number,
  path: CameraPath,
  fps: number,
): Promise<{ animator: FaceAnimator | null; report: FacesReport }> {
  let faces: Face[];
  try {
    // Loaded on first use: TensorFlow.js is a few megabytes of code a function need not parse to start.
    const { findFaces } = await import('../../vision');
    faces = await findFaces({ data: still, width, height, channels: 3 }, { maxFaces: MAX_FACES + 1 });
  } catch (error) {
    return { animator: null, report: { found: 0, animated: 0, decisions: [], error: `face detection failed: ${(error as Error).message}` } };
  }
  const { animated, report } = planFaces(faces, width, height, path.frames, fps);
  return { animator: animated.length ? new FaceAnimator(animated, path, width, height, fps) : null, report };
}
