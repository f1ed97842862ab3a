import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { ColorizerError, createColorizer, restoreAndColorize } from '../../../netlify/lib/image';
import { rgbToLab } from '../../../netlify/lib/image/lab';
import { onnxColorizer, onnxModelAvailable } from '../../../netlify/lib/image/onnx';
import { tinyColorizerModel } from '../../support/tiny-onnx';

// The real onnxruntime-node runs tiny models written by tests/support/tiny-onnx.ts. Their output is a
// known function of the input: a = k × (normalised L* averaged over 4×4 blocks), b = c, at S/4 × S/4
// like Zhang et al.'s ECCV16 network. With the documented contract, input (L* − 50) / 100 and output ×110:
//   a* = 110·k·(L* − 50)/100,  b* = 110·c.

const dir = mkdtempSync(path.join(tmpdir(), 'lumora-onnx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.unstubAllEnvs());

let n = 0;
function modelFile(bytes: Uint8Array | Buffer): string {
  const p = path.join(dir, `m${n++}.onnx`);
  writeFileSync(p, bytes);
  return p;
}
const plane = (w: number, h: number, f: (x: number, y: number) => number) => {
  const L = new Float32Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) L[y * w + x] = f(x, y);
  return { L, width: w, height: h };
};

describe('onnxColorizer: the pre/post-processing contract', () => {
  it('normalises L* as (L* − 50)/100 and scales the output by 110', async () => {
    const c = onnxColorizer({ modelPath: modelFile(tinyColorizerModel({ k: 1, c: 0.2 })), size: 32 });
    for (const L of [75, 20, 50]) {
      const out = await c.colorize(plane(40, 30, () => L));
      expect([out.width, out.height]).toEqual([40, 30]);
      for (const i of [0, 617, 1199]) {
        expect(out.a[i]).toBeCloseTo(1.1 * (L - 50), 3);
        expect(out.b[i]).toBeCloseTo(22, 3);
      }
    }
  });

  it('brings a coarse (S/4) output back to the input aspect, edges from the input L*', async () => {
    // 160×60 input, squeezed to 32×32 for the network, which answers at 8×8.
    const E = 53; // not on the 8×8 grid (160/8 = 20 px per output cell)
    const input = plane(160, 60, (x) => (x < E ? 30 : 70));
    const out = await onnxColorizer({ modelPath: modelFile(tinyColorizerModel({ k: 1, c: 0 })), size: 32 }).colorize(input);
    expect([out.width, out.height, out.a.length]).toEqual([160, 60, 9600]);
    const row = 30 * 160;
    expect(out.a[row + 5]).toBeCloseTo(-22, 0); // 1.1 × (30 − 50)
    expect(out.a[row + 150]).toBeCloseTo(22, 0); // 1.1 × (70 − 50)
    // Within a few pixels of the edge the colour is already (nearly) that of its side; a plain bilinear
    // resize of the 8×8 output would mix the two sides over about 20 pixels here.
    for (const x of [E - 6, E - 3, E - 1]) expect(out.a[row + x]).toBeLessThan(-17);
    for (const x of [E, E + 2, E + 5]) expect(out.a[row + x]).toBeGreaterThan(17);
  });

  it('uses the input size fixed in the model file whatever COLORIZER_ONNX_SIZE says', async () => {
    vi.stubEnv('COLORIZER_ONNX_SIZE', '256');
    const c = onnxColorizer({ modelPath: modelFile(tinyColorizerModel({ k: 1, c: 0.1, size: 48 })) });
    const out = await c.colorize(plane(64, 40, () => 60));
    expect(out.a[100]).toBeCloseTo(11, 3);
    expect(out.b[100]).toBeCloseTo(11, 3);
  });
});

describe('onnxColorizer: the io contracts of published exports', () => {
  it('feeds raw L* and reads raw a*b* for whole-module exports (io "l"), as the sidecar of models:fetch says', async () => {
    const p = modelFile(tinyColorizerModel({ k: 0.5, c: 7 }));
    const L = plane(40, 30, () => 60);
    expect((await createColorizer({ COLORIZER_ONNX_MODEL: p }).colorize(L)).a[0]).toBeCloseTo(0.5 * 0.1 * 110, 3); // no sidecar: l-norm
    writeFileSync(`${p}.json`, JSON.stringify({ model: 'eccv16', io: 'l' }));
    const out = await createColorizer({ COLORIZER_ONNX_MODEL: p }).colorize(L);
    expect([out.a[0], out.b[0]]).toEqual([expect.closeTo(30, 3), expect.closeTo(7, 3)]);
    vi.stubEnv('COLORIZER_ONNX_IO', 'l-norm'); // the environment wins over the sidecar
    expect((await onnxColorizer({ modelPath: p }).colorize(L)).b[0]).toBeCloseTo(770, 2);
    vi.stubEnv('COLORIZER_ONNX_IO', 'lab');
    await expect(onnxColorizer({ modelPath: p }).colorize(L)).rejects.toThrow('COLORIZER_ONNX_IO must be one of l-norm, l, rgb (got "lab").');
  });

  it('feeds DDColor-style models (io "rgb") the grey sRGB picture in 0..1 on all three channels, and reads raw a*b*', async () => {
    const c = onnxColorizer({ modelPath: modelFile(tinyColorizerModel({ k: 100, c: -3, inChannels: 3 })), size: 32, io: 'rgb' });
    for (const L of [20, 50, 90]) {
      const out = await c.colorize(plane(48, 36, () => L));
      const grey = out.a[500] / 100; // the mean over the three channels, each the grey of L*
      expect(rgbToLab(...(Array(3).fill(Math.round(grey * 255)) as [number, number, number]))[0]).toBeCloseTo(L, 0);
      expect(out.b[500]).toBeCloseTo(-3, 3);
    }
  });
});

describe('onnxColorizer: failures are ColorizerErrors with clear messages', () => {
  const L = plane(40, 30, () => 50);
  /** Runs the model at `modelPath` expecting a ColorizerError with exactly `message`; returns the error. */
  async function failure(modelPath: string, message: string): Promise<ColorizerError> {
    const err = await onnxColorizer({ modelPath, size: 32 }).colorize(L).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(ColorizerError);
    expect(err.message).toBe(message);
    return err;
  }
  it('refuses an output that is not [1, 2, h, w]', async () => {
    const p = modelFile(tinyColorizerModel({ k: 1, c: 0, channels: 3 }));
    await failure(p, 'The local colorization model returned an unexpected shape float32 [1, 3, 8, 8]; expected float32 [1, 2, h, w].');
  });
  it('refuses a model whose input is not one L* channel', async () => {
    const p = modelFile(tinyColorizerModel({ k: 1, c: 0, inChannels: 3 }));
    await failure(p, 'The local colorization model expects input float32 [1, 3, S, S]; expected float32 [1, 1, S, S] (L*).');
  });
  it('says the model could not be loaded when the file is missing or corrupt, and loads it once replaced', async () => {
    const unloadable = 'The local colorization model could not be loaded.';
    expect((await failure(path.join(dir, 'nope.onnx'), unloadable)).cause).toBeInstanceOf(Error);
    const p = modelFile(Buffer.from('this is not a protobuf model, just text pretending to be one'));
    expect((await failure(p, unloadable)).cause).toBeTruthy(); // onnxruntime's own reason, kept for logs
    const c = onnxColorizer({ modelPath: p, size: 32 });
    // `npm run models:fetch` renames a good file over the bad one: the next call loads it.
    const replace = (bytes: Uint8Array) => { writeFileSync(`${p}.part`, bytes); renameSync(`${p}.part`, p); };
    replace(tinyColorizerModel({ k: 1, c: 0.3 }));
    expect((await c.colorize(L)).b[0]).toBeCloseTo(33, 3);
    // …and a different model replacing a good one is picked up too (no stale cached session).
    replace(tinyColorizerModel({ k: 1, c: -0.1 }));
    expect((await c.colorize(L)).b[0]).toBeCloseTo(-11, 3);
  });
});

describe('createColorizer and the pipeline with a local model', () => {
  it('picks onnx when COLORIZER_ONNX_MODEL is an existing file, exemplar otherwise', () => {
    const p = modelFile(tinyColorizerModel({ k: 1, c: 0 }));
    expect(createColorizer({ COLORIZER_ONNX_MODEL: p }).id).toBe('onnx');
    expect(onnxModelAvailable({ COLORIZER_ONNX_MODEL: p })).toBe(true);
    expect(createColorizer({ COLORIZER_ONNX_MODEL: path.join(dir, 'absent.onnx') }).id).toBe('exemplar');
    expect(createColorizer({ COLORIZER_ONNX_MODEL: dir }).id).toBe('exemplar'); // a directory is not a model
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
