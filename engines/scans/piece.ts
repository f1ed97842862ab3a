// One piece of the mask (pixels that differ from the bed, joined): how many prints, and where exactly each is.
//
// A piece's bodies are what remains after thin things are cut off it (a shadow's or a faint white border's line,
// a chain of grain, a hair, a shadow bridging two prints close together): the piece shrunk by a few pixels, its
// thick parts, each grown back inside the piece. A body is one print unless:
//   - its convex outline fills < 93 % of its rectangle, or it is over 3.2 × as long as wide (two prints overlapping
//     or at an angle, a row of prints)
//   - it has a step in two opposite sides, or a higher one in one side (two prints lined up side by side, one
//     sticking out of the other)
// Several bodies are several prints when each is one and their rectangles lie apart; touching, they are doubtful.
// Each print's rectangle has its sides fitted to its body's outline (refineRect).
import { maskRegions } from '../shared';
import { convexHull, distanceToPolygon, minAreaRect, polygonArea, quadIoU, rectAxes, rectCorners, type Box, type RotatedRect } from './geometry';
import { dilate, erode, outline } from './raster';
import type { KeptWholeCode } from './reasons';
import { SPLIT } from './thresholds';

export type PieceStats = {
  box: Box;
  area: number;
  /** Thick parts (bodies) of the piece. */
  bodies: number;
  /** The worst body's convex outline over its rectangle's area. */
  rectangularity: number;
  /** The piece's pixels over its bodies' convex outlines' area. */
  solidity: number;
  /** The longest body's length over its width. */
  aspect: number;
  /** The highest step in each side of a body (top, right, bottom, left; 0: none). */
  steps: number[];
  /** The least distance between two bodies' rectangles (pixels; absent for one body). */
  apart?: number;
  edge: number;
  verdict: 'print' | KeptWholeCode;
};

export type Piece = { prints: RotatedRect[]; touching: boolean; stats: Omit<PieceStats, 'edge' | 'verdict'> };

type Body = { rect: RotatedRect; rectangularity: number; aspect: number; steps: number[]; hullArea: number; one: boolean };

/**
 * Examines one piece (`px`: its pixels in the w × h mask `solid`, whose short side inside the glass is `scanShort`);
 * null when it holds no print (too small, or only lines).
 */
export function examinePiece(px: Int32Array, solid: Uint8Array, w: number, h: number, scanShort: number): Piece | null {
  const xy = outline(px, solid, w, h);
  const rect0 = minAreaRect(convexHull(xy));
  const short0 = Math.min(rect0.width, rect0.height) + 1;
  if (short0 < SPLIT.minPrintSide * scanShort) return null;
  const outlines = bodiesOf(px, w, Math.max(2, Math.round(SPLIT.bodyCut * short0)));
  // Only lines (a white border's faint edge around its picture, a shadow, a hair): no print.
  if (!outlines.length) return null;
  const bodies = outlines.map(examineBody);
  let apart: number | undefined;
  for (let i = 0; i < bodies.length; i++) for (let j = i + 1; j < bodies.length; j++) {
    const d = rectDistance(bodies[i]!.rect, bodies[j]!.rect);
    apart = apart === undefined ? d : Math.min(apart, d);
  }
  const touching = bodies.some((b) => !b.one) || (apart !== undefined && apart < SPLIT.minGap * scanShort);
  const hullArea = bodies.reduce((s, b) => s + b.hullArea, 0);
  return {
    prints: bodies.map((b) => b.rect),
    touching,
    stats: {
      box: boxOf(xy),
      area: px.length,
      bodies: bodies.length,
      rectangularity: round3(Math.min(...bodies.map((b) => b.rectangularity))),
      solidity: round3(px.length / (hullArea || 1)),
      aspect: round3(Math.max(...bodies.map((b) => b.aspect))),
      steps: [0, 1, 2, 3].map((k) => round3(Math.max(...bodies.map((b) => b.steps[k]!)))),
      ...(apart !== undefined && { apart: round3(apart) }),
    },
  };
}

/** One body: its rectangle, and whether it is one print. */
function examineBody(body: Float64Array): Body {
  const hull = convexHull(body);
  const rect = minAreaRect(hull);
  const hullArea = polygonArea(hull);
  const rectangularity = hullArea / (rect.width * rect.height || 1);
  const aspect = Math.max(rect.width, rect.height) / Math.max(1, Math.min(rect.width, rect.height));
  const refined = refineRect(body, rect);
  const steps = sideSteps(body, refined);
  // Two prints lined up side by side: one sticks out of the other, which shows as a step in two opposite sides,
  // or in one side when their other sides happen to line up (then a higher one).
  const high = Math.max(SPLIT.stepPixels, SPLIT.stepAlone * Math.min(refined.width, refined.height));
  const stepped = (steps[0]! > 0 && steps[2]! > 0) || (steps[1]! > 0 && steps[3]! > 0) || steps.some((v) => v >= high);
  const one = rectangularity >= SPLIT.minRectangularity && aspect <= SPLIT.maxAspect && !stepped;
  return { rect: refined, rectangularity, aspect, steps, hullArea, one };
}

/** The least distance between two rectangles' outlines; 0 when they overlap. */
function rectDistance(a: RotatedRect, b: RotatedRect): number {
  const qa = rectCorners(a), qb = rectCorners(b);
  if (quadIoU(qa, qb) > 0) return 0;
  return Math.min(...qa.map((p) => distanceToPolygon(p, qb)), ...qb.map((p) => distanceToPolygon(p, qa)));
}

/**
 * For each side of `rect` (top, right, bottom, left), the height of a step in it, or 0: the side's outline cut into
 * bins along it, each bin's outermost point, and a place along the side where the bins on either side lie on two
 * different lines, each part straight (a dark patch eating into the edge is ragged, not a step). The lines may
 * slope: two prints lined up are rarely turned exactly alike.
 */
export function sideSteps(xy: Float64Array, rect: RotatedRect): number[] {
  const { ux, uy, vx, vy } = rectAxes(rect.angle);
  const n = xy.length >> 1;
  const short = Math.min(rect.width, rect.height);
  const minStep = Math.max(SPLIT.stepPixels, SPLIT.step * short);
  const bins = SPLIT.stepBins;
  return [0, 1, 2, 3].map((side) => {
    // Outward depth and position along the side, in the side's own coordinates.
    const len = side % 2 ? rect.height : rect.width, depth = side % 2 ? rect.width : rect.height;
    const outer = new Float64Array(bins).fill(-Infinity);
    for (let k = 0; k < n; k++) {
      const dx = xy[2 * k]! - rect.cx, dy = xy[2 * k + 1]! - rect.cy;
      const a = dx * ux + dy * uy, b = dx * vx + dy * vy;
      // Outwards across the side, and along it clockwise.
      const across = side === 0 ? -b : side === 1 ? a : side === 2 ? b : -a;
      const along = side === 0 ? a : side === 1 ? b : side === 2 ? -a : -b;
      const out = across - depth / 2;
      if (out < -SPLIT.stepDepth * depth) continue;
      const t = Math.floor(((along / len + 0.5 - 0.04) / 0.92) * bins);
      if (t >= 0 && t < bins && out > outer[t]!) outer[t] = out;
    }
    // Bin positions in pixels along the side, for the slopes.
    const at = (t: number) => (t + 0.5) * ((0.92 * len) / bins);
    let best = 0;
    for (let k = Math.ceil(0.2 * bins); k <= Math.floor(0.8 * bins); k++) {
      const left = lineThrough(outer, 0, k, at), right = lineThrough(outer, k, bins, at);
      if (!left || !right) continue;
      const x = (at(k - 1) + at(k)) / 2;
      const step = Math.abs(left.at(x) - right.at(x));
      if (step >= minStep) best = Math.max(best, step);
    }
    return best;
  });
}

/** A least-squares line through the bins [from, to) that have a point, if 80 % of those bins lie within
 * SPLIT.stepStraight of it and 75 % of the bins have one. */
function lineThrough(v: Float64Array, from: number, to: number, at: (t: number) => number): { at: (x: number) => number } | null {
  const ts: number[] = [];
  for (let t = from; t < to; t++) if (v[t] !== -Infinity) ts.push(t);
  if (ts.length < 0.75 * (to - from) || ts.length < 3) return null;
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const t of ts) { const x = at(t), y = v[t]!; sx += x; sy += y; sxx += x * x; sxy += x * y; }
  const m = ts.length, den = m * sxx - sx * sx;
  const slope = den > 1e-9 ? (m * sxy - sx * sy) / den : 0, icpt = (sy - slope * sx) / m;
  const near = ts.filter((t) => Math.abs(v[t]! - icpt - slope * at(t)) <= SPLIT.stepStraight).length;
  return near >= 0.8 * ts.length ? { at: (x) => icpt + slope * x } : null;
}


/**
 * The piece's bodies as outline points ([x, y, …] at pixel centres): the piece shrunk by r, its parts at least
 * SPLIT.minBody of the largest (smaller ones are blobs: a knot of dust, a corner of shadow), each grown back inside
 * the piece, a pixel that two of them reach going to neither. None when nothing is left after shrinking: the piece
 * is only lines.
 */
function bodiesOf(px: Int32Array, w: number, r: number): Float64Array[] {
  let x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (const i of px) {
    const x = i % w, y = (i - x) / w;
    if (x < x0) x0 = x;
    if (x > x1) x1 = x;
    if (y < y0) y0 = y;
    if (y > y1) y1 = y;
  }
  // A copy of the piece's box with a margin, so shrinking treats its edges as outside.
  const m = 2 * r + 1, W = x1 - x0 + 1 + 2 * m, H = y1 - y0 + 1 + 2 * m;
  const sub = new Uint8Array(W * H);
  for (const i of px) {
    const x = i % w, y = (i - x) / w;
    sub[(y - y0 + m) * W + (x - x0 + m)] = 1;
  }
  const parts = maskRegions(erode(sub, W, H, r), W, H, 0).pixels.sort((a, b) => b.length - a.length);
  const kept = parts.filter((p) => p.length >= SPLIT.minBody * parts[0]!.length);
  // Grown back by 2r, not r: shrinking by a square cuts the corners of a turned print deeper than r.
  const grown = kept.map((part) => {
    const core = new Uint8Array(W * H);
    for (const i of part) core[i] = 1;
    return dilate(core, W, H, 2 * r);
  });
  const reached = new Uint8Array(W * H);
  for (const g of grown) for (let i = 0; i < W * H; i++) reached[i]! += g[i]!;
  return grown.map((g) => {
    const members: number[] = [];
    for (let i = 0; i < W * H; i++) {
      g[i] = g[i]! & sub[i]! & (reached[i] === 1 ? 1 : 0);
      if (g[i]) members.push(i);
    }
    const body = outline(Int32Array.from(members), g, W, H);
    for (let q = 0; q < body.length; q += 2) {
      body[q]! += x0 - m;
      body[q + 1]! += y0 - m;
    }
    return body;
  });
}

/**
 * The print's rectangle made exact: each side's outline pixels (away from the corners, which may be rounded or
 * lost in a dark patch) fitted with a line, the angle taken from the sides that agree, and each side placed at
 * its pixels' mean. Twice, the second time from the first's rectangle.
 */
export function refineRect(xy: Float64Array, rect0: RotatedRect): RotatedRect {
  let rect = rect0;
  for (let pass = 0; pass < 2; pass++) rect = refineOnce(xy, rect);
  return rect;
}

type Side = { slope: number; at: number; support: number };

function refineOnce(xy: Float64Array, rect: RotatedRect): RotatedRect {
  const n = xy.length >> 1;
  const fitSides = (r: RotatedRect) => {
    const { ux, uy, vx, vy } = rectAxes(r.angle);
    const a = new Float64Array(n), b = new Float64Array(n);
    for (let k = 0; k < n; k++) {
      const dx = xy[2 * k]! - r.cx, dy = xy[2 * k + 1]! - r.cy;
      a[k] = dx * ux + dy * uy;
      b[k] = dx * vx + dy * vy;
    }
    const hw = r.width / 2, hh = r.height / 2;
    // Top, right, bottom, left: the coordinate across the side, the one along it, where the side is, its length.
    const spec = [[b, a, -hh, r.width, r.height], [a, b, hw, r.height, r.width], [b, a, hh, r.width, r.height], [a, b, -hw, r.height, r.width]] as const;
    return spec.map(([across, along, at, len, depth]) => fitLine(across, along, at, len, Math.max(3, SPLIT.sideBand * depth)));
  };
  const sides = fitSides(rect);
  // A side's line turns the rectangle by atan(slope) (top and bottom) or −atan(slope) (left and right).
  const turns = sides.map((s, k) => (s ? ((k % 2 ? -1 : 1) * Math.atan(s.slope) * 180) / Math.PI : NaN));
  const usable = sides.map((s, k) => (s && s.support > 0.25 ? k : -1)).filter((k) => k >= 0);
  let angle = rect.angle;
  if (usable.length) {
    const mid = weightedMedian(usable.map((k) => turns[k]!), usable.map((k) => sides[k]!.support));
    const agree = usable.filter((k) => Math.abs(turns[k]! - mid) <= SPLIT.sidesAgree);
    const wsum = agree.reduce((s, k) => s + sides[k]!.support, 0);
    angle = rect.angle + agree.reduce((s, k) => s + turns[k]! * sides[k]!.support, 0) / wsum;
  }
  const turned = { ...rect, angle };
  const placed = fitSides(turned);
  // Where a side has too few pixels of its own, the outline's extreme there.
  const { ux, uy, vx, vy } = rectAxes(angle);
  let minA = Infinity, maxA = -Infinity, minB = Infinity, maxB = -Infinity;
  for (let k = 0; k < n; k++) {
    const dx = xy[2 * k]! - rect.cx, dy = xy[2 * k + 1]! - rect.cy;
    const a = dx * ux + dy * uy, b = dx * vx + dy * vy;
    minA = Math.min(minA, a); maxA = Math.max(maxA, a); minB = Math.min(minB, b); maxB = Math.max(maxB, b);
  }
  const pos = (k: number, extreme: number) => (placed[k] && placed[k]!.support > 0.25 ? placed[k]!.at : extreme);
  // Outline pixels are the print's outermost pixels: their centres lie half a pixel inside its edge.
  const top = pos(0, minB) - 0.5, right = pos(1, maxA) + 0.5, bottom = pos(2, maxB) + 0.5, left = pos(3, minA) - 0.5;
  const ca = (left + right) / 2, cb = (top + bottom) / 2;
  return { cx: rect.cx + ca * ux + cb * vx, cy: rect.cy + ca * uy + cb * vy, width: right - left, height: bottom - top, angle };
}

/**
 * A line `across = at + slope · along` through the outline pixels near one side (within `band` of `at`, the
 * middle 84 % of its length): its slope by least squares, dropping pixels far from the line twice, its place the
 * median. Support: the share of the side's length its kept pixels cover.
 */
function fitLine(across: Float64Array, along: Float64Array, at: number, len: number, band: number): Side | null {
  let idx: number[] = [];
  for (let k = 0; k < across.length; k++) if (Math.abs(across[k]! - at) <= band && Math.abs(along[k]!) <= 0.42 * len) idx.push(k);
  let fit: { slope: number; at: number } | null = null;
  for (let round = 0; round < 3 && idx.length >= 8; round++) {
    let sa = 0, sb = 0, saa = 0, sab = 0;
    for (const k of idx) { const a = along[k]!, b = across[k]!; sa += a; sb += b; saa += a * a; sab += a * b; }
    const m = idx.length, den = m * saa - sa * sa;
    const slope = den > 1e-9 ? (m * sab - sa * sb) / den : 0;
    fit = { slope, at: (sb - slope * sa) / m };
    const res = idx.map((k) => Math.abs(across[k]! - fit!.at - fit!.slope * along[k]!));
    const rms = Math.sqrt(res.reduce((s, r) => s + r * r, 0) / m);
    const limit = Math.max(1, 2 * rms);
    const kept = idx.filter((_, j) => res[j]! <= limit);
    if (kept.length === idx.length) break;
    idx = kept;
  }
  if (!fit || idx.length < 8) return null;
  // Support: distinct pixel positions along the side, as a share of its middle part's length.
  const cover = new Set(idx.map((k) => Math.round(along[k]!))).size;
  // The side's place: the median of its pixels (a shadow's smear along part of it pulls a mean outwards).
  const offsets = Float64Array.from(idx, (k) => across[k]! - fit!.slope * along[k]!).sort();
  return { slope: fit.slope, at: offsets[offsets.length >> 1]!, support: cover / (0.84 * len) };
}

function weightedMedian(xs: number[], ws: number[]): number {
  const order = xs.map((_, i) => i).sort((a, b) => xs[a]! - xs[b]!);
  const total = ws.reduce((s, v) => s + v, 0);
  let acc = 0;
  for (const i of order) {
    acc += ws[i]!;
    if (acc >= total / 2) return xs[i]!;
  }
  return xs[order[order.length - 1]!]!;
}


function boxOf(xy: Float64Array): Box {
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (let k = 0; k < xy.length; k += 2) {
    x0 = Math.min(x0, xy[k]!); x1 = Math.max(x1, xy[k]!); y0 = Math.min(y0, xy[k + 1]!); y1 = Math.max(y1, xy[k + 1]!);
  }
  return { left: x0 - 0.5, top: y0 - 0.5, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}


const round3 = (v: number) => Math.round(v * 1000) / 1000;
