import sharp from 'sharp';
import { checkVideoInput, type ImageHeader, abortError, finishHostedVideo } from '../../../engines/video';
import type { RenderOptions, RenderResult } from '../../../engines/video';
import {
  firstUrl,
  parseModel,
  ReplicateError,
  replicateRun,
  type Prediction,
} from './replicate-client';
import { nearestAspectRatio, type ReplicatePreset } from './replicate-presets';
import { replicateConfigFromEnv, VIDEO_BUDGET_MAX_MS, VIDEO_BUDGET_MS, type ReplicateConfig } from './replicate-video-config';
import { VIDEO_DURATION_SECONDS } from '../../../src/lib/tool/video-modes';

// Hosted image-to-video through Replicate's predictions API (the one client, providers/replicate-client.ts):
// create → poll → download the MP4, then the clip is trimmed to the product's length and the watermarked preview
// is made locally (the hosted model knows nothing of our brand). A preset (providers/replicate-presets.ts) says
// which input carries the photo, the clip length, the aspect ratio and audio off; a custom model says it with
// REPLICATE_VIDEO_IMAGE_KEY and REPLICATE_VIDEO_INPUT.

/**
 * The job runs in a background function, which Netlify ends at 15 minutes: the hosted call has 10 minutes by
 * default and never more than 12 (REPLICATE_TIMEOUT_MS may only lower it), which leaves the download, the trim and
 * the preview their time. Replicate cancels the prediction at the same point (`Cancel-After`).
 */
export { replicateConfigFromEnv, VIDEO_BUDGET_MAX_MS, VIDEO_BUDGET_MS, type ReplicateConfig };

/** The side a photo above the model's byte limit is downscaled to (JPEG): far below every preset's 10 MB. */
const DOWNSCALED_SIDE = 2048;

/** The photo as the model may take it: as it is, or a downscaled JPEG when it is above the model's byte limit. */
async function photoForModel(image: Buffer, header: ImageHeader, preset: ReplicatePreset | undefined): Promise<{ bytes: Buffer; mime: string }> {
  const limit = preset?.maxImageBytes ?? 10 * 1024 * 1024;
  if (image.length <= limit) return { bytes: image, mime: `image/${header.format}` };
  const bytes = await sharp(image, { limitInputPixels: 40_000_000 })
    .rotate()
    .resize(DOWNSCALED_SIDE, DOWNSCALED_SIDE, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 90 })
    .toBuffer();
  return { bytes, mime: 'image/jpeg' };
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
  const aspect = config.preset?.aspectRatio;
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
    const photo = await photoForModel(image, header, config.preset);
    const input = {
      ...(aspect ? { [aspect.key]: nearestAspectRatio(header.width, header.height, aspect.choices) } : {}),
      ...config.extraInput,
      // A data URL up to 256 KB, else a file uploaded for this run and deleted after it.
      [config.imageKey]: await run.fileInput(photo.bytes, photo.mime),
      prompt: opts.prompt,
    };
    const prediction = await run.predict(parseModel(config.model), input, polled);
    report(0.8);
    const url = firstUrl(prediction.output, ['video', 'url', 'output']);
    if (!url) throw new ReplicateError('no-output');
    mp4 = await run.download(url);
  } catch (error) {
    if (signal?.aborted) throw abortError(signal);
    throw error instanceof ReplicateError ? engineError(error) : error;
  } finally {
    await run.close();
  }
  report(0.85);
  // A model that renders more than the product's length (Hailuo's 6 s, Wan's 81 frames) is trimmed to it.
  const result = await finishHostedVideo(mp4, opts.watermarkText, {
    maxSeconds: VIDEO_DURATION_SECONDS,
    signal,
    watermarkSeed: opts.watermarkSeed,
    onProgress: (p) => report(0.85 + 0.15 * p),
  });
  report(1);
  return result;
}
