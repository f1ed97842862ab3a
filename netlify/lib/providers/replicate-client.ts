import { apiUrl, isAllowedOutputUrl, readOutput } from './replicate-urls';
import { lenientRateLimiter, type RateLimiter } from '../rate-limit';

/**
 * The one client of Replicate's predictions API, used by the hosted colorizer and the hosted video
 * engine: create a prediction, poll it until it settles (cancelling it when the caller gives up), fetch
 * its output through the URL guard. It speaks the protocol only; each provider words its own errors from
 * the ReplicateError kinds. Every prediction is billed, so the whole site starts at most
 * REPLICATE_DAILY_PREDICTIONS a day (counted in the database, across instances): past it, predict() refuses
 * before calling the API, as the API's own 429 would (the colorizer then falls back to the built-in one).
 */

/** How often a running prediction is polled, unless REPLICATE_POLL_MS says. */
export const REPLICATE_POLL_MS_DEFAULT = 1000;
/** Predictions the site may start per day, unless REPLICATE_DAILY_PREDICTIONS says. */
export const REPLICATE_DAILY_PREDICTIONS_DEFAULT = 300;
const DEFAULT_BASE_URL = 'https://api.replicate.com';

export interface ReplicateConnection {
  token: string;
  /** API origin, default https://api.replicate.com (tests point it at a local server). */
  baseUrl: string;
  pollMs: number;
  /** Bound on one whole run: create, polling and the download of the output. */
  timeoutMs: number;
}

type Env = Record<string, string | undefined>;

/** The connection settings shared by both providers, or null without REPLICATE_API_TOKEN. */
export function replicateConnection(env: Env, defaultTimeoutMs: number): ReplicateConnection | null {
  const token = env.REPLICATE_API_TOKEN?.trim();
  if (!token) return null;
  const pollMs = Number(env.REPLICATE_POLL_MS);
  const timeoutMs = Number(env.REPLICATE_TIMEOUT_MS);
  return {
    token,
    baseUrl: (env.REPLICATE_API_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, ''),
    pollMs: Number.isFinite(pollMs) && pollMs > 0 ? pollMs : REPLICATE_POLL_MS_DEFAULT,
    timeoutMs: timeoutMs > 0 ? timeoutMs : defaultTimeoutMs,
  };
}

/** Predictions the whole site may start per day (REPLICATE_DAILY_PREDICTIONS, else the default). */
export function dailyPredictions(env: Env = process.env): number {
  const daily = Number(env.REPLICATE_DAILY_PREDICTIONS);
  return Number.isInteger(daily) && daily > 0 ? daily : REPLICATE_DAILY_PREDICTIONS_DEFAULT;
}

/** Which model runs: an official model "owner/name", or a version id (which wins when both are set). */
export interface ReplicateModel {
  model?: string;
  version?: string;
}

/** "owner/name" or "owner/name:version", as Replicate's pages show models. */
export function parseModel(spec: string | undefined): ReplicateModel {
  const [model = '', version = ''] = (spec?.trim() ?? '').split(':');
  return { model: model || undefined, version: version || undefined };
}

export type Prediction = {
  id?: string;
  status?: string;
  output?: unknown;
  error?: unknown;
  logs?: string | null;
  urls?: { get?: string; cancel?: string };
};

export type ReplicateErrorKind =
  /** The API answered an error status (`status`, and its `detail` text). */
  | 'http'
  | 'unreachable'
  | 'timeout'
  /** Not JSON, or no prediction id. */
  | 'bad-answer'
  /** The prediction failed (`detail`: the model's error). */
  | 'failed'
  | 'canceled'
  | 'no-output'
  /** The output is on a host the API does not use. */
  | 'output-host'
  /** The output could not be downloaded (`status` when the host answered an error). */
  | 'download';

export class ReplicateError extends Error {
  constructor(
    readonly kind: ReplicateErrorKind,
    readonly detail = '',
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(`Replicate ${kind}${status ? ` (HTTP ${status})` : ''}${detail ? `: ${detail}` : ''}`, options);
    this.name = 'ReplicateError';
  }
}

const SETTLED = ['succeeded', 'failed', 'canceled', 'aborted'];

/** The first URL in a model's output, whatever its shape (a string, a list, an object of fields: `prefer` first). */
export function firstUrl(output: unknown, prefer: readonly string[] = []): string | null {
  if (typeof output === 'string') return /^(https?:|data:)/i.test(output) ? output : null;
  if (Array.isArray(output)) {
    for (const o of output) {
      const url = firstUrl(o, prefer);
      if (url) return url;
    }
  } else if (output && typeof output === 'object') {
    const fields = output as Record<string, unknown>;
    for (const value of [...prefer.map((k) => fields[k]), ...Object.values(fields)]) {
      const url = firstUrl(value, prefer);
      if (url) return url;
    }
  }
  return null;
}

/** Waits `ms`, or less when `signal` aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Error text of a problem-details answer (Replicate's `detail` or `title`), else the start of the body. */
function problemDetail(text: string, statusText: string): string {
  try {
    const body = JSON.parse(text) as { detail?: unknown; title?: unknown } | null;
    const detail = body?.detail || body?.title;
    if (typeof detail === 'string' && detail) return detail;
  } catch {
    /* not JSON: the body itself */
  }
  return text.slice(0, 200) || statusText;
}

export interface ReplicateRun {
  /** Creates a prediction of `model` with `input` and polls it until it succeeds; `onPoll` sees each unsettled state. */
  predict(model: ReplicateModel, input: Record<string, unknown>, onPoll?: (prediction: Prediction) => void): Promise<Prediction>;
  /** Downloads an output URL (or data: URI) the guard allows, size-capped. */
  download(url: string): Promise<Buffer>;
}

/**
 * One run against the API, bounded by `conn.timeoutMs` from now and by the caller's `signal`. When the
 * caller aborts, its own reason is thrown (not a ReplicateError), so it is never reported as a service fault.
 */
export function replicateRun(conn: ReplicateConnection, signal?: AbortSignal, budget: RateLimiter = lenientRateLimiter()): ReplicateRun {
  const deadline = Date.now() + conn.timeoutMs;
  const auth = { Authorization: `Bearer ${conn.token}` };

  /** What a failed request or body read means: the caller's abort, the time budget spent, or `otherwise`. */
  const failed = (cause: unknown, otherwise: ReplicateErrorKind, timedOut = false): unknown => {
    if (signal?.aborted) return signal.reason;
    if (timedOut || Date.now() >= deadline) return new ReplicateError('timeout', '', undefined, { cause });
    return new ReplicateError(otherwise, cause instanceof Error ? cause.message : '', undefined, { cause });
  };

  /** One request, bounded by the caller's signal and what is left of the time budget. */
  const call = async (url: string, init: RequestInit): Promise<Response> => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new ReplicateError('timeout');
    const timeout = AbortSignal.timeout(remaining);
    try {
      return await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      throw failed(error, 'unreachable', timeout.aborted);
    }
  };

  /** An API request answered with a prediction. */
  const api = async (url: string, init: RequestInit = {}): Promise<Prediction> => {
    const res = await call(url, { ...init, headers: { ...auth, ...init.headers } });
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      throw failed(error, 'bad-answer');
    }
    if (!res.ok) throw new ReplicateError('http', problemDetail(text, res.statusText), res.status);
    try {
      const prediction = JSON.parse(text) as Prediction | null;
      if (prediction && typeof prediction === 'object') return prediction;
    } catch {
      /* reported below */
    }
    throw new ReplicateError('bad-answer');
  };

  const predictionUrl = (id: string, action = '') => `${conn.baseUrl}/v1/predictions/${id}${action}`;

  /** Stops paying for a prediction nobody will collect (best effort; it may be finished already). */
  const cancel = async (prediction: Prediction) => {
    if (!prediction.id || SETTLED.includes(prediction.status ?? '')) return;
    const url = apiUrl(prediction.urls?.cancel, conn.baseUrl, predictionUrl(prediction.id, '/cancel'));
    await fetch(url, { method: 'POST', headers: auth, signal: AbortSignal.timeout(5000) }).catch(() => {});
  };

  return {
    async predict({ model, version }, input, onPoll) {
      const { allowed } = await budget.hit('provider:replicate:predictions', dailyPredictions(), 86_400);
      if (!allowed) throw new ReplicateError('http', "the site's daily budget for the hosted AI service is spent; try again tomorrow", 429);
      const createUrl = version ? `${conn.baseUrl}/v1/predictions` : `${conn.baseUrl}/v1/models/${model}/predictions`;
      const body = JSON.stringify(version ? { version, input } : { input });
      let prediction = await api(createUrl, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
      if (!prediction.id) throw new ReplicateError('bad-answer', 'no prediction id');
      const getUrl = apiUrl(prediction.urls?.get, conn.baseUrl, predictionUrl(prediction.id));
      try {
        while (prediction.status !== 'succeeded') {
          if (prediction.status === 'failed') throw new ReplicateError('failed', String(prediction.error ?? 'unknown error'));
          if (prediction.status === 'canceled' || prediction.status === 'aborted') throw new ReplicateError('canceled');
          onPoll?.(prediction);
          const wait = Math.min(conn.pollMs, deadline - Date.now());
          if (wait <= 0) throw new ReplicateError('timeout');
          await pause(wait, signal);
          if (signal?.aborted) throw signal.reason;
          const next = await api(getUrl);
          prediction = { ...next, id: next.id ?? prediction.id, urls: next.urls ?? prediction.urls };
        }
      } catch (error) {
        await cancel(prediction);
        throw error;
      }
      return prediction;
    },

    async download(url) {
      if (!url.startsWith('data:') && !isAllowedOutputUrl(url, conn.baseUrl)) throw new ReplicateError('output-host');
      // No token: an output host is not the API (and the guard above keeps the request on known hosts).
      const res = await call(url, {});
      if (!res.ok) throw new ReplicateError('download', '', res.status);
      try {
        return await readOutput(res);
      } catch (error) {
        throw failed(error, 'download');
      }
    },
  };
}
