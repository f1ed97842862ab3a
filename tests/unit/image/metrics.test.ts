import { describe, expect, it } from 'vitest';
import { ciede2000, colourfulness, damageRemoval, detectionScore, psnr, ssim } from '../../support/image-metrics';

describe('fixture metrics', () => {
  it('CIEDE2000 reproduces Sharma et al. test pairs', () => {
    const pairs: [number, number, number, number, number, number, number][] = [
      [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425],
      [50, 3.1571, -77.2803, 50, 0, -82.7485, 2.8615],
      [50, -1.3802, -84.2814, 50, 0, -82.7485, 1.0],
      [50, 2.5, 0, 50, 0, -2.5, 4.3065],
      [50, 2.5, 0, 73, 25, -18, 27.1492],
      [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
      [22.7233, 20.0904, -46.694, 23.0331, 14.973, -42.5619, 2.0373],
      [2.0776, 0.0795, -1.135, 0.9033, -0.0636, -0.5514, 0.9082],
    ];
    for (const [L1, a1, b1, L2, a2, b2, de] of pairs) expect(ciede2000(L1, a1, b1, L2, a2, b2)).toBeCloseTo(de, 4);
  });
  it('SSIM of identical images is 1 and drops with noise; PSNR caps at 100', () => {
    const w = 40, h = 30;
    const a = new Uint8Array(w * h * 3).map((_, i) => (i * 7) % 251);
    expect(ssim(a, a, w, h)).toBeCloseTo(1, 10);
    expect(psnr(a, a)).toBe(100);
    const b = a.map((v, i) => Math.min(255, v + (i % 5) * 9));
    expect(ssim(a, b, w, h)).toBeLessThan(0.99);
  });
  it('colourfulness is 0 for grey and positive for colour', () => {
    expect(colourfulness(new Uint8Array([10, 10, 10, 200, 200, 200]))).toBe(0);
    expect(colourfulness(new Uint8Array([255, 0, 0, 0, 0, 255]))).toBeGreaterThan(50);
  });
  it('damage removal: the truth scores 100 %, the input 0 %, a half-faded scratch about 50 %', () => {
    const w = 60, h = 40, n = w * h;
    const rgb = (f: (x: number, y: number) => number) => {
      const out = new Uint8Array(n * 3);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) out.fill(f(x, y), (y * w + x) * 3, (y * w + x) * 3 + 3);
      return out;
    };
    const truth = rgb((x, y) => 60 + x + ((x * 7 + y * 3) % 5));
    const mask = new Uint8Array(n);
    for (let y = 5; y < 35; y++) mask[y * w + 30] = 255;
    const scratched = (k: number) => rgb((x, y) => 60 + x + ((x * 7 + y * 3) % 5) + (mask[y * w + x] ? k : 0));
    const input = scratched(80);
    expect(damageRemoval(truth, input, truth, mask, w, h).removal).toBeCloseTo(1, 6);
    expect(damageRemoval(input, input, truth, mask, w, h).removal).toBeCloseTo(0, 6);
    expect(damageRemoval(scratched(40), input, truth, mask, w, h).removal).toBeCloseTo(0.5, 1);
  });
  it('detector precision and recall count hits within 1 px of damage (mask ≥ 128)', () => {
    const w = 20, h = 10, mask = new Uint8Array(w * h), det = new Uint8Array(w * h);
    for (let y = 0; y < h; y++) mask[y * w + 5] = 200;
    mask[3 * w + 15] = 60; // faint damage: not damage for precision and recall
    for (let y = 0; y < 5; y++) det[y * w + 6] = 1; // beside the scratch: hits
    det[3 * w + 15] = 1; det[8 * w + 12] = 1; // on faint damage, and a false alarm
    const s = detectionScore(det, mask, w, h);
    expect(s.precision).toBeCloseTo(5 / 7);
    expect(s.precisionAnyDamage).toBeCloseTo(6 / 7);
    expect(s.recall).toBeCloseTo(6 / 10); // rows 0–4, and row 5 is within 1 px of row 4's detection
    expect(s.flaggedPct).toBeCloseTo((100 * 7) / 200);
  });
});
