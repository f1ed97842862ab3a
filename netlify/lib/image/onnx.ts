import { existsSync } from 'node:fs';
import path from 'node:path';
import type { ChromaPlanes, Colorizer, LumaPlane } from './colorizer';
import { ColorizerError } from './errors';
import { resize } from './planes';

// Neural colorizer through onnxruntime-node, for self-hosting with downloaded weights
// (`npm run models:fetch`). Contract of the model file (that of Zhang, Isola & Efros 2016,
// "Colorful Image Colorization", as exported to ONNX):
//   input  0: float32 [1, 1, S, S]  — L* resized to S×S (S = COLORIZER_ONNX_SIZE, default 256),
//                                      normalised as (L* − 50) / 100
//   output 0: float32 [1, 2, h, w]  — a*, b* divided by 110, any h×w (e.g. S/4 for ECCV16)
// The output chroma is resized back to the input's aspect and later upsampled guided by the
// full-resolution L*, so the network only has to get colours right, not edges.

export const L_CENTRE = 50;
export const L_NORM = 100;
export const AB_NORM = 110;

export function onnxModelPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.COLORIZER_ONNX_MODEL || path.resolve(process.cwd(), '.models/colorizer.onnx');
}
export function onnxModelAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return existsSync(onnxModelPath(env));
}

type Ort = typeof import('onnxruntime-node');
type Session = import('onnxruntime-node').InferenceSession;

let ortPromise: Promise<Ort> | null = null;
/** Loaded on first use only: a variable specifier keeps bundlers from pulling 288 MB into a function. */
function loadOrt(): Promise<Ort> {
  const name = 'onnxruntime-node';
  ortPromise ??= (import(/* @vite-ignore */ name) as Promise<Ort & { default?: Ort }>).then((m) => (m.InferenceSession ? m : (m.default as Ort)));
  return ortPromise;
}

const sessions = new Map<string, Promise<Session>>();

export function onnxColorizer(opts: { modelPath?: string; size?: number } = {}): Colorizer {
  const modelPath = opts.modelPath ?? onnxModelPath();
  const S = opts.size ?? (Number(process.env.COLORIZER_ONNX_SIZE) || 256);
  return {
    id: 'onnx',
    description: `Neural colorization network run locally with ONNX Runtime (${path.basename(modelPath)}), chroma upsampled guided by the restored full-resolution luminance.`,
    async colorize(input: LumaPlane): Promise<ChromaPlanes> {
      let ort: Ort;
      try {
        ort = await loadOrt();
      } catch (e) {
        throw new ColorizerError('The local colorization model runtime (onnxruntime-node) is not installed.', e);
      }
      let session = sessions.get(modelPath);
      if (!session) {
        session = ort.InferenceSession.create(modelPath, { graphOptimizationLevel: 'all' });
        sessions.set(modelPath, session);
        session.catch(() => sessions.delete(modelPath));
      }
      let s: Session;
      try {
        s = await session;
      } catch (e) {
        throw new ColorizerError('The local colorization model could not be loaded.', e);
      }
      const sq = resize(input.L, input.width, input.height, S, S);
      for (let i = 0; i < sq.length; i++) sq[i] = (sq[i] - L_CENTRE) / L_NORM;
      const feeds = { [s.inputNames[0]]: new ort.Tensor('float32', sq, [1, 1, S, S]) };
      const out = (await s.run(feeds))[s.outputNames[0]];
      const dims = out.dims as number[];
      if (dims.length !== 4 || dims[0] !== 1 || dims[1] !== 2) {
        throw new ColorizerError(`The local colorization model returned an unexpected shape [${dims.join(', ')}]; expected [1, 2, h, w].`);
      }
      const [, , oh, ow] = dims;
      const data = out.data as Float32Array;
      const a = new Float32Array(oh * ow), b = new Float32Array(oh * ow);
      for (let i = 0; i < a.length; i++) { a[i] = data[i] * AB_NORM; b[i] = data[oh * ow + i] * AB_NORM; }
      return {
        a: resize(a, ow, oh, input.width, input.height),
        b: resize(b, ow, oh, input.width, input.height),
        width: input.width,
        height: input.height,
      };
    },
  };
}
