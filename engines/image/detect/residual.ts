import sharp from 'sharp';

// What a median cannot explain: the residual of an L* plane against its 5×5 median, where every thin stroke
// stands out (a 1–3 px scratch, a speck, a fibre) and broad shapes do not, and the grain's spread in it.

/**
 * Median of a plane through libvips on an 8-bit copy of `steps` steps per unit (for L*, 2.55: finer than any
 * damage; values outside 0 … 255 / steps are clamped).
 */
export async function medianPlane(src: Float32Array, w: number, h: number, size: number, steps = 2.55): Promise<Float32Array> {
  const u8 = new Uint8Array(w * h);
  for (let i = 0; i < u8.length; i++) u8[i] = toStep(src[i]! * steps);
  return medianOfSteps(u8, w, h, size, steps);
}

/**
 * A value in steps as medianPlane keeps it: Math.round(v) clamped to 0 … 255 (NaN: 0, as the 8-bit store makes
 * it). Rounded as (v + 0.5) truncated, which is Math.round for v from 0.5 on (v + 0.5 rounds up to an integer
 * only when it crosses a power of two, which is then its floor anyway), without Math.round's cost; below 0.5 it
 * is 0 (0.5 − 2⁻⁵⁴ + 0.5 would round up to 1).
 */
export const toStep = (v: number) => (v > 0 ? (v < 255 ? (v < 0.5 ? 0 : (v + 0.5) | 0) : 255) : 0);

/** medianPlane of a plane already in steps (`u8`, see toStep). */
export async function medianOfSteps(u8: Uint8Array, w: number, h: number, size: number, steps: number): Promise<Float32Array> {
  const out = await sharp(u8, { raw: { width: w, height: h, channels: 1 } }).median(size).toColourspace('b-w').raw().toBuffer();
  // Each of the 256 steps back in units, as a float: a table instead of a division per pixel.
  const value = new Float32Array(256);
  for (let k = 0; k < 256; k++) value[k] = k / steps;
  const med = new Float32Array(w * h);
  for (let i = 0; i < med.length; i++) med[i] = value[out[i]!]!;
  return med;
}

/** 1.4826 · median |x| over a strided sample: the spread of the grain, robust to the damage itself. */
export function robustSpread(x: Float32Array): number {
  const step = Math.max(1, Math.floor(x.length / 200_000));
  const s = new Float32Array(Math.ceil(x.length / step));
  let finite = true;
  for (let i = 0, j = 0; i < x.length; i += step) {
    const v = Math.abs(x[i]!);
    finite &&= v === v;
    s[j] = v;
    j++;
  }
  return Math.max(0.05, 1.4826 * (finite ? selectNonNegative(s, s.length >> 1) : select(s, s.length >> 1)));
}

/**
 * The k-th smallest value of `a`, every value of which is a non-negative float (no NaN, no −0), by its bits: such
 * floats order as their bit patterns do, so two counting passes over the high and the low 16 bits find it. The
 * same value as select, without reordering `a`.
 */
export function selectNonNegative(a: Float32Array, k: number): number {
  if (k < 0 || k >= a.length) return select(a, k);
  const bits = new Uint32Array(a.buffer, a.byteOffset, a.length);
  const counts = new Int32Array(1 << 16);
  for (let i = 0; i < bits.length; i++) counts[bits[i]! >>> 16]!++;
  let below = 0;
  let high = 0;
  while (below + counts[high]! <= k) below += counts[high++]!;
  counts.fill(0);
  for (let i = 0; i < bits.length; i++) if (bits[i]! >>> 16 === high) counts[bits[i]! & 0xffff]!++;
  let low = 0;
  while (below + counts[low]! <= k) below += counts[low++]!;
  return new Float32Array(new Uint32Array([((high << 16) | low) >>> 0]).buffer)[0]!;
}

/** The k-th smallest value of `a` (Hoare's quickselect, reorders `a` in place). */
export function select(a: Float32Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (hi > lo) {
    const pivot = a[(lo + hi) >> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k] ?? 0;
}

/** Pixel noise of a plane: robust spread of the difference to the mean of the 4 neighbours (≤ 100k samples). */
export function pixelNoise(L: Float32Array, w: number, h: number): number {
  const step = Math.max(1, Math.floor(Math.sqrt(((w - 2) * (h - 2)) / 100_000)));
  // The samples as floats, and their median by selection (the value a sort would put in the middle).
  const s = new Float32Array(Math.max(0, Math.ceil((h - 2) / step)) * Math.max(0, Math.ceil((w - 2) / step)));
  let n = 0;
  let finite = true;
  for (let y = 1; y < h - 1; y += step) {
    for (let x = 1 + (y % step); x < w - 1; x += step) {
      const i = y * w + x;
      const v = Math.abs(L[i]! - (L[i - 1]! + L[i + 1]! + L[i - w]! + L[i + w]!) / 4);
      finite &&= v === v;
      s[n++] = v;
    }
  }
  const samples = s.subarray(0, n);
  // A NaN sorts last, where selection would not put it: sorted then.
  const median = finite ? selectNonNegative(samples, n >> 1) : samples.sort()[n >> 1];
  return (1.4826 * (median || 1e-3)) / Math.sqrt(1.25);
}

/** The residual against a median (5×5 for thin strokes; 9×9 for a stroke's whole width) and its spread. */
export type Residual = { median: Float32Array; r: Float32Array; sigma: number };

export async function residualOf(L: Float32Array, w: number, h: number, median?: Float32Array, size = 5): Promise<Residual> {
  const med = median ?? (await medianPlane(L, w, h, size));
  const r = new Float32Array(w * h);
  for (let i = 0; i < r.length; i++) r[i] = L[i]! - med[i]!;
  return { median: med, r, sigma: robustSpread(r) };
}
