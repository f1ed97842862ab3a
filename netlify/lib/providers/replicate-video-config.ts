import { replicateConnection, type ReplicateConnection } from './replicate-client';
import { findPreset, type ReplicatePreset } from './replicate-presets';

// The hosted video model's settings from the environment, apart from the engine that renders with them so that what
// only reads them (npm run doctor, the engine's status) does not load the video engine.

export const VIDEO_BUDGET_MS = 10 * 60_000;
export const VIDEO_BUDGET_MAX_MS = 12 * 60_000;
export type ReplicateConfig = ReplicateConnection & {
  /** A preset's id, "owner/name" (latest version) or "owner/name:version" (explicit version). */
  model: string;
  /** Name of the model's image input; models differ ("image", "start_image", "first_frame_image"). */
  imageKey: string;
  /** Extra model inputs (a preset's, then REPLICATE_VIDEO_INPUT's) merged into every request. */
  extraInput: Record<string, unknown>;
  /** The preset in use, if any. */
  preset?: ReplicatePreset;
};

export function replicateConfigFromEnv(env: Record<string, string | undefined>): ReplicateConfig | null {
  const connection = replicateConnection(env, VIDEO_BUDGET_MS, VIDEO_BUDGET_MAX_MS);
  const spec = env.REPLICATE_VIDEO_MODEL?.trim();
  if (!connection || !spec) return null;
  const preset = findPreset('video', spec);
  // A preset's name runs its model at the latest version; "owner/name:version" keeps the version given.
  const model = preset && !spec.includes('/') ? preset.model : spec;
  let extraInput: Record<string, unknown> = {};
  if (env.REPLICATE_VIDEO_INPUT) {
    try {
      const parsed = JSON.parse(env.REPLICATE_VIDEO_INPUT);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) extraInput = parsed;
    } catch {
      console.warn('REPLICATE_VIDEO_INPUT is not valid JSON; ignoring it');
    }
  }
  return {
    ...connection,
    model,
    imageKey: env.REPLICATE_VIDEO_IMAGE_KEY?.trim() || preset?.imageKey || 'image',
    extraInput: { ...preset?.input, ...extraInput },
    preset,
  };
}
