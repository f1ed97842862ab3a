import path from 'node:path';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtInColorizer, restoreAndColorize } from '../../../engines/image';
import { rgbToLab } from '../../../engines/shared';
import { onnxColorizer, onnxModelAvailable } from '../../../engines/image/onnx';
import { modelFolder, tinyColorizerModel } from '../../support/tiny-onnx';

// The whole restoration with a local ONNX colorizer (its contract is unit-tested in tests/unit/image/onnx.test.ts).
// The real onnxruntime-node runs tiny models written by tests/support/tiny-onnx.ts. Their output is a
// known function of the input: a = k × (normalised L* averaged over 4×4 blocks), b = c, at S/4 × S/4
// like Zhang et al.'s ECCV16 network. With the documented contract, input (L* − 50) / 100 and output ×110:
//   a* = 110·k·(L* − 50)/100,  b* = 110·c.

const { dir, file: modelFile } = modelFolder();
afterEach(() => vi.unstubAllEnvs());
describe('builtInColorizer and the pipeline with a local model', () => {
  it('picks onnx when COLORIZER_ONNX_MODEL is an existing file, exemplar otherwise', () => {
    const p = modelFile(tinyColorizerModel({ k: 1, c: 0 }));
    expect(builtInColorizer({ COLORIZER_ONNX_MODEL: p }).id).toBe('onnx');
    expect(onnxModelAvailable({ COLORIZER_ONNX_MODEL: p })).toBe(true);
    expect(builtInColorizer({ COLORIZER_ONNX_MODEL: path.join(dir, 'absent.onnx') }).id).toBe('exemplar');
    expect(builtInColorizer({ COLORIZER_ONNX_MODEL: dir }).id).toBe('exemplar'); // a directory is not a model
  });

  it('colours bright and dark regions as the model says, the colour edge on the full-resolution luminance edge', async () => {
    // 1000×750 grey photo: dark (sRGB 90) left of x = E, light (150) right of it; a black/white strip at
    // the top pins the tonal range so restoration keeps the two greys mid-tone (in gamut for the colours).
    // The chroma plane is 320×240 (sd-xl), so E = 504 falls inside a chroma pixel (504 / 3.125 = 161.3);
    // E is on a JPEG 8-pixel block boundary so compression does not ring across it.
    const W = 1000, H = 750, E = 504;
    const raw = Buffer.alloc(W * H * 3);
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) raw.fill(y < 80 ? (x < E ? 0 : 255) : x < E ? 90 : 150, (y * W + x) * 3, (y * W + x) * 3 + 3);
    const photo = await sharp(raw, { raw: { width: W, height: H, channels: 3 } }).png().toBuffer();
    vi.stubEnv('REPLICATE_API_TOKEN', '');
    vi.stubEnv('COLORIZER_ONNX_MODEL', modelFile(tinyColorizerModel({ k: 1, c: 0.1 })));
    vi.stubEnv('COLORIZER_ONNX_SIZE', '256');
    const res = await restoreAndColorize(photo, { model: 'sd-xl' }); // colorizer chosen from the environment
    expect(res.tone).toBe('grey');
    expect(res.method).toBe('restoration + onnx colorization');
    const px = await sharp(res.image).raw().toBuffer();
    const lab = (x: number, y = 400) => rgbToLab(px[(y * W + x) * 3], px[(y * W + x) * 3 + 1], px[(y * W + x) * 3 + 2]);

    const [Ld, ad, bd] = lab(200), [Lb, ab, bb] = lab(800);
    expect(Ld).toBeLessThan(45);
    expect(Lb).toBeGreaterThan(55);
    expect(ad).toBeLessThan(-8); // dark → negative a*, as a = k·(L* − 50)/100 says
    expect(ab).toBeGreaterThan(8); // light → positive a*
    expect(ad).toBeCloseTo(1.1 * (Ld - 50), -0.5); // within ±1.6
    expect(ab).toBeCloseTo(1.1 * (Lb - 50), -0.5);
    for (const b of [bd, bb]) expect(Math.abs(b - 11)).toBeLessThan(2); // b* = 110 × 0.1 everywhere
    // The colour changes where the luminance does, at full resolution: most of the a* step happens
    // within 3 pixels, and within 12 pixels of the edge each side has (nearly) its own colour.
    // (Measured against the colours 16 px either side: the lens fall-off correction brightens
    // x = 200 and x = 800 a little more than the centre.)
    expect(lab(E + 1)[1] - lab(E - 2)[1]).toBeGreaterThan(0.75 * (lab(E + 16)[1] - lab(E - 16)[1]));
    const [aLeft, aRight] = [lab(E - 16)[1], lab(E + 16)[1]];
    for (let x = E - 12; x <= E - 2; x++) expect(Math.abs(lab(x)[1] - aLeft), `a* at x = ${x}`).toBeLessThan(3.5);
    for (let x = E + 1; x <= E + 12; x++) expect(Math.abs(lab(x)[1] - aRight), `a* at x = ${x}`).toBeLessThan(3.5);
  });

  it('falls back to the exemplar colorizer when the configured model fails, and says so', async () => {
    const bad = modelFile(Buffer.from([0xde, 0xad, 0xbe, 0xef]));
    const photo = await sharp({ create: { width: 120, height: 90, channels: 3, background: { r: 128, g: 128, b: 128 } } }).jpeg().toBuffer();
    const res = await restoreAndColorize(photo, { model: 'sd-v1.5', colorizer: onnxColorizer({ modelPath: bad, size: 32 }) });
    expect(res.method).toBe('restoration + exemplar colorization (fallback: The local colorization model could not be loaded.)');
    expect(await sharp(res.image).metadata()).toMatchObject({ width: 120, height: 90 });
  });
});
