import { describe, expect, it } from 'vitest';
import { fillDamage } from '../../../engines/image/fill/fill';
import { downsample } from '../../../engines/shared';

// A photo larger than the working plane (a 4–12 MP scan) is filled on the working plane and the fill brought up
// into the damage's band at full resolution (fill/fill.ts). A stroke several pixels wide at full size is then as
// easy to fill as a stroke of half its width on a photo of the working size.
const W = 160;
const H = 160;
const w = 80;
const h = 80;
/** Rows of the stroke at full size: a light horizontal band 10 px wide. */
const BAND = { from: 75, to: 85 };

/** Soft diagonal stripes (period 8 px at full size) with a fixed pseudo-random grain. */
function texture(): Float32Array {
  const L = new Float32Array(W * H);
  let seed = 7;
  const noise = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32 - 0.5) * 2;
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) L[y * W + x] = 50 + 12 * Math.sin((2 * Math.PI * (x + y)) / 8) + noise();
  return L;
}

function damaged() {
  const clean = texture();
  const photo = clean.slice();
  for (let y = BAND.from; y < BAND.to; y++) for (let x = 0; x < W; x++) photo[y * W + x] = 95;
  // The damage at the working size: every working pixel the band touches.
  const damage = new Uint8Array(w * h);
  for (let y = Math.floor(BAND.from / 2); y < Math.ceil(BAND.to / 2); y++) for (let x = 0; x < w; x++) damage[y * w + x] = 1;
  return { clean, photo, damage };
}

const meanError = (a: Float32Array, b: Float32Array, rows: [number, number]) => {
  let sum = 0;
  let n = 0;
  for (let y = rows[0]; y < rows[1]; y++) for (let x = 10; x < W - 10; x++, n++) sum += Math.abs(a[y * W + x]! - b[y * W + x]!);
  return sum / n;
};

describe('the fill of a photo larger than the working plane', () => {
  it('removes a stroke 10 px wide across a texture, leaves the rest of the photo, and refreshes the working plane', () => {
    const { clean, photo, damage } = damaged();
    const out = photo.slice();
    const working = downsample(photo, W, H, w, h);
    fillDamage({ out, W, H, working, w, h, damage, grain: 1 });
    // The band was 45 L* above the texture; filled, it is within the texture's own swing of the clean photo.
    expect(meanError(photo, clean, [BAND.from, BAND.to])).toBeGreaterThan(40);
    expect(meanError(out, clean, [BAND.from, BAND.to])).toBeLessThan(6);
    // Pixels beyond the band's reach are the photo's own.
    for (const y of [0, 40, 70, 90, 120, 159]) for (const x of [0, 33, 80, 159]) expect(out[y * W + x]).toBe(photo[y * W + x]);
    // The working plane is the filled photo made small (it guides the denoise).
    const small = downsample(out, W, H, w, h);
    for (let i = 0; i < small.length; i++) expect(working[i]).toBeCloseTo(small[i]!, 3);
  });
});
