import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { projectFile, linearToSrgb, guidedUpsample, resize } from '../shared';
import type { ChromaPlanes, Colorizer, LumaPlane } from './colorizer';
import { ColorizerError } from './errors';

// Neural colorizer through onnxruntime-node, for self-hosting with downloaded weights
// (`npm run models:fetch`). The model file takes one image-shaped tensor and returns one:
//   input  0: float32 [1, C, S, S]  — the L* plane resized to S×S. S is the model's own size when its
//                                      input dims are fixed in the file (fixed non-square H×W works too),
//                                      else COLORIZER_ONNX_SIZE (default 256)
//   output 0: float32 [1, 2, h, w]  — a*, b*, any h×w (e.g. S/4 for Zhang et al.'s bare ECCV16 network)
// How the tensors are scaled (the "io" contract) differs between exports:
//   'l-norm' (default) — C = 1, (L* − 50)/100 in, a*b*/110 out: the bare network of Zhang, Isola & Efros
//                        2016, "Colorful Image Colorization", without its normalisation layers
//   'l'                — C = 1, L* (0..100) in, a*b* out: their PyTorch module exported whole
//                        (normalisation inside the graph), e.g. the published ECCV16 ONNX export
//   'rgb'              — C = 3, the grey sRGB image (L* with a* = b* = 0) in 0..1, a*b* out: DDColor exports
// The contract comes from COLORIZER_ONNX_IO, else from `<model>.json` written next to the model by
// `npm run models:fetch`, else 'l-norm'. The output chroma is brought back to the input's size and
// aspect guided by the input L*, and later upsampled guided by the full-resolution L*, so the network
// only has to get colours right, not edges.

export const L_CENTRE = 50;
export const L_NORM = 100;
export const AB_NORM = 110;
export const DEFAULT_ONNX_SIZE = 256;
export const ONNX_IO = ['l-norm', 'l', 'rgb'] as const;
export type OnnxIo = (typeof ONNX_IO)[number];
// Guided upsampling of the network's chroma (window radius in output pixels, regulariser in L*²).
const GUIDE_R = 1;
const GUIDE_EPS = 8;

export function onnxModelPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.COLORIZER_ONNX_MODEL || projectFile('.models/colorizer.onnx');
}
export function onnxModelAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return fileStamp(onnxModelPath(env)) !== null;
}
/** Side of the square input for models whose input size is not fixed in the file. */
export function onnxModelSize(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.COLORIZER_ONNX_SIZE);
  return Number.isInteger(n) && n >= 8 && n <= 4096 ? n : DEFAULT_ONNX_SIZE;
}
/** Where `npm run models:fetch` records what it installed (including the io contract). */
export const onnxSidecarPath = (modelPath: string) => `${modelPath}.json`;
const isIo = (v: unknown): v is OnnxIo => (ONNX_IO as readonly unknown[]).includes(v);

/** The io contract of the model at `modelPath` (see the top of this file). */
export function onnxModelIo(modelPath: string, env: NodeJS.ProcessEnv = process.env): OnnxIo {
  const fromEnv = env.COLORIZER_ONNX_IO?.trim();
  if (fromEnv) {
    if (isIo(fromEnv)) return fromEnv;
    throw new ColorizerError(`COLORIZER_ONNX_IO must be one of ${ONNX_IO.join(', ')} (got "${fromEnv}").`);
  }
  let sidecar: unknown;
  try {
    sidecar = JSON.parse(readFileSync(onnxSidecarPath(modelPath), 'utf8'));
  } catch {
    return 'l-norm'; // no sidecar (or an unreadable one): the documented default
  }
  const io = (sidecar as { io?: unknown } | null)?.io;
  if (isIo(io)) return io;
  throw new ColorizerError(`${path.basename(onnxSidecarPath(modelPath))} names an unknown io contract; expected one of ${ONNX_IO.join(', ')}.`);
}

/** Identity of the file on disk (null when it is not a regular file), so a replaced model is reloaded. */
function fileStamp(p: string): string | null {
  try {
    const st = statSync(p);
    return st.isFile() ? `${path.resolve(p)}|${st.ino}|${st.size}|${st.mtimeMs}` : null;
  } catch {
    return null;
  }
}

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;

let ortPromise: Promise<Ort> | null = null;
/** Loaded on first use only: a variable specifier keeps bundlers from pulling 288 MB into a function. */
function loadOrt(): Promise<Ort> {
  const name = 'onnxruntime-node';
  if (!ortPromise) {
    ortPromise = (import(/* @vite-ignore */ name) as Promise<Ort & { default?: Ort }>).then((m) => (m.InferenceSession ? m : (m.default as Ort)));
    // A later install is picked up without a restart.
    ortPromise.catch(() => {
      ortPromise = null;
    });
  }
  return ortPromise;
}

const sessions = new Map<string, Promise<Session>>();

async function openSession(ort: Ort, modelPath: string): Promise<Session> {
  const stamp = fileStamp(modelPath);
  if (!stamp) throw new ColorizerError('The local colorization model could not be loaded.', new Error(`No model file at ${modelPath}`));
  let session = sessions.get(stamp);
  if (!session) {
    for (const k of sessions.keys()) if (k.startsWith(`${path.resolve(modelPath)}|`)) sessions.delete(k);
    session = ort.InferenceSession.create(modelPath, { graphOptimizationLevel: 'all' });
    sessions.set(stamp, session);
    session.catch(() => sessions.delete(stamp));
  }
  try {
    return await session;
  } catch (e) {
    throw new ColorizerError('The local colorization model could not be loaded.', e);
  }
}

/** Input H×W: the model's own when fixed in the file, else S×S. Refuses inputs that are not [1, C, H, W]. */
function inputSize(s: Session, S: number, C: number): { h: number; w: number } {
  const meta = s.inputMetadata?.[0];
  if (!meta) return { h: S, w: S };
  const shape = meta.isTensor ? meta.shape : [];
  if (meta.isTensor && meta.type === 'float32' && shape.length === 0) return { h: S, w: S }; // shape not recorded
  const fixed = (d: number | string | undefined) => typeof d === 'number' && d > 0;
  const ok = meta.isTensor && meta.type === 'float32' && shape.length === 4 && (!fixed(shape[0]) || shape[0] === 1) && (!fixed(shape[1]) || shape[1] === C);
  if (!ok) {
    const got = meta.isTensor ? `${meta.type} [${shape.join(', ')}]` : 'a non-tensor value';
    throw new ColorizerError(`The local colorization model expects input ${got}; expected float32 [1, ${C}, S, S] (${C === 1 ? 'L*' : 'grey RGB'}).`);
  }
  return { h: fixed(shape[2]) ? (shape[2] as number) : S, w: fixed(shape[3]) ? (shape[3] as number) : S };
}

/** sRGB value (0..1) of the neutral grey of lightness L* (CIE inverse of L*, then the sRGB curve). */
function greyOfL(L: number): number {
  const fy = (L + 16) / 116;
  const Y = fy > 6 / 29 ? fy * fy * fy : (L * 27) / 24389;
  return Math.min(1, Math.max(0, linearToSrgb(Y)));
}

/** The input tensor's data for `io`, from the L* plane already resized to the network's size. */
function inputData(sq: Float32Array, io: OnnxIo): Float32Array {
  if (io === 'l') return sq;
  if (io === 'l-norm') return sq.map((v) => (v - L_CENTRE) / L_NORM);
  const n = sq.length, out = new Float32Array(3 * n);
  for (let i = 0; i < n; i++) out[i] = out[n + i] = out[2 * n + i] = greyOfL(sq[i]);
  return out;
}

export function onnxColorizer(opts: { modelPath?: string; size?: number; io?: OnnxIo; env?: NodeJS.ProcessEnv } = {}): Colorizer {
  const env = opts.env ?? process.env;
  const modelPath = opts.modelPath ?? onnxModelPath(env);
  const S = opts.size ?? onnxModelSize(env);
  return {
    id: 'onnx',
    description: `Neural colorization network run locally with ONNX Runtime (${path.basename(modelPath)}), chroma upsampled guided by the restored full-resolution luminance.`,
    async colorize(input: LumaPlane): Promise<ChromaPlanes> {
      const io = opts.io ?? onnxModelIo(modelPath, env);
      let ort: Ort;
      try {
        ort = await loadOrt();
      } catch (e) {
        throw new ColorizerError('The local colorization model runtime (onnxruntime-node) is not installed.', e);
      }
      const s = await openSession(ort, modelPath);
      const C = io === 'rgb' ? 3 : 1;
      const { h: ih, w: iw } = inputSize(s, S, C);
      const sq = inputData(resize(input.L, input.width, input.height, iw, ih), io);
      const feeds = { [s.inputNames[0]]: new ort.Tensor('float32', sq, [1, C, ih, iw]) };
      let out: import('onnxruntime-node').Tensor;
      try {
        out = (await s.run(feeds))[s.outputNames[0]];
      } catch (e) {
        throw new ColorizerError(`The local colorization model failed to run on a [1, ${C}, ${ih}, ${iw}] input.`, e);
      }
      const dims = out.dims as readonly number[];
      if (dims.length !== 4 || dims[0] !== 1 || dims[1] !== 2 || !(dims[2] > 0) || !(dims[3] > 0) || out.type !== 'float32') {
        throw new ColorizerError(`The local colorization model returned an unexpected shape ${out.type} [${dims.join(', ')}]; expected float32 [1, 2, h, w].`);
      }
      const [, , oh, ow] = dims;
      const data = out.data as Float32Array;
      const k = io === 'l-norm' ? AB_NORM : 1;
      const a = new Float32Array(oh * ow), b = new Float32Array(oh * ow);
      for (let i = 0; i < a.length; i++) {
        a[i] = data[i] * k;
        b[i] = data[oh * ow + i] * k;
      }
      if (!a.every(Number.isFinite) || !b.every(Number.isFinite)) {
        throw new ColorizerError('The local colorization model returned non-finite values.');
      }
      // Back to the input's size and aspect, edges taken from the input's L* (the network's output is
      // coarse, e.g. S/4: a plain bilinear resize would bleed colour across edges by several pixels).
      const { width: W, height: H } = input;
      const guideLow = resize(input.L, W, H, ow, oh);
      return {
        a: guidedUpsample(input.L, W, H, guideLow, a, ow, oh, GUIDE_R, GUIDE_EPS),
        b: guidedUpsample(input.L, W, H, guideLow, b, ow, oh, GUIDE_R, GUIDE_EPS),
        width: W,
        height: H,
      };
    },
  };
}
