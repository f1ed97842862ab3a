// How each layer follows the camera path. A layer with parallax factor k makes k of the move: its window is
// the path's window at k × the eased progress (so a window between the path's two ends, always inside the
// photo, for any k in 0..1). The subject's core follows the whole move (k = 1), exactly the flat move of the
// prompt; its silhouette a little less (it is rounded), the background less again, its top (far) less than its
// bottom (nearer ground). The difference is the parallax.
//
// Coordinates: a layer's source is the output-size still; output pixel (x, y) of a layer with window r shows
// source pixel (W·r.x + x·r.w, H·r.y + y·r.h), ffmpeg's perspective filter's convention.

import type { CameraPath } from '../motion';
import { boxMean } from '../../shared';
import { distanceTo, sample } from '../layers/planes';

export type Depth = {
  /** Parallax factor of the subject's silhouette; its core's is 1. */
  subjectEdge: number;
  /** Of the background along the top of the frame (far) and along the bottom (nearer). */
  backgroundTop: number;
  backgroundBottom: number;
};

export const FLAT: Depth = { subjectEdge: 1, backgroundTop: 1, backgroundBottom: 1 };

/** The lowest parallax factor the far background may get, however far away the cues put it. */
export const MIN_FACTOR = 0.25;

/** The subject's factor per pixel of the analysed mask: 1 deep inside, `edge` at the silhouette. */
export type SubjectFactors = { factors: Float32Array; width: number; height: number };

/**
 * Factors over the mask from the distance to the silhouette (the frame's border is not a silhouette: a body
 * running out of the picture stays near): a smooth dome, so the subject turns a little as the camera moves.
 */
export function subjectFactors(mask: Uint8Array, width: number, height: number, edge: number): SubjectFactors {
  const n = width * height;
  const outside = new Uint8Array(n);
  let area = 0;
  for (let i = 0; i < n; i++) {
    outside[i] = mask[i] ? 0 : 1;
    area += mask[i]!;
  }
  const inward = distanceTo(outside, width, height);
  const reach = Math.max(2, 0.22 * Math.sqrt(area));
  const raw = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const t = Math.min(1, (Number.isFinite(inward[i]!) ? inward[i]! : reach) / reach);
    raw[i] = edge + (1 - edge) * t * t * (3 - 2 * t);
  }
  return { factors: boxMean(raw, width, height, 2), width, height };
}

/**
 * The move in closed form, for the per-pixel work: the window at k × progress without building objects.
 * `window(kp)` fills `rect` (x, y, w, h in source pixels of a width × height still).
 */
export class Motion {
  readonly rect = new Float64Array(4);
  private readonly w0: number;
  private readonly h0: number;
  private readonly logW: number;
  private readonly logH: number;
  private readonly cx0: number;
  private readonly cy0: number;
  private readonly dcx: number;
  private readonly dcy: number;

  constructor(
    readonly path: CameraPath,
    readonly width: number,
    readonly height: number,
  ) {
    const { from: a, to: b } = path;
    this.w0 = a.w * width;
    this.h0 = a.h * height;
    this.logW = Math.log(b.w / a.w);
    this.logH = Math.log(b.h / a.h);
    this.cx0 = (a.x + a.w / 2) * width;
    this.cy0 = (a.y + a.h / 2) * height;
    this.dcx = (b.x + b.w / 2 - a.x - a.w / 2) * width;
    this.dcy = (b.y + b.h / 2 - a.y - a.h / 2) * height;
  }

  /** The window at progress `kp` (a layer's factor times the frame's progress), into `rect`. */
  window(kp: number): Float64Array {
    const w = this.w0 * Math.exp(this.logW * kp);
    const h = this.h0 * Math.exp(this.logH * kp);
    this.rect[0] = this.cx0 + this.dcx * kp - w / 2;
    this.rect[1] = this.cy0 + this.dcy * kp - h / 2;
    this.rect[2] = w / this.width;
    this.rect[3] = h / this.height;
    return this.rect;
  }
}

/**
 * Source position (output-size still pixels) the subject layer shows at output pixel (x, y) at a frame's
 * progress: the factor depends on the source point, so it is found by fixed-point iteration from `guess` (the
 * factors vary slowly: from the same point's factor in the previous frame, one step is enough). Writes u, v
 * and the factor used into `out`.
 */
export function subjectSource(
  motion: Motion,
  sf: SubjectFactors,
  progress: number,
  x: number,
  y: number,
  out: Float64Array,
  guess = 1,
): void {
  const sx = sf.width / motion.width;
  const sy = sf.height / motion.height;
  const steps = guess === 1 ? 3 : 2;
  let k = guess;
  for (let step = 0; step < steps; step++) {
    const r = motion.window(k * progress);
    out[0] = r[0]! + x * r[2]!;
    out[1] = r[1]! + y * r[3]!;
    out[2] = k;
    if (step < steps - 1) k = sample(sf.factors, sf.width, sf.height, out[0] * sx - 0.5, out[1] * sy - 0.5);
  }
}

/** Where source point (u, v) of the subject appears at a frame's progress (output pixels), into `out`. */
export function subjectTarget(motion: Motion, sf: SubjectFactors, progress: number, u: number, v: number, out: Float64Array): void {
  const k = sample(sf.factors, sf.width, sf.height, (u * sf.width) / motion.width - 0.5, (v * sf.height) / motion.height - 0.5);
  const r = motion.window(k * progress);
  out[0] = (u - r[0]!) / r[2]!;
  out[1] = (v - r[1]!) / r[3]!;
}

/**
 * The background's map at a frame's progress: its top edge is the window at `backgroundTop` × progress, its
 * bottom edge the window at `backgroundBottom` × progress, and the rows between follow the projective map of
 * that trapezoid (a plane tilted away from the camera; both factors equal make it the flat move). Each output
 * row shows one source row, so the map is given per row: source v, and source u = alpha + beta · x.
 */
export class BackgroundMap {
  private top = new Float64Array(4);
  private bottom = new Float64Array(4);
  /** Projective coefficients of the current frame (see row()). */
  private h = 0;
  private e = 0;
  private f = 0;
  private b = 0;
  private c = 0;
  private a = 0;

  constructor(
    private readonly motion: Motion,
    private readonly depth: Depth,
  ) {}

  /** Sets the frame (its eased progress). */
  at(progress: number): this {
    const { motion, depth } = this;
    this.top = Float64Array.from(motion.window(depth.backgroundTop * progress));
    this.bottom = Float64Array.from(motion.window(depth.backgroundBottom * progress));
    const { width: W, height: H } = motion;
    const [xt, yt, wt] = this.top as unknown as [number, number, number];
    const xb = this.bottom[0]!;
    const yb = this.bottom[1]! + this.bottom[3]! * H;
    const wb = this.bottom[2]!;
    // Heckbert's square-to-quad map for corners (xt, yt), (xt + wt·W, yt), (xb + wb·W, yb), (xb, yb): with both
    // edges horizontal its x-term in the denominator vanishes, leaving h for the rows' foreshortening.
    this.h = (wt - wb) / wb;
    this.a = wt * W;
    this.b = xb - xt + this.h * xb;
    this.c = xt;
    this.e = yb - yt + this.h * yb;
    this.f = yt;
    return this;
  }

  /** Output row y's source: writes [v, alpha, beta] (u = alpha + beta · x, source pixels) into `out`. */
  row(y: number, out: Float64Array): void {
    const t = y / this.motion.height;
    const d = this.h * t + 1;
    out[0] = (this.e * t + this.f) / d;
    out[1] = (this.b * t + this.c) / d;
    out[2] = this.a / (this.motion.width * d);
  }
}
