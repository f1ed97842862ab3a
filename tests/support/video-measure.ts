// The parallax measures of a rendered clip, shared by the benchmark and the tests: the share of tracked
// features whose first→last motion departs from the best single camera move, and, when the subject's true
// mask is known, the move of the subject's and the background's features against what the camera path gives
// their layers.
import { progressRect, type CameraPath, distanceTo } from '../../engines/video';
import type { Depth } from '../../engines/video';
import { decodeRawGray, departingShare, describe, splitFrames, trackClip } from './video-tracking';

export type Move = { scale: number; dx: number; dy: number };

/** Tracks of a clip: where each feature of the first frame is at the last. */
export async function clipTracks(mp4: Buffer, width: number, height: number) {
  const raw = await decodeRawGray(mp4);
  return { raw, ...trackClip(splitFrames(raw, width, height)) };
}

/** Share of tracks more than `tolerance` pixels away from the best single similarity. */
export function parallaxShare(tracks: { start: [number, number][]; end: [number, number][] }, tolerance = 8): number {
  return departingShare(tracks.start, tracks.end, tolerance).share;
}

/** The move (at the frame's centre) a layer with parallax factor k makes over the whole clip. */
export function predictedMove(path: CameraPath, k: number, width: number, height: number): Move {
  const first = progressRect(path, 0);
  const last = progressRect(path, k);
  const [cx, cy] = [width / 2, height / 2];
  const [u, v] = [width * first.x + cx * first.w, height * first.y + cy * first.h];
  return { scale: first.w / last.w, dx: (u - width * last.x) / last.w - cx, dy: (v - height * last.y) / last.h - cy };
}

/** The true subject mask (photo coordinates) as the first frame shows it (through the path's first window). */
export function maskAtFirstFrame(truth: Uint8Array, path: CameraPath, width: number, height: number): Uint8Array {
  const first = progressRect(path, 0);
  const out = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const v = Math.min(height - 1, Math.round(height * first.y + y * first.h));
    for (let x = 0; x < width; x++) out[y * width + x] = truth[v * width + Math.min(width - 1, Math.round(width * first.x + x * first.w))]!;
  }
  return out;
}

/**
 * The measured moves of the subject's and the background's tracks (those more than 10 px from the true
 * outline in the first frame), each the similarity most of its tracks follow within 3 px.
 */
export function groupMoves(
  tracks: { start: [number, number][]; end: [number, number][] },
  photoMask: Uint8Array,
  path: CameraPath,
  width: number,
  height: number,
) {
  const truth = maskAtFirstFrame(photoMask, path, width, height);
  const inside = Uint8Array.from(truth, (t) => 1 - t);
  const toInside = distanceTo(inside, width, height);
  const toOutside = distanceTo(truth, width, height);
  const group = (subject: boolean) => {
    const keep = tracks.start.map(([x, y]) => {
      const i = Math.round(y) * width + Math.round(x);
      return !!truth[i] === subject && (subject ? toInside[i]! : toOutside[i]!) > 10;
    });
    const start = tracks.start.filter((_, i) => keep[i]);
    const end = tracks.end.filter((_, i) => keep[i]);
    return { count: start.length, move: describe(departingShare(start, end, 3).move, width, height) };
  };
  return { subject: group(true), background: group(false) };
}

/**
 * Whether a measured move lies between what the path gives a layer's nearest and farthest parts: 3 px and
 * 0.5 % of slack for tracking, and for a layer whose parts shift by different amounts (S pixels apart: tilted
 * ground, a rounded subject) one similarity fitted to it also turns and scales a little, moving its centre by
 * up to S/2 and its scale by up to S over the frame's width.
 */
export function withinLayer(measured: Move, path: CameraPath, k0: number, k1: number, width: number, height: number): boolean {
  const p = predictedMove(path, k0, width, height);
  const q = predictedMove(path, k1, width, height);
  const spread = Math.hypot(p.dx - q.dx, p.dy - q.dy);
  const between = (value: number, a: number, b: number, slack: number) => value >= Math.min(a, b) - slack && value <= Math.max(a, b) + slack;
  const shift = 3 + spread / 2;
  return between(measured.dx, p.dx, q.dx, shift) && between(measured.dy, p.dy, q.dy, shift) && between(measured.scale, p.scale, q.scale, 0.005 + spread / width);
}

/** How far a move travels (pixels, a scale change counted over the frame's width). */
export const travel = (m: Move, width: number) => Math.hypot(m.dx, m.dy) + Math.abs(Math.log(m.scale)) * width;

/** The camera path's verdict on a layered clip: both layers where their factors put them, the subject ahead. */
export function followsPath(
  moves: ReturnType<typeof groupMoves>,
  path: CameraPath,
  depth: Depth,
  width: number,
  height: number,
): { subject: boolean; background: boolean; subjectAhead: boolean } {
  return {
    subject: withinLayer(moves.subject.move, path, depth.subjectEdge, 1, width, height),
    background: withinLayer(moves.background.move, path, depth.backgroundTop, depth.backgroundBottom, width, height),
    subjectAhead: travel(moves.subject.move, width) > travel(moves.background.move, width) * 1.1,
  };
}
