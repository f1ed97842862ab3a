import { parseModel, replicateConnection, type ReplicateConnection, type ReplicateModel } from './replicate-client';
import { findPreset } from './replicate-presets';

// The hosted colorizer's settings from the environment, apart from the colorizer itself so that what only reads
// them (npm run doctor, the operator's health details) does not load the image engine.

/**
 * The colorizer runs inside the synchronous image function, which Netlify ends at 60 s: the restoration before
 * it and the built-in fall-back after it must fit too, so one hosted call has 25 s by default and never more than
 * 30 s (REPLICATE_TIMEOUT_MS may only lower it). Replicate is asked to cancel the prediction at that point
 * (`Cancel-After`), so nothing bills on after the function has moved on.
 */
export const COLORIZER_BUDGET_MS = 25_000;
export const COLORIZER_BUDGET_MAX_MS = 30_000;

export type ReplicateConfig = ReplicateConnection &
  ReplicateModel & {
    /** Name of the image field in the model's input (differs between models). */
    inputKey: string;
    /** Inputs every call sends (a preset's; REPLICATE_COLORIZER_INPUT adds to them). */
    input: Record<string, unknown>;
    /** The preset in use, if any ("ddcolor", "deoldify"). */
    preset?: string;
  };

export function replicateConfig(env: NodeJS.ProcessEnv = process.env): ReplicateConfig | null {
  const connection = replicateConnection(env, COLORIZER_BUDGET_MS, COLORIZER_BUDGET_MAX_MS);
  // A preset by name ("ddcolor") or by model; else "owner/name" or "owner/name:version" as Replicate's pages show it.
  const preset = findPreset('colorizer', env.REPLICATE_COLORIZER_MODEL);
  const { model, version: pinned } = preset
    ? { model: preset.model, version: parseModel(env.REPLICATE_COLORIZER_MODEL).version }
    : parseModel(env.REPLICATE_COLORIZER_MODEL);
  const version = env.REPLICATE_COLORIZER_VERSION?.trim() || pinned;
  if (!connection || (!version && !model)) return null;
  let extra: Record<string, unknown> = {};
  try {
    const parsed = env.REPLICATE_COLORIZER_INPUT ? JSON.parse(env.REPLICATE_COLORIZER_INPUT) : {};
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) extra = parsed;
  } catch {
    console.warn('REPLICATE_COLORIZER_INPUT is not valid JSON; ignoring it');
  }
  return {
    ...connection,
    version,
    model,
    inputKey: env.REPLICATE_COLORIZER_INPUT_KEY?.trim() || preset?.imageKey || 'image',
    input: { ...preset?.input, ...extra },
    preset: preset?.id,
  };
}
