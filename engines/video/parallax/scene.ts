// From the output-size still to the two layers the parallax render moves: find the subject, matte it, order
// depth, work out which part of the background the subject's move uncovers and fill it.

import sharp from 'sharp';
import { findSubject } from '../layers/find-subject';
import type { Subject } from '../layers/subject';
import type { PhotoAnalysis } from '../../vision';
import { alphaMatte, decontaminate } from '../layers/matte';
import { fillBackground } from '../layers/background';
import { distanceTo, sample } from '../layers/planes';
import { progressAt, type CameraPath } from '../motion';
import { rgbToYuv420, type Yuv420 } from '../yuv';
import { chooseDepth, depthCues, type DepthCues } from './depth';
import { BackgroundMap, Motion, subjectFactors, subjectSource, type Depth, type SubjectFactors } from './plan';
import { subjectBox, type Box, type SubjectPlanes } from './subject-layer';

/** Long side (pixels) of the copy the subject is looked for on. */
export const ANALYSIS_SIZE = 240;

export type ParallaxScene = {
  depth: Depth;
  cues: DepthCues;
  cue: Subject['cue'];
  /** What the subject is, in words (the vision models' find), when known. */
  found?: string;
  factors: SubjectFactors;
  motion: Motion;
  /** The background with what the subject uncovers filled. */
  background: Yuv420;
  subject: SubjectPlanes;
  /** Where the subject layer's frames go in the output frame. */
  box: Box;
  /** Share of the frame the subject covers. */
  area: number;
};

export type SceneDecision = { scene: ParallaxScene; reason?: undefined } | { scene: null; reason: string };

/**
 * `still` is interleaved RGB at the output size (even width and height); `vision` the vision models' answer on
 * a copy of it (any size: its coordinates are scaled), absent to use the saliency path alone.
 */
export async function buildScene(still: Uint8Array, width: number, height: number, path: CameraPath, vision?: PhotoAnalysis): Promise<SceneDecision> {
  const small = await sharp(still, { raw: { width, height, channels: 3 } })
    .resize(ANALYSIS_SIZE, ANALYSIS_SIZE, { fit: 'inside' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const search = findSubject({ data: small.data, width: small.info.width, height: small.info.height }, vision);
  if (!search.subject) return { scene: null, reason: search.reason };
  const { mask, width: mw, height: mh, focus, cue, found, soft } = search.subject;
  const luma = new Uint8Array(width * height);
  for (let i = 0; i < luma.length; i++) luma[i] = 0.299 * still[i * 3]! + 0.587 * still[i * 3 + 1]! + 0.114 * still[i * 3 + 2]!;
  const radius = Math.max(2, Math.round(Math.min(width, height) / 280));
  // A segmentation's own soft edge (finer than the analysed copy) is what the guided filter refines at full size.
  const alpha = soft ? alphaMatte(steeper(soft.mask), soft.width, soft.height, luma, width, height, radius) : alphaMatte(mask, mw, mh, luma, width, height, radius);
  const colours = rgbToYuv420(decontaminate(still, alpha, width, height, radius + 3), width, height);
  const subject: SubjectPlanes = { ...colours, a: alpha };
  const cues = depthCues(mask, focus, mw, mh);
  const depth = chooseDepth(path, cues, silhouette(mask, mw, mh, width / mw, height / mh), width, height, halfWidth(mask, mw, mh) * (width / mw));
  const factors = subjectFactors(mask, mw, mh, depth.subjectEdge);
  const motion = new Motion(path, width, height);
  const hole = dilate(alpha, width, height, 2);
  const seen = uncovered(motion, depth, factors, mask);
  const needed = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const sy = Math.min(mh - 1, Math.floor((y * mh) / height));
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      needed[i] = hole[i]! & seen[sy * mw + Math.min(mw - 1, Math.floor((x * mw) / width))]!;
    }
  }
  const background = rgbToYuv420(still, width, height);
  fillBackground(background, hole, needed);
  const box = subjectBox(motion, factors, mask, radius + 4);
  return { scene: { depth, cues, cue, found, factors, motion, background, subject, box, area: search.subject.scores.area } };
}

/** A segmentation's probabilities made steeper around 0.5: its wide, unsure tails would be a veil, not an edge. */
function steeper(p: Float32Array): Float32Array {
  return p.map((v) => Math.min(1, Math.max(0, 0.5 + (v - 0.5) * 3)));
}

/** The subject's largest distance to its outline (the frame's border is no outline), in mask pixels. */
function halfWidth(mask: Uint8Array, width: number, height: number): number {
  const outside = new Uint8Array(mask.length);
  for (let i = 0; i < mask.length; i++) outside[i] = mask[i] ? 0 : 1;
  const inward = distanceTo(outside, width, height);
  let most = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i] && Number.isFinite(inward[i]!)) most = Math.max(most, inward[i]!);
  return most;
}

/** Pixels within `r` of any pixel with alpha > 0. */
function dilate(alpha: Uint8Array, width: number, height: number, r: number): Uint8Array {
  const any = new Uint8Array(alpha.length);
  for (let i = 0; i < alpha.length; i++) any[i] = alpha[i]! > 0 ? 1 : 0;
  const d = distanceTo(any, width, height);
  const out = new Uint8Array(alpha.length);
  for (let i = 0; i < alpha.length; i++) out[i] = d[i]! <= r ? 1 : 0;
  return out;
}

/** The mask's boundary points, in output pixels. */
function silhouette(mask: Uint8Array, width: number, height: number, sx: number, sy: number): [number, number][] {
  const points: [number, number][] = [];
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1; x < width - 1; x++) {
      const i = y * width + x;
      if (mask[i] && (!mask[i - 1] || !mask[i + 1] || !mask[i - width] || !mask[i + width])) points.push([(x + 0.5) * sx, (y + 0.5) * sy]);
    }
  }
  // A couple of hundred points are plenty for the depth budget.
  const every = Math.max(1, Math.floor(points.length / 200));
  return points.filter((_, k) => k % every === 0);
}

/**
 * Which background pixels (at the mask's size) some frame shows: every 5th frame, every other point of the
 * frame the subject does not cover marks the background pixel it shows, and those within two pixels.
 */
function uncovered(motion: Motion, depth: Depth, factors: SubjectFactors, mask: Uint8Array): Uint8Array {
  const { path, width, height } = motion;
  const mw = factors.width;
  const mh = factors.height;
  const seen = new Uint8Array(mw * mh);
  const cover = Float32Array.from(mask);
  const frames: number[] = [];
  for (let n = 0; n < path.frames; n += 5) frames.push(n);
  frames.push(path.frames - 1);
  const uv = new Float64Array(3);
  const row = new Float64Array(3);
  const map = new BackgroundMap(motion, depth);
  for (const n of frames) {
    const progress = progressAt(path, n);
    map.at(progress);
    for (let py = 0; py < mh; py += 2) {
      for (let px = 0; px < mw; px += 2) {
        const x = ((px + 1) * width) / mw;
        const y = ((py + 1) * height) / mh;
        subjectSource(motion, factors, progress, x, y, uv);
        if (sample(cover, mw, mh, (uv[0]! * mw) / width - 0.5, (uv[1]! * mh) / height - 0.5) >= 0.5) continue;
        map.row(y, row);
        const cx = Math.floor(((row[1]! + row[2]! * x) * mw) / width);
        const cy = Math.floor((row[0]! * mh) / height);
        for (let yy = Math.max(0, cy - 2); yy <= Math.min(mh - 1, cy + 2); yy++) {
          for (let xx = Math.max(0, cx - 2); xx <= Math.min(mw - 1, cx + 2); xx++) seen[yy * mw + xx] = 1;
        }
      }
    }
  }
  return seen;
}
