// TensorFlow.js on its WebAssembly backend (the .wasm files ship inside @tensorflow/tfjs-backend-wasm; no native
// download), and the model files read from ./models by their repository path (`projectFile`: bundling moves
// the code, not the files). Each model loads once per process.

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import * as tf from '@tensorflow/tfjs-core';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { loadGraphModel, type GraphModel } from '@tensorflow/tfjs-converter';
import { projectFile } from '../shared';
import type { VisionModelId } from './types';

export { tf };

export const MODELS_DIR = 'engines/vision/models';
export const WASM_DIR = 'node_modules/@tensorflow/tfjs-backend-wasm/dist';

let backend: Promise<void> | null = null;
const models = new Map<VisionModelId, Promise<GraphModel>>();

/** The wasm backend, once (SIMD where the CPU has it, which every x86-64 and arm64 server does). */
export function ready(): Promise<void> {
  backend ??= (async () => {
    setWasmPaths(projectFile(WASM_DIR) + '/');
    if (!(await tf.setBackend('wasm'))) throw new Error('The TensorFlow.js WebAssembly backend did not start.');
    await tf.ready();
  })().catch((error) => {
    backend = null;
    throw error;
  });
  return backend;
}

type ModelJson = {
  modelTopology: object;
  weightsManifest: { paths: string[]; weights: tf.io.WeightsManifestEntry[] }[];
  format?: string;
  generatedBy?: string;
  convertedBy?: string;
  signature?: object;
  userDefinedMetadata?: Record<string, object>;
};

/**
 * A function ships only the model files its netlify.toml `included_files` names (the object detector does not
 * fit in the video function's budget): a model whose file is absent is unavailable there, not an error.
 */
export class ModelUnavailableError extends Error {
  constructor(readonly model: VisionModelId) {
    super(`The ${model} model's files are not in this deployment (${MODELS_DIR}/${model}.json).`);
    this.name = 'ModelUnavailableError';
  }
}

export const hasModel = (id: VisionModelId) => existsSync(projectFile(`${MODELS_DIR}/${id}.json`));

/** A converted graph model from its model.json and weight files in MODELS_DIR. */
export function model(id: VisionModelId): Promise<GraphModel> {
  let loading = models.get(id);
  if (!loading) {
    loading = (async () => {
      if (!hasModel(id)) throw new ModelUnavailableError(id);
      await ready();
      const json = JSON.parse(await readFile(projectFile(`${MODELS_DIR}/${id}.json`), 'utf8')) as ModelJson;
      const bins = await Promise.all(json.weightsManifest.flatMap((g) => g.paths).map((p) => readFile(projectFile(`${MODELS_DIR}/${p}`))));
      const weights = Buffer.concat(bins);
      return loadGraphModel(
        tf.io.fromMemory({
          modelTopology: json.modelTopology,
          weightSpecs: json.weightsManifest.flatMap((g) => g.weights),
          weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.byteLength),
          format: json.format,
          generatedBy: json.generatedBy,
          convertedBy: json.convertedBy,
          signature: json.signature,
          userDefinedMetadata: json.userDefinedMetadata,
        }),
      );
    })();
    loading.catch(() => models.delete(id));
    models.set(id, loading);
  }
  return loading;
}

/** The model's input height and width (NHWC or NCHW, read from its signature). */
export function inputSize(m: GraphModel): { width: number; height: number } {
  const shape = m.inputs[0]!.shape!;
  return shape[1] === 3 ? { height: shape[2]!, width: shape[3]! } : { height: shape[1]!, width: shape[2]! };
}

/** Runs `fn` and returns its value with the wall and CPU milliseconds it took. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; wallMs: number; cpuMs: number }> {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const value = await fn();
  const used = process.cpuUsage(cpu);
  return { value, wallMs: Math.round(performance.now() - wall), cpuMs: Math.round((used.user + used.system) / 1000) };
}

/** The RGB image as a float tensor [1, h, w, 3] (0..255). */
export function imageTensor(data: Uint8Array, width: number, height: number, channels: number): tf.Tensor4D {
  if (channels === 3) return tf.tensor4d(Float32Array.from(data.subarray(0, width * height * 3)), [1, height, width, 3]);
  const rgb = new Float32Array(width * height * 3);
  for (let i = 0, j = 0; i < width * height; i++, j += channels) {
    rgb[i * 3] = data[j]!;
    rgb[i * 3 + 1] = data[j + 1]!;
    rgb[i * 3 + 2] = data[j + 2]!;
  }
  return tf.tensor4d(rgb, [1, height, width, 3]);
}
