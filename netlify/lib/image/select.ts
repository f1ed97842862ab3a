import type { Colorizer, ColorizerId } from './colorizer';
import { exemplarColorizer } from './exemplar';
import { onnxColorizer, onnxModelAvailable, onnxModelPath } from './onnx';
import { replicateColorizer, replicateConfig } from './replicate-colorizer';

/**
 * The colorizer the environment provides: a hosted model when Replicate is configured, else a local
 * ONNX model when its weights are on disk, else the offline exemplar method (always available).
 */
export function activeColorizer(env: NodeJS.ProcessEnv = process.env): { id: ColorizerId; description: string } {
  const c = createColorizer(env);
  return { id: c.id, description: c.description };
}

export function createColorizer(env: NodeJS.ProcessEnv = process.env, extraInput: Record<string, unknown> = {}): Colorizer {
  const rep = replicateConfig(env);
  if (rep) return replicateColorizer(rep, extraInput);
  if (onnxModelAvailable(env)) return onnxColorizer({ modelPath: onnxModelPath(env), env });
  return exemplarColorizer();
}
