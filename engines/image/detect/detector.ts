import { measureEvidence, withGroundActivity, type Evidence } from './evidence';
import { objectProbabilities, pixelProbabilities } from './model';
import { damageObjects, likelyPixels, OBJECT_FEATURE_COUNT, OBJECT_FEATURE_NAMES, OBJECT_FLOOR, type DamageObjects } from './objects';
import { followPath, followTwin, PATH, weightedFlanks } from './paths';
import { residualOf } from './residual';
import { withoutPeriodicTexture } from './periodic';
import { halfSums, lineField, type LineField } from './lines';
import { inBackground } from '../background';

/** Half-length of the line field, in half-size pixels (a line about 41 px long at full size). */
const FIELD_HALF = 10;

/**
 * Decision thresholds of the detector: the object probability from which a component is removed. Chosen on the
 * generated validation set (bench/validation.ts), never on the public fixtures: with the network trained on
 * the painter's faint strokes, 0.25 / 0.15 removes 81.7 % there against 80.9 % at 0.35 / 0.2 (SSIM 0.6966 / 0.6986).
 */
export const DETECT = {
  object: 0.25,
  /** Specks (components of at most `speckSize` pixels) are kept from a lower probability: a missed speck shows
   * as much as a missed scratch, while filling a few wrong pixels costs little. */
  speck: 0.15,
  speckSize: 6,
  /** A component of at most `crowdSize` pixels with more than `crowd` other kept ones centred within `crowdRadius`
   * px is texture (sunlit leaves, gravel, a screen), not dust: it stays. */
  crowdSize: 12,
  crowd: 3,
  crowdRadius: 8,
  /** …not counting those within `crowdInner` px (Chebyshev) of it: a strong speck lifts the line field of the
   * grain right around it, and those few pixels are its own halo, not a texture it belongs to. */
  crowdInner: 4,
  /** Borderline objects, from `soft` × their threshold up to it, are filled partly: the fill blended over the
   * original with a weight rising linearly from 0 to 1 across that band. Faint damage is mostly removed, while a
   * real structure taken wrongly keeps most of its contrast (a lower threshold, filling fully, cost SSIM). */
  soft: 0.6,
};

export type DamageDetection = {
  /** Pixels to fill: the damage and its flanks. */
  mask: Uint8Array;
  /** The damage itself. */
  core: Uint8Array;
  /** How much of the fill replaces each pixel of `mask` (1: all; below 1 for borderline objects and their flanks). */
  weight: Float32Array;
  /** Pixels the pixel network finds likely damage (p above OBJECT_FLOOR), kept or not: the sharpening leaves them
   * alone, so damage judged too doubtful to fill is at least not made to stand out more. */
  suspect: Uint8Array;
  /** The pixels taken as a kept scratch's twin (paths.ts TWIN): damage by rule, a line of nothing but the stroke's
   * sign, which the fill's learned correction (fill/learned.ts) would read as a structure under it. */
  twin: Uint8Array;
};

export type DetectionStages = {
  evidence: Evidence;
  pixelP: Float32Array;
  objects: DamageObjects;
  objectP: Float32Array;
  /** The same pixels with the pieces of straight lines joined (chains.ts), and their probabilities. */
  lines: DamageObjects;
  lineP: Float32Array;
};

/** The residual, its line field and the evidence of every candidate pixel. */
export async function detectionEvidence(L: Float32Array, w: number, h: number, median5?: Float32Array): Promise<{ evidence: Evidence; field: LineField }> {
  // The 9×9 median runs in libvips threads while the line field is computed.
  const wideMedian = inBackground(residualOf(L, w, h, undefined, 9));
  const residual = await residualOf(L, w, h, median5);
  const half = halfSums(residual.r, w, h);
  const field = lineField(half.plane, half.width, half.height, FIELD_HALF);
  // The ground activity (an 11×11 median) is read at the candidates alone.
  const evidence = measureEvidence(L, w, h, residual, await wideMedian, field);
  return { evidence: await withGroundActivity(evidence, w, h), field };
}

/** Every stage of the detection, for training and diagnostics (detectDamage keeps only the mask). */
export async function detectionStages(L: Float32Array, w: number, h: number, median5?: Float32Array): Promise<DetectionStages> {
  const { evidence } = await detectionEvidence(L, w, h, median5);
  const pixelP = pixelProbabilities(evidence.values);
  const likely = likelyPixels(evidence, pixelP, w, h);
  const objects = damageObjects(L, evidence, pixelP, w, h, false, likely);
  const objectP = objectProbabilities(objects.values);
  const lines = damageObjects(L, evidence, pixelP, w, h, true, likely);
  const lineP = objectProbabilities(lines.values);
  return { evidence, pixelP, objects, objectP, lines, lineP };
}

const objectValue = (objects: DamageObjects, k: number, name: (typeof OBJECT_FEATURE_NAMES)[number]) =>
  objects.values[k * OBJECT_FEATURE_COUNT + OBJECT_FEATURE_NAMES.indexOf(name)]!;

/**
 * Finds dust, scratches and fibres on an L* plane: pixel evidence (evidence.ts) scored by the pixel network,
 * likely pixels grouped into objects (objects.ts) scored by the object network, every kept scratch followed as
 * a path (paths.ts), and the mask made exact with the strokes' flanks.
 */
export async function detectDamage(L: Float32Array, w: number, h: number, median5?: Float32Array | Promise<Float32Array>): Promise<DamageDetection> {
  // Fine periodic textures are searched with the texture taken out (periodic.ts); elsewhere the plane is L. A
  // median still being made (libvips threads) is awaited after that search.
  const flat = withoutPeriodicTexture(L, w, h);
  const plane = flat ?? L;
  return decide(await detectionStages(plane, w, h, flat ? undefined : await median5), w, h);
}

/**
 * The damage mask from the detection's stages: the kept objects, their paths and flanks (read on the 9×9
 * residual). Components are judged alone and as parts of the straight lines they lie on: a pixel is kept when
 * either is, so joining pieces finds a broken scratch without losing what its pieces alone were found as.
 * Borderline components (DETECT.soft) are in the mask with a fill weight below 1.
 */
export function decide({ evidence, pixelP, objects, objectP, lines, lineP }: DetectionStages, w: number, h: number): DamageDetection {
  const core = new Uint8Array(w * h);
  const soft = new Float32Array(w * h);
  const twin = new Uint8Array(w * h);
  keepObjects(core, soft, twin, evidence, objects, objectP, w, h);
  keepObjects(core, soft, twin, evidence, lines, lineP, w, h);
  for (let i = 0; i < core.length; i++) {
    if (core[i]) soft[i] = 1;
  }
  const weight = weightedFlanks(soft, evidence.wide.r, evidence.wide.sigma, w, h);
  const mask = new Uint8Array(w * h);
  for (let i = 0; i < mask.length; i++) {
    if (weight[i]! > 0) mask[i] = 1;
  }
  const suspect = new Uint8Array(w * h);
  evidence.candidates.forEach((i, c) => {
    if (pixelP[c]! > OBJECT_FLOOR) suspect[i] = 1;
  });
  return { mask, core, weight, suspect, twin };
}

/** The fill weight of a borderline object of probability q against its threshold t: 0 at DETECT.soft × t, 1 at t. */
const softWeight = (q: number, t: number) => Math.min(1, Math.max(0, (q - DETECT.soft * t) / ((1 - DETECT.soft) * t)));

/**
 * Marks the kept objects of one description in `core` and follows the straight ones as paths; the borderline
 * ones get their fill weight in `soft` (their crowd counted among the borderline and kept ones).
 */
function keepObjects(core: Uint8Array, soft: Float32Array, twin: Uint8Array, evidence: Evidence, objects: DamageObjects, objectP: Float32Array, w: number, h: number): void {
  const threshold = objects.pixels.map((members) => (members.length <= DETECT.speckSize ? DETECT.speck : DETECT.object));
  const likely = objects.pixels.map((_, k) => objectP[k]! > threshold[k]!);
  const centre = centresOf(objects, w);
  const crowd = crowdCounts(centre, likely, w, h);
  const borderline = objects.pixels.map((_, k) => !likely[k] && objectP[k]! > DETECT.soft * threshold[k]!);
  const softCrowd = crowdCounts(centre, likely.map((kept, k) => kept || borderline[k]!), w, h);
  objects.pixels.forEach((members, k) => {
    const crowded = members.length <= DETECT.crowdSize && softCrowd[k]! > DETECT.crowd;
    if (borderline[k] && !crowded) {
      const weight = softWeight(objectP[k]!, threshold[k]!);
      for (const i of members) soft[i] = Math.max(soft[i]!, weight);
    }
    if (!likely[k]) return;
    if (members.length <= DETECT.crowdSize && crowd[k]! > DETECT.crowd) return;
    for (const i of members) core[i] = 1;
    const line = objectValue(objects, k, 'length') >= PATH.length && objectValue(objects, k, 'straightness') >= PATH.straightness;
    if (!line) return;
    followPath(core, evidence, objects, k, w, h);
    followTwin(core, evidence, objects, k, w, h, twin);
  });
}

/** Each component's centre: the mean position of its pixels, rounded (x, y pairs). */
function centresOf(objects: DamageObjects, w: number): Int32Array {
  const centre = new Int32Array(2 * objects.pixels.length);
  objects.pixels.forEach((members, k) => {
    let sx = 0;
    let sy = 0;
    for (let q = 0; q < members.length; q++) {
      const i = members[q]!;
      sx += i % w;
      sy += Math.floor(i / w);
    }
    centre[2 * k] = Math.round(sx / members.length);
    centre[2 * k + 1] = Math.round(sy / members.length);
  });
  return centre;
}

/**
 * For each component (centres from centresOf), how many likely ones have their centre within DETECT.crowdRadius
 * of its own (Chebyshev) and beyond DETECT.crowdInner. The likely centres are binned in cells of crowdRadius px,
 * so each component looks at the 3 × 3 cells around its own.
 */
function crowdCounts(centre: Int32Array, likely: boolean[], w: number, h: number): Int32Array {
  const { crowdRadius: radius, crowdInner: inner } = DETECT;
  const count = likely.length;
  const gw = Math.floor((w - 1) / radius) + 1;
  const gh = Math.floor((h - 1) / radius) + 1;
  const cellOf = (k: number) => Math.floor(centre[2 * k + 1]! / radius) * gw + Math.floor(centre[2 * k]! / radius);
  // The likely components of each cell, cell by cell (start[cell] … start[cell + 1]).
  const start = new Int32Array(gw * gh + 1);
  for (let k = 0; k < count; k++) if (likely[k]) start[cellOf(k) + 1]!++;
  for (let g = 0; g < gw * gh; g++) start[g + 1]! += start[g]!;
  const fill = start.slice(0, gw * gh);
  const items = new Int32Array(start[gw * gh]!);
  for (let k = 0; k < count; k++) if (likely[k]) items[fill[cellOf(k)]!++] = k;
  const out = new Int32Array(count);
  for (let k = 0; k < count; k++) {
    const x = centre[2 * k]!;
    const y = centre[2 * k + 1]!;
    let near = 0;
    for (let gy = Math.floor(Math.max(0, y - radius) / radius); gy <= Math.floor(Math.min(h - 1, y + radius) / radius); gy++) {
      for (let gx = Math.floor(Math.max(0, x - radius) / radius); gx <= Math.floor(Math.min(w - 1, x + radius) / radius); gx++) {
        const g = gy * gw + gx;
        for (let q = start[g]!; q < start[g + 1]!; q++) {
          const j = items[q]!;
          const dx = Math.abs(centre[2 * j]! - x);
          const dy = Math.abs(centre[2 * j + 1]! - y);
          if (dx <= radius && dy <= radius && (dx > inner || dy > inner)) near++;
        }
      }
    }
    out[k] = near;
  }
  return out;
}
