import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageInputError, inspectImage } from '../../../engines/image';
import { labToRgb, rgbToLab } from '../../../engines/shared';
import { propagateHints } from '../../../engines/image/hints';
import { restoreLuminance } from '../../../engines/image/restore/restore';

const ALL = ['jpeg', 'png', 'tiff'] as const;
const grey = (w: number, h: number, v: number) => sharp({ create: { width: w, height: h, channels: 3, background: { r: v, g: v, b: v } } });

describe('inspectImage (content sniffing and limits)', () => {
  it('accepts a PNG whatever it is called and reports its size', async () => {
    const png = await grey(40, 30, 128).png().toBuffer();
    expect(await inspectImage(png, ALL)).toEqual({ format: 'png', width: 40, height: 30 });
  });
  it('refuses text and GIF with the exact message, and respects the allowed list', async () => {
    await expect(inspectImage(Buffer.from('hello, I am not a photo'), ALL)).rejects.toThrow('Please upload a valid image file (JPEG, PNG, TIFF)');
    const gif = await grey(8, 8, 10).gif().toBuffer();
    await expect(inspectImage(gif, ALL)).rejects.toBeInstanceOf(ImageInputError);
    const tiff = await grey(8, 8, 10).tiff().toBuffer();
    await expect(inspectImage(tiff, ['jpeg', 'png'])).rejects.toThrow('Please upload a valid image file (JPEG, PNG)');
  });
  it('refuses a tiny PNG whose header claims 20000×20000 before decoding', async () => {
    const png = Buffer.from(await grey(4, 4, 0).png().toBuffer());
    png.writeUInt32BE(20000, 16);
    png.writeUInt32BE(20000, 20);
    await expect(inspectImage(png, ALL)).rejects.toThrow(/40 megapixels/);
  });
  it('refuses files over 15 MB', async () => {
    const big = Buffer.alloc(15 * 1024 * 1024 + 1);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await expect(inspectImage(big, ALL)).rejects.toThrow(/15 MB/);
  });
});

describe('Lab', () => {
  it('round-trips sRGB through Lab', () => {
    for (const [r, g, b] of [[0, 0, 0], [255, 255, 255], [200, 30, 90], [12, 180, 250], [128, 128, 128]]) {
      const [L, a, bb] = rgbToLab(r, g, b);
      expect(labToRgb(L, a, bb)).toEqual([r, g, b]);
    }
    expect(rgbToLab(255, 255, 255)[0]).toBeCloseTo(100, 3);
  });
});

describe('restoration', () => {
  it('removes a thin bright scratch and keeps flat regions flat and the edge sharp', async () => {
    const w = 200, h = 120;
    const L = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) L[y * w + x] = x < 100 ? 30 : 70;
    for (let y = 0; y < h; y++) L[y * w + 50] = 95; // scratch in the dark half
    const { L: out } = await restoreLuminance({ L, width: w, height: h, options: { workPixels: 1e6, denoise: 0.85, localContrast: 0, sharpen: 0.5, fade: 0, vignette: 0 } });
    for (let y = 5; y < h - 5; y++) expect(Math.abs(out[y * w + 50] - out[y * w + 40])).toBeLessThan(3);
    const row = 60 * w;
    expect(Math.abs(out[row + 20] - out[row + 30])).toBeLessThan(1);
    expect(out[row + 102] - out[row + 97]).toBeGreaterThan(35); // edge not smeared over 5 px
  });
});

describe('dust and scratch detection', () => {
  const w = 240, h = 160;
  const NO_EXTRAS = { workPixels: 1e6, denoise: 0, localContrast: 0, sharpen: 0, fade: 0, vignette: 0 };
  it('removes an isolated speck and a faint diagonal scratch but keeps a crowded texture of specks', async () => {
    const L = new Float32Array(w * h).fill(50);
    // Texture on the right: bright specks every 4 px (like sunlit leaves), which are detail.
    for (let y = 2; y < h; y += 4) for (let x = 162; x < w; x += 4) L[y * w + x] = 80;
    L[130 * w + 40] = L[130 * w + 41] = L[131 * w + 40] = L[131 * w + 41] = 85; // dust speck in a flat area
    for (let t = 0; t < 120; t++) L[(20 + t) * w + 30 + t] = 58; // faint 1-px diagonal scratch (+8 L*)
    const { L: out } = await restoreLuminance({ L, width: w, height: h, options: NO_EXTRAS });
    expect(out[130 * w + 40]).toBeLessThan(55);
    for (let t = 10; t < 110; t += 7) expect(out[(20 + t) * w + 30 + t], `scratch at t=${t}`).toBeLessThan(53);
    let kept = 0, specks = 0;
    for (let y = 2; y < h; y += 4) for (let x = 162; x < w; x += 4) { specks++; if (out[y * w + x] > 75) kept++; }
    expect(kept / specks).toBeGreaterThan(0.95);
  });
  it('undoes a fade in display value: blacks return to black, the middle grey keeps its place', async () => {
    const L = new Float32Array(w * h);
    for (let i = 0; i < L.length; i++) L[i] = 25 + (50 * (i % w)) / w; // faded ramp L* 25..75
    const { L: out } = await restoreLuminance({ L, width: w, height: h, options: { ...NO_EXTRAS, fade: 1 } });
    const row = 80 * w;
    expect(out[row + 1]).toBeLessThan(5);
    expect(Math.abs(out[row + w / 2] - L[row + w / 2])).toBeLessThan(1.5);
    expect(out[row + w - 2]).toBeGreaterThan(90);
  });
});

describe('colour hints', () => {
  it('propagate within a region and stop at an edge', () => {
    const w = 64, h = 32;
    const L = new Float32Array(w * h);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) L[y * w + x] = x < 32 ? 30 : 80;
    const base = { a: new Float32Array(w * h), b: new Float32Array(w * h), width: w, height: h };
    const out = propagateHints(L, w, h, base, [{ x: 0.1, y: 0.5, color: '#d02020' }]);
    expect(out.a[16 * w + 28]).toBeGreaterThan(30); // far side of the same region
    expect(Math.abs(out.a[16 * w + 36])).toBeLessThan(5); // across the edge
  });
});
