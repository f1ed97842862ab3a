import { pixelNoise } from '../detect/residual';
import { grow, setScanner, bilinearReach, bilinearSampler, refreshDownsample } from '../../shared';
import { addGrain } from './grain';
import { continueStructures } from './directional';
import { inpaintPatches, type PatchConfidence } from './patches';
import { correctFill } from './learned';

// Filling the damage found: rebuilt from the texture around it (patches.ts), structures with a clear direction
// continued across the gap (directional.ts), corrected by what the input under a semi-transparent stroke still
// shows (learned.ts), and the photo's grain put back so no smooth stripe shows.
// Borderline damage is filled partly: the fill blended over the original by the detector's weight.

/** Share of a working damage pixel from which a full-resolution pixel is in the damage's band. */
const BAND = 0.2;
/** Patch search window of the working-size fill of a photo larger than the working plane: half the usual reach
 * measured as well on the fixtures scanned at 3× (removal of the seven photos above the working size 89.5 against
 * 89.7 %) at a quarter of the search (a 4 MP photo's fill about 800 → 320 ms). */
const LARGE_WINDOW = 7;

export type FillInput = {
  /** Full-resolution L* (W × H), filled in place. */
  out: Float32Array;
  W: number;
  H: number;
  /** The working plane (w × h; `out` itself when the sizes agree), filled too: it guides the denoise. When it is
   * smaller, it becomes the filled `out` made small. */
  working: Float32Array;
  w: number;
  h: number;
  /** Pixels to fill, at the working size. */
  damage: Uint8Array;
  /** How much of the fill replaces each damage pixel (absent: all of it); the rest stays the original. */
  weight?: Float32Array;
  /** The working plane's pixel noise. */
  grain: number;
  /** The working plane is a scan finer than its print (detect/find.ts isOversampled): its strokes and grain are wider
   * than those the learned correction was trained on, so it is left out. */
  oversampled?: boolean;
  /** Pixels the detector took as a scratch's twin (detect/detector.ts): the learned correction leaves them. */
  twin?: Uint8Array;
  /** `damage` already reaches a pixel beyond the strokes (detect/find.ts, a search on a smaller copy). */
  grown?: boolean;
};

/** Fills the damage; returns how many working pixels it covered. */
export function fillDamage({ out, W, H, working, w, h, damage, weight, grain, oversampled = false, twin, grown = false }: FillInput): number {
  let count = 0;
  for (let i = 0; i < damage.length; i++) count += damage[i]!;
  if (!count) return 0;
  if (w === W && h === H) {
    const before = working.slice();
    const confidence = fillFromSurroundings(working, before, w, h, damage);
    if (!oversampled) correctFill(before, working, damage, w, h, grain, confidence, twin);
    addGrain(working, damage, grain);
    if (weight) blendFill(working, before, damage, weight);
    if (working !== out) for (let i = 0; i < out.length; i++) if (damage[i]) out[i] = working[i]!;
    return count;
  }
  // A photo larger than the working plane is filled there, as a photo of that size is (patches, structures
  // continued, the learned correction), and the fill is brought up into the damage's band at full resolution
  // with the photo's own grain. A patch search at full resolution (the earlier way) left 15.8 % of
  // the damage of the fixtures scanned at 3× where this fill leaves 9.6 %: its window was too small for strokes
  // several pixels wide, and it had no correction.
  const { fine, partial } = fullResolutionDamage(W, H, damage, w, h, weight);
  const kept = Float32Array.from(partial.index, (i) => out[i]!);
  // Filled on a copy: the working plane stays the photo made small until it is refreshed from the fill below.
  const filled = working.slice();
  // The band's bilinear reads reach a working pixel beyond the damage: that pixel is filled too, unless the mask
  // was grown already (a search on a smaller copy: growing it again measured worse on the fixtures scanned at 3×,
  // removal 90.4 → 89.1 %).
  const fillMask = grown ? damage : damage.slice();
  if (!grown) grow(fillMask, w, h);
  const confidence = fillFromSurroundings(filled, working, w, h, fillMask, LARGE_WINDOW);
  if (!oversampled) correctFill(working, filled, fillMask, w, h, grain, confidence, twin);
  const sample = bilinearSampler(w, h, W, H);
  const nextFine = setScanner(fine);
  for (let i = nextFine(0); i < fine.length; i = nextFine(i + 1)) {
    const X = i % W;
    out[i] = sample(filled, X, (i - X) / W);
  }
  addGrain(out, fine, pixelNoise(out, W, H));
  partial.index.forEach((i, k) => {
    out[i] = partial.weight[k]! * out[i]! + (1 - partial.weight[k]!) * kept[k]!;
  });
  // The working plane guides the denoise of the full-size one: it is the filled photo made small, so the guide
  // carries no trace of what was filled (a guide filled otherwise, with the median, put faint scratches back). It
  // was the photo made small, and the fill changed only the pixels of `fine`.
  refreshDownsample(out, W, H, working, w, h, fine);
  return count;
}

/**
 * The fill from the surroundings, before any correction: patches, then the structures with a clear direction
 * continued (in place on `plane`; `original` is the plane before it). Returns what the patch fill says of its
 * own pixels. The fill's correction is trained on exactly this (scripts/training/train-fill.ts).
 */
export function fillFromSurroundings(plane: Float32Array, original: Float32Array, w: number, h: number, mask: Uint8Array, window?: number): PatchConfidence {
  const confidence = { spread: new Float32Array(w * h), match: new Float32Array(w * h) };
  inpaintPatches(plane, w, h, mask, { confidence, window });
  continueStructures(plane, original, w, h, mask);
  return confidence;
}

/** Keeps (1 − weight) of the original under each partly filled pixel. */
function blendFill(filled: Float32Array, before: Float32Array, damage: Uint8Array, weight: Float32Array): void {
  for (let i = 0; i < damage.length; i++) {
    if (!damage[i] || weight[i]! >= 1) continue;
    filled[i] = weight[i]! * filled[i]! + (1 - weight[i]!) * before[i]!;
  }
}

/** Full-resolution pixels filled only partly, and their weights. */
type Partial = { index: Int32Array; weight: Float32Array };

/**
 * The damage at full resolution (no full-size float planes): the pixels within the upsampled band of the working
 * damage (the whole band: the soft edges of a stroke made wider by the enlargement are damage too). Only the
 * pixels that read a damaged working pixel are looked at. A pixel's fill weight is the mean weight of the working
 * damage around it.
 */
function fullResolutionDamage(W: number, H: number, damage: Uint8Array, w: number, h: number, weight?: Float32Array): { fine: Uint8Array; partial: Partial } {
  const df = Float32Array.from(damage);
  const sample = bilinearSampler(w, h, W, H);
  const reach = bilinearReach(w, h, W, H);
  const fine = new Uint8Array(W * H);
  const index: number[] = [];
  const weights: number[] = [];
  // The damaged columns of each working row, in order.
  const nextDamaged = setScanner(damage);
  const columns = Array.from({ length: h }, (_, y) => {
    const cols: number[] = [];
    const end = (y + 1) * w;
    for (let x = nextDamaged(y * w, end); x < end; x = nextDamaged(x + 1, end)) cols.push(x - y * w);
    return cols;
  });
  for (let Y = 0; Y < H; Y++) {
    const [y0, y1] = reach.rowsOf(Y);
    const a = columns[y0]!;
    const b = y1 === y0 ? [] : columns[y1]!;
    // Both rows' columns merged in order, each one's readers visited once, left to right (raster order).
    let visitedTo = 0;
    for (let i = 0, j = 0; i < a.length || j < b.length;) {
      const c = j >= b.length || (i < a.length && a[i]! <= b[j]!) ? a[i++]! : b[j++]!;
      const [from, to] = reach.readers(c);
      for (let X = Math.max(from, visitedTo); X < to; X++) {
        const du = sample(df, X, Y);
        if (du <= BAND) continue;
        fine[Y * W + X] = 1;
        const share = weight ? sample(weight, X, Y) / du : 1;
        if (share >= 1) continue;
        index.push(Y * W + X);
        weights.push(share);
      }
      visitedTo = Math.max(visitedTo, to);
    }
  }
  return { fine, partial: { index: Int32Array.from(index), weight: Float32Array.from(weights) } };
}
