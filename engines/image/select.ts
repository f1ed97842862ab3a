import type { Colorizer } from './colorizer';
import { exemplarColorizer } from './exemplar';
import { onnxColorizer, onnxModelAvailable, onnxModelPath } from './onnx';

/**
 * The colorizer this machine provides on its own: a local ONNX model when its weights are on disk, else the offline
 * exemplar method (always available). A hosted model is the server's choice (netlify/lib/providers/colorizer.ts)
 * and comes in as `RestoreOpts.colorizer`; the engine never calls a provider by itself.
 */
export function builtInColorizer(env: NodeJS.ProcessEnv = process.env): Colorizer {
  if (onnxModelAvailable(env)) return onnxColorizer({ modelPath: onnxModelPath(env), env });
  return exemplarColorizer();
}
