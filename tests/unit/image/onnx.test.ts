import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ColorizerError, builtInColorizer } from '../../../engines/image';
import { rgbToLab } from '../../../engines/shared';
import { onnxColorizer } from '../../../engines/image/onnx';
import { modelFolder, tinyColorizerModel } from '../../support/tiny-onnx';

// The real onnxruntime-node runs tiny models written by tests/support/tiny-onnx.ts. Their output is a
// known function of the input: a = k × (normalised L* averaged over 4×4 blocks), b = c, at S/4 × S/4
// like Zhang et al.'s ECCV16 network. With the documented contract, input (L* − 50) / 100 and output ×110:
//   a* = 110·k·(L* − 50)/100,  b* = 110·c.

const { dir, file: modelFile } = modelFolder();
afterEach(() => vi.unstubAllEnvs());
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
    expect((await builtInColorizer({ COLORIZER_ONNX_MODEL: p }).colorize(L)).a[0]).toBeCloseTo(0.5 * 0.1 * 110, 3); // no sidecar: l-norm
    writeFileSync(`${p}.json`, JSON.stringify({ model: 'eccv16', io: 'l' }));
    const out = await builtInColorizer({ COLORIZER_ONNX_MODEL: p }).colorize(L);
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
