import { builtInColorizer, type Colorizer } from '../../../engines/image';
import { replicateColorizer, replicateConfig } from './replicate-colorizer';

/**
 * The colorizer the environment provides: a hosted model when Replicate is configured, else the engine's built-in
 * one (a local ONNX model when its weights are on disk, else the offline exemplar method). Every server call of the
 * image engine passes it as `colorizer`; `extraInput` carries the buyer's prompt to a hosted model.
 */
export function createColorizer(env: NodeJS.ProcessEnv = process.env, extraInput: Record<string, unknown> = {}): Colorizer {
  const rep = replicateConfig(env);
  if (rep) return replicateColorizer(rep, extraInput);
  return builtInColorizer(env);
}

/** The colorizer for one job: the environment's, with the buyer's prompt when there is one. */
export const colorizerFor = (prompt?: string | null): Colorizer => createColorizer(process.env, prompt ? { prompt } : {});
