import { DIRECTIONS, damageFeatures, type DamageFeatures } from './damage-features';
import { damageObjects, OBJECT_FEATURE_COUNT, OBJECT_FEATURE_NAMES, type DamageObjects } from './damage-objects';
import { objectProbabilities, pixelProbabilities } from './damage-model';

/** Decision thresholds of the detector (object probability to keep a component; path following). */
export const DETECT = {
  object: 0.4,
  /** Specks (components of at most `speckSize` pixels) are kept from a lower probability: a missed speck shows
   * as much as a missed scratch, while filling a few wrong pixels costs little. */
  speck: 0.15,
  speckSize: 6,
  /** Long, thin, straight components are kept from `line`: a film scratch that long is rarely anything else,
   * and the object network, trained mostly on shorter strokes, is unsure of them. */
  line: 0.2,
  lineLength: 30,
  lineWidth: 4,
  lineStraightness: 0.97,
  /** A kept component this long and this straight is a scratch: followed beyond its ends. */
  pathLength: 12,
  pathStraightness: 0.9,
  /** Steps along a scratch without support before following stops (a gap it may cross). */
  pathGap: 8,
  /** Line evidence (in grain units of the 21-px line mean) that supports a faint stretch. */
  pathSupport: 1.5,
  rim: 1,
  /** A component of at most `crowdSize` pixels with more than `crowd` others centred within `crowdRadius` px is texture. */
  crowdSize: 12,
  crowd: 3,
  crowdRadius: 8,
};

export type DamageDetection = {
  /** Pixels to fill: the damage and a one-pixel rim. */
  mask: Uint8Array;
  /** The damage itself. */
  core: Uint8Array;
  scratches: number;
  specks: number;
};

/**
 * Finds dust, scratches and fibres on an L* plane: pixel evidence (damage-features.ts) scored by the pixel
 * network, likely pixels grouped into objects scored by the object network, and every kept scratch followed
 * as a path along its direction, so a faint or broken stretch between strong ones goes too.
 */
export async function detectDamage(L: Float32Array, w: number, h: number, median5?: Float32Array): Promise<DamageDetection> {
  const f = await damageFeatures(L, w, h, median5);
  const p = pixelProbabilities(f.values);
  const objects = damageObjects(f, p, w, h);
  const q = objectProbabilities(objects.values);
  const core = new Uint8Array(w * h);
  let scratches = 0, specks = 0;
  const value = (k: number, name: (typeof OBJECT_FEATURE_NAMES)[number]) => objects.values[k * OBJECT_FEATURE_COUNT + OBJECT_FEATURE_NAMES.indexOf(name)]!;
  const threshold = (k: number, size: number) => {
    if (size <= DETECT.speckSize) return DETECT.speck;
    const line = value(k, 'length') >= DETECT.lineLength && value(k, 'width') <= DETECT.lineWidth && value(k, 'straightness') >= DETECT.lineStraightness;
    return line ? DETECT.line : DETECT.object;
  };
  const likely = objects.pixels.map((members, k) => q[k]! > threshold(k, members.length));
  const crowd = crowdCounts(objects, likely, w, h);
  objects.pixels.forEach((members, k) => {
    if (!likely[k]) return;
    // Small things in a crowd of their like are texture (sunlit leaves, gravel, a screen), not dust.
    if (members.length <= DETECT.crowdSize && crowd[k]! > DETECT.crowd) return;
    for (const i of members) core[i] = 1;
    if (value(k, 'length') >= DETECT.pathLength && value(k, 'straightness') >= DETECT.pathStraightness) {
      scratches++;
      followPath(core, f, objects, k, w, h);
    } else specks++;
  });
  const mask = core.slice();
  for (let r = 0; r < DETECT.rim; r++) grow(mask, w, h);
  return { mask, core, scratches, specks };
}

/** For each component, how many other likely-damage components have their centre within DETECT.crowdRadius of its own. */
function crowdCounts(objects: DamageObjects, likely: boolean[], w: number, h: number): Int32Array {
  const centre = new Int32Array(objects.pixels.length), S = new Int32Array((w + 1) * (h + 1));
  objects.pixels.forEach((members, k) => {
    let sx = 0, sy = 0;
    for (const i of members) { sx += i % w; sy += Math.floor(i / w); }
    const x = Math.round(sx / members.length), y = Math.round(sy / members.length);
    centre[k] = y * w + x;
    if (likely[k]) S[(y + 1) * (w + 1) + x + 1]!++;
  });
  for (let y = 1; y <= h; y++) for (let x = 1; x <= w; x++) S[y * (w + 1) + x]! += S[(y - 1) * (w + 1) + x]! + S[y * (w + 1) + x - 1]! - S[(y - 1) * (w + 1) + x - 1]!;
  const r = DETECT.crowdRadius;
  return centre.map((c, k) => {
    const x = c % w, y = (c - x) / w;
    const x0 = Math.max(0, x - r), y0 = Math.max(0, y - r), x1 = Math.min(w - 1, x + r), y1 = Math.min(h - 1, y + r);
    return S[(y1 + 1) * (w + 1) + x1 + 1]! - S[y0 * (w + 1) + x1 + 1]! - S[(y1 + 1) * (w + 1) + x0]! + S[y0 * (w + 1) + x0]! - (likely[k] ? 1 : 0);
  });
}

/** Pixel noise of the plane: robust spread of the difference to the mean of the 4 neighbours (≤ 100k samples). */
export function pixelNoise(L: Float32Array, w: number, h: number): number {
  const step = Math.max(1, Math.floor(Math.sqrt(((w - 2) * (h - 2)) / 100_000)));
  const s: number[] = [];
  for (let y = 1; y < h - 1; y += step) for (let x = 1 + (y % step); x < w - 1; x += step) {
    const i = y * w + x;
    s.push(Math.abs(L[i]! - (L[i - 1]! + L[i + 1]! + L[i - w]! + L[i + w]!) / 4));
  }
  const sorted = Float32Array.from(s).sort();
  return (1.4826 * (sorted[sorted.length >> 1] || 1e-3)) / Math.sqrt(1.25);
}

/** Adds the 8 neighbours of every set pixel. */
export function grow(mask: Uint8Array, w: number, h: number): void {
  const prev = mask.slice();
  for (let i = 0; i < prev.length; i++) {
    if (!prev[i]) continue;
    const x = i % w, y = (i - x) / w;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const xx = x + dx, yy = y + dy;
      if (xx >= 0 && yy >= 0 && xx < w && yy < h) mask[yy * w + xx] = 1;
    }
  }
}

/** Mean residual along 21 px of direction `d` through (x, y): the line evidence at one point. */
function lineEvidence(r: Float32Array, w: number, h: number, x: number, y: number, d: readonly [number, number]): number {
  const step = Math.hypot(d[0], d[1]), half = Math.max(1, Math.round(10 / step));
  let s = 0, c = 0;
  for (let k = -half; k <= half; k++) {
    const xx = x + k * d[0], yy = y + k * d[1];
    if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
    s += r[yy * w + xx]!; c++;
  }
  return c ? s / c : 0;
}

/**
 * Follows scratch k from both ends along its axis: at each step, the best of the pixels across the path
 * (±1 px) that stands out with the scratch's sign and keeps the line evidence is taken; up to `pathGap`
 * steps without support are crossed, and the pixels crossed are kept only when support resumes.
 */
function followPath(core: Uint8Array, f: DamageFeatures, objects: DamageObjects, k: number, w: number, h: number): void {
  const members = objects.pixels[k]!, r = f.residual, sigma = f.sigma;
  let sign = 0;
  for (const i of members) sign += r[i]! > 0 ? 1 : -1;
  sign = sign >= 0 ? 1 : -1;
  const ax = objects.axis[2 * k]!, ay = objects.axis[2 * k + 1]!;
  // The integer direction closest to the axis, for the line evidence.
  let dir = DIRECTIONS[0]!, bestCos = -1;
  for (const d of DIRECTIONS) { const c = Math.abs((d[0] * ax + d[1] * ay) / Math.hypot(d[0], d[1])); if (c > bestCos) { bestCos = c; dir = d; } }
  // Ends: the members farthest along the axis in each direction.
  let lo = Infinity, hi = -Infinity, loI = members[0]!, hiI = members[0]!;
  for (const i of members) { const t = (i % w) * ax + Math.floor(i / w) * ay; if (t < lo) { lo = t; loI = i; } if (t > hi) { hi = t; hiI = i; } }
  const lineFloor = DETECT.pathSupport * sigma / Math.sqrt(5);
  for (const [start, sx, sy] of [[hiI, ax, ay], [loI, -ax, -ay]] as const) {
    let x = start % w, y = Math.floor(start / w), fx = x, fy = y, missed = 0;
    const pending: number[] = [];
    for (let stepN = 0; stepN < Math.max(w, h); stepN++) {
      fx += sx; fy += sy;
      const cx = Math.round(fx), cy = Math.round(fy);
      if (cx < 0 || cy < 0 || cx >= w || cy >= h) break;
      // The best supported pixel across the path.
      let best = -1, bestV = 0;
      for (let o = -1; o <= 1; o++) {
        const xx = Math.round(cx - o * sy), yy = Math.round(cy + o * sx);
        if (xx < 0 || yy < 0 || xx >= w || yy >= h) continue;
        const v = sign * r[yy * w + xx]!;
        if (v > bestV) { bestV = v; best = yy * w + xx; }
      }
      const supported = best >= 0 && bestV > sigma && sign * lineEvidence(r, w, h, best % w, Math.floor(best / w), dir) > lineFloor;
      if (supported) {
        for (const i of pending) core[i] = 1;
        pending.length = 0;
        core[best] = 1;
        missed = 0;
        // Re-centre on the scratch so a slightly curved or wavy one is kept.
        fx = best % w; fy = Math.floor(best / w);
        x = fx; y = fy;
      } else {
        if (++missed > DETECT.pathGap) break;
        pending.push(cy * w + cx);
      }
    }
  }
}
