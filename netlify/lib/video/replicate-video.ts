import { checkVideoInput } from './input';
import { abortError } from './ffmpeg';
import { finishHostedVideo } from './preview';
import type { RenderOptions, RenderResult } from './render';
import {
  firstUrl,
  parseModel,
  replicateConnection,
  ReplicateError,
  replicateRun,
  type Prediction,
  type ReplicateConnection,
} from '../providers/replicate-client';

// Hosted image-to-video through Replicate's predictions API (the one client, providers/replicate-client.ts):
// create → poll → download the MP4, then the watermarked preview is made locally (the hosted model knows
// nothing of our brand).

export type ReplicateConfig = ReplicateConnection & {
  /** "owner/name" (official model endpoint) or "owner/name:version" (explicit version). */
  model: string;
  /** Name of the model's image input; models differ ("image", "start_image", "first_frame_image"). */
  imageKey: string;
  /** Extra model inputs (e.g. duration, resolution) merged into every request. */
  extraInput: Record<string, unknown>;
};

export function replicateConfigFromEnv(env: Record<string, string | undefined>): ReplicateConfig | null {
  const connection = replicateConnection(env, 10 * 60_000);
  const model = env.REPLICATE_VIDEO_MODEL?.trim();
  if (!connection || !model) return null;
  let extraInput: Record<string, unknown> = {};
  if (env.REPLICATE_VIDEO_INPUT) {
    try {
      const parsed = JSON.parse(env.REPLICATE_VIDEO_INPUT);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) extraInput = parsed;
    } catch {
      console.warn('REPLICATE_VIDEO_INPUT is not valid JSON; ignoring it');
    }
  }
  return { ...connection, model, imageKey: env.REPLICATE_VIDEO_IMAGE_KEY?.trim() || 'image', extraInput };
}

export class VideoEngineError extends Error {
  constructor(
    message: string,
    readonly status = 502,
  ) {
    super(message);
    this.name = 'VideoEngineError';
  }
}

/** What the buyer reads when the hosted video service fails, with the status the job reports. */
function engineError(error: ReplicateError): VideoEngineError {
  switch (error.kind) {
    case 'http':
      return new VideoEngineError(`Video service error (${error.status}): ${error.detail}`, error.status === 429 ? 503 : 502);
    case 'unreachable':
      return new VideoEngineError('Video service could not be reached. Please try again later.');
    case 'timeout':
      return new VideoEngineError('Video generation timed out', 504);
    case 'failed':
      return new VideoEngineError(`Video generation failed: ${error.detail}`);
    case 'canceled':
      return new VideoEngineError('Video generation was canceled by the service');
    case 'no-output':
      return new VideoEngineError('Video service returned no video');
    case 'output-host':
      return new VideoEngineError('Video service named an output on a host it does not use');
    case 'download':
      return new VideoEngineError(
        error.status ? `Could not download the generated video (${error.status})` : error.detail || 'Could not download the generated video',
      );
    default:
      return new VideoEngineError('Video service returned an unexpected answer');
  }
}

/** Replicate logs progress bars ("45%|████ | 9/20"); the last percentage seen is the model's own progress. */
export function logProgress(logs: string | null | undefined): number | null {
  if (!logs) return null;
  const all = [...logs.matchAll(/(\d{1,3})%\|/g)];
  const last = all.at(-1);
  if (last) return Math.min(1, Number(last[1]) / 100);
  const steps = [...logs.matchAll(/\b(\d+)\/(\d+)\b/g)].at(-1);
  return steps && Number(steps[2]) > 0 ? Math.min(1, Number(steps[1]) / Number(steps[2])) : null;
}

export async function renderReplicate(image: Buffer, opts: RenderOptions, config: ReplicateConfig): Promise<RenderResult> {
  const { signal, onProgress } = opts;
  const header = checkVideoInput(image);
  if (signal?.aborted) throw abortError(signal);
  onProgress?.(0);
  const input = {
    ...config.extraInput,
    [config.imageKey]: `data:image/${header.format};base64,${image.toString('base64')}`,
    prompt: opts.prompt,
  };
  let reported = 0;
  const report = (p: number) => {
    reported = Math.max(reported, p); // never move backwards
    onProgress?.(reported);
  };
  // Progress budget: queue 0–5 %, model 5–80 %, download 80–85 %, local preview 85–100 %.
  const polled = (prediction: Prediction) => {
    if (prediction.status === 'starting') return report(0.02);
    const p = logProgress(prediction.logs);
    report(p === null ? Math.min(0.75, reported + 0.02) : 0.05 + 0.75 * p);
  };

  const run = replicateRun(config, signal);
  let mp4: Buffer;
  try {
    const prediction = await run.predict(parseModel(config.model), input, polled);
    report(0.8);
    const url = firstUrl(prediction.output, ['video', 'url', 'output']);
    if (!url) throw new ReplicateError('no-output');
    mp4 = await run.download(url);
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    throw error instanceof ReplicateError ? engineError(error) : error;
  }
  report(0.85);
  const result = await finishHostedVideo(mp4, opts.watermarkText, {
    signal,
    watermarkSeed: opts.watermarkSeed,
    onProgress: (p) => report(0.85 + 0.15 * p),
  });
  report(1);
  return result;
}
