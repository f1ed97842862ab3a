import { checkVideoInput } from './input';
import { abortError } from './ffmpeg';
import { finishHostedVideo } from './preview';
import type { RenderOptions, RenderResult } from './render';
import { apiUrl, isAllowedOutputUrl, readOutput } from '../providers/replicate-urls';
import { replicatePollMs } from '../providers/replicate-config';

// Hosted image-to-video through Replicate's predictions API: create → poll → download the MP4,
// then the watermarked preview is made locally (the hosted model knows nothing of our brand).

export type ReplicateConfig = {
  token: string;
  /** API origin, default https://api.replicate.com (tests point it at a local server). */
  baseUrl: string;
  /** "owner/name" (official model endpoint) or "owner/name:version" (explicit version). */
  model: string;
  /** Name of the model's image input; models differ ("image", "start_image", "first_frame_image"). */
  imageKey: string;
  /** Extra model inputs (e.g. duration, resolution) merged into every request. */
  extraInput: Record<string, unknown>;
  pollIntervalMs: number;
  timeoutMs: number;
};

export function replicateConfigFromEnv(env: Record<string, string | undefined>): ReplicateConfig | null {
  const token = env.REPLICATE_API_TOKEN?.trim();
  const model = env.REPLICATE_VIDEO_MODEL?.trim();
  if (!token || !model) return null;
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
    token,
    model,
    baseUrl: (env.REPLICATE_API_URL?.trim() || 'https://api.replicate.com').replace(/\/+$/, ''),
    imageKey: env.REPLICATE_VIDEO_IMAGE_KEY?.trim() || 'image',
    extraInput,
    pollIntervalMs: replicatePollMs(env),
    timeoutMs: Number(env.REPLICATE_TIMEOUT_MS) > 0 ? Number(env.REPLICATE_TIMEOUT_MS) : 10 * 60_000,
  };
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

type Prediction = {
  id: string;
  status: 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
  output?: unknown;
  error?: unknown;
  logs?: string | null;
  urls?: { get?: string; cancel?: string };
};

async function api<T>(config: ReplicateConfig, url: string, init: RequestInit, signal?: AbortSignal): Promise<T> {
  const res = await fetch(url, {
    ...init,
    signal,
    headers: { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json', ...init.headers },
  });
  const text = await res.text();
  let body: unknown = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* non-JSON error pages are reported by status below */
  }
  if (!res.ok) {
    const b = body as { detail?: string; title?: string } | null;
    const reason = b?.detail || b?.title || text.slice(0, 200) || res.statusText;
    throw new VideoEngineError(`Video service error (${res.status}): ${reason}`, res.status === 429 ? 503 : 502);
  }
  return body as T;
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

function outputUrl(output: unknown): string | null {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return output.map(outputUrl).find((u) => u) ?? null;
  if (output && typeof output === 'object') {
    const o = output as Record<string, unknown>;
    return outputUrl(o.video ?? o.url ?? o.output);
  }
  return null;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(t);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

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
  const [owner, rest = ''] = config.model.split('/');
  const [name, version] = rest.split(':');
  const create = version
    ? api<Prediction>(config, `${config.baseUrl}/v1/predictions`, { method: 'POST', body: JSON.stringify({ version, input }) }, signal)
    : api<Prediction>(config, `${config.baseUrl}/v1/models/${owner}/${name}/predictions`, { method: 'POST', body: JSON.stringify({ input }) }, signal);
  let prediction = await create;
  if (!prediction?.id) throw new VideoEngineError('Video service returned no prediction id');
  const getUrl = apiUrl(prediction.urls?.get, config.baseUrl, `${config.baseUrl}/v1/predictions/${prediction.id}`);
  const cancelUrl = apiUrl(prediction.urls?.cancel, config.baseUrl, `${config.baseUrl}/v1/predictions/${prediction.id}/cancel`);
  const deadline = Date.now() + config.timeoutMs;
  let reported = 0;
  const report = (p: number) => {
    reported = Math.max(reported, p); // never move backwards
    onProgress?.(reported);
  };

  try {
    // Progress budget: queue 0–5 %, model 5–80 %, download 80–85 %, local preview 85–100 %.
    while (prediction.status !== 'succeeded') {
      if (prediction.status === 'failed') {
        throw new VideoEngineError(`Video generation failed: ${String(prediction.error ?? 'unknown error')}`);
      }
      if (prediction.status === 'canceled' || prediction.status === 'aborted') {
        throw new VideoEngineError('Video generation was canceled by the service');
      }
      if (prediction.status === 'starting') report(0.02);
      else {
        const p = logProgress(prediction.logs);
        report(p === null ? Math.min(0.75, reported + 0.02) : 0.05 + 0.75 * p);
      }
      if (Date.now() > deadline) throw new VideoEngineError('Video generation timed out', 504);
      await sleep(config.pollIntervalMs, signal);
      prediction = await api<Prediction>(config, getUrl, { method: 'GET' }, signal);
    }
  } catch (err) {
    // Stop paying for a prediction nobody will collect.
    if (signal?.aborted || (err instanceof VideoEngineError && err.status === 504)) {
      await fetch(cancelUrl, { method: 'POST', headers: { Authorization: `Bearer ${config.token}` } }).catch(() => {});
    }
    throw signal?.aborted ? abortError(signal) : err;
  }
  report(0.8);

  const url = outputUrl(prediction.output);
  if (!url) throw new VideoEngineError('Video service returned no video');
  if (!isAllowedOutputUrl(url, config.baseUrl)) throw new VideoEngineError('Video service named an output on a host it does not use');
  const res = await fetch(url, { signal });
  if (!res.ok) throw new VideoEngineError(`Could not download the generated video (${res.status})`);
  let mp4: Buffer;
  try {
    mp4 = await readOutput(res);
  } catch (error) {
    throw new VideoEngineError(error instanceof Error ? error.message : 'Could not download the generated video');
  }
  report(0.85);
  const result = await finishHostedVideo(mp4, opts.watermarkText, {
    signal,
    onProgress: (p) => report(0.85 + 0.15 * p),
  });
  report(1);
  return result;
}
