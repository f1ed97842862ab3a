import { apiUrl, isAllowedOutputUrl, readOutput } from './replicate-urls';
import { lenientRateLimiter, type RateLimiter } from '../rate-limit';
import { describeModel, modelPath } from './replicate-models';
import { ReplicateError, type ReplicateConnection, type ReplicateErrorKind, type ReplicateModel } from './replicate-types';

export { ReplicateError, type ReplicateConnection, type ReplicateErrorKind, type ReplicateModel };

/**
 * The one client of Replicate's predictions API, used by the hosted colorizer and the hosted video
 * engine: create a prediction, poll it until it settles (cancelling it when the caller gives up), fetch
 * its output through the URL guard. It speaks the protocol only; each provider words its own errors from
 * the ReplicateError kinds. Every prediction is billed, so the whole site starts at most
 * REPLICATE_DAILY_PREDICTIONS a day (counted in the database, across instances): past it, predict() refuses
 * before calling the API, as the API's own 429 would (the colorizer then falls back to the built-in one). A create
 * the API refuses gives its count back, so a misconfigured model cannot use the budget up.
 *
 * As Replicate documents its API now: a community model is run at its latest version (`POST /v1/predictions`
 * with `version`; the models endpoint answers 404 for it), an official model through
 * `POST /v1/models/{owner}/{name}/predictions` (replicate-models.ts tells which); `Cancel-After` asks Replicate
 * to cancel the prediction at the end of the caller's budget even if this process is gone; a 429 is retried
 * once after the time the API names, when that fits the budget; files above 256 KB go through `POST /v1/files`
 * and are deleted after the run.
 */

/** How often a running prediction is polled, unless REPLICATE_POLL_MS says. */
export const REPLICATE_POLL_MS_DEFAULT = 1000;
/** Predictions the site may start per day, unless REPLICATE_DAILY_PREDICTIONS says. */
export const REPLICATE_DAILY_PREDICTIONS_DEFAULT = 300;
const DEFAULT_BASE_URL = 'https://api.replicate.com';


type Env = Record<string, string | undefined>;

/** Data URLs are for small files: Replicate's API documents them for files up to 256 KB, `POST /v1/files` above. */
export const INLINE_INPUT_MAX_BYTES = 256 * 1024;

/**
 * The connection settings shared by both providers, or null without REPLICATE_API_TOKEN. REPLICATE_TIMEOUT_MS sets
 * the time budget of one run, never above `maxTimeoutMs` (the platform's limit for the function that runs it).
 */
export function replicateConnection(env: Env, defaultTimeoutMs: number, maxTimeoutMs = Infinity): ReplicateConnection | null {
  const token = env.REPLICATE_API_TOKEN?.trim();
  if (!token) return null;
  const pollMs = Number(env.REPLICATE_POLL_MS);
  const timeoutMs = Number(env.REPLICATE_TIMEOUT_MS);
  return {
    token,
    baseUrl: (env.REPLICATE_API_URL?.trim() || DEFAULT_BASE_URL).replace(/\/+$/, ''),
    pollMs: Number.isFinite(pollMs) && pollMs > 0 ? pollMs : REPLICATE_POLL_MS_DEFAULT,
    timeoutMs: Math.min(timeoutMs > 0 ? timeoutMs : defaultTimeoutMs, maxTimeoutMs),
  };
}

/** Predictions the whole site may start per day (REPLICATE_DAILY_PREDICTIONS, else the default). */
export function dailyPredictions(env: Env = process.env): number {
  const daily = Number(env.REPLICATE_DAILY_PREDICTIONS);
  return Number.isInteger(daily) && daily > 0 ? daily : REPLICATE_DAILY_PREDICTIONS_DEFAULT;
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
  /** The value of a file input: a data URL up to 256 KB, else a file uploaded with `POST /v1/files` (deleted by close()). */
  fileInput(bytes: Buffer, mime: string): Promise<string>;
  /** Deletes the files this run uploaded (best effort; call it in a `finally`). */
  close(): Promise<void>;
}

const BUDGET_KEY = 'provider:replicate:predictions';
const DAY = 86_400;

/**
 * The wait a 429 names: its Retry-After header (seconds or an HTTP date), else the "available in N seconds" of
 * Replicate's throttling message; null when it names none.
 */
export function retryAfterMs(res: Response, body: string, now = Date.now()): number | null {
  const header = res.headers.get('retry-after')?.trim();
  if (header) {
    const seconds = Number(header);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
    const date = Date.parse(header);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const said = /available in (\d+(?:\.\d+)?) seconds?/i.exec(body);
  return said ? Number(said[1]) * 1000 : null;
}

/** The `Cancel-After` value for what is left of a budget: whole seconds, never under the API's 5-second minimum. */
export const cancelAfterHeader = (remainingMs: number) => `${Math.max(5, Math.floor(remainingMs / 1000))}s`;

/**
 * One run against the API, bounded by `conn.timeoutMs` from now and by the caller's `signal`. When the
 * caller aborts, its own reason is thrown (not a ReplicateError), so it is never reported as a service fault.
 */
export function replicateRun(conn: ReplicateConnection, signal?: AbortSignal, budget: RateLimiter = lenientRateLimiter()): ReplicateRun {
  const deadline = Date.now() + conn.timeoutMs;
  const auth = { Authorization: `Bearer ${conn.token}` };
  const uploaded: string[] = [];

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

  /** An API request answered with a JSON object; `retry429` retries a 429 once after the wait it names, within the budget. */
  const api = async <T extends object = Prediction>(url: string, init: () => RequestInit = () => ({}), retry429 = false): Promise<T> => {
    for (let attempt = 0; ; attempt++) {
      const options = init();
      const res = await call(url, { ...options, headers: { ...auth, ...options.headers } });
      let text: string;
      try {
        text = await res.text();
      } catch (error) {
        throw failed(error, 'bad-answer');
      }
      if (res.status === 429 && retry429 && attempt === 0) {
        const wait = retryAfterMs(res, text);
        // Retried only when the wait leaves time for the request itself (a second) within the budget.
        if (wait !== null && Date.now() + wait + 1000 < deadline) {
          await pause(wait, signal);
          if (signal?.aborted) throw signal.reason;
          continue;
        }
      }
      if (!res.ok) throw new ReplicateError('http', problemDetail(text, res.statusText), res.status);
      try {
        const body = JSON.parse(text) as T | null;
        if (body && typeof body === 'object') return body;
      } catch {
        /* reported below */
      }
      throw new ReplicateError('bad-answer');
    }
  };

  const predictionUrl = (id: string, action = '') => `${conn.baseUrl}/v1/predictions/${id}${action}`;

  /** Stops paying for a prediction nobody will collect (best effort; it may be finished already). */
  const cancel = async (prediction: Prediction) => {
    if (!prediction.id || SETTLED.includes(prediction.status ?? '')) return;
    const url = apiUrl(prediction.urls?.cancel, conn.baseUrl, predictionUrl(prediction.id, '/cancel'));
    await fetch(url, { method: 'POST', headers: auth, signal: AbortSignal.timeout(5000) }).catch(() => {});
  };

  return {
    async predict(model, input, onPoll) {
      // Which endpoint: resolved before anything is counted (a GET, not a prediction).
      const target = await describeModel(conn, model, signal);
      const { allowed } = await budget.hit(BUDGET_KEY, dailyPredictions(), DAY);
      if (!allowed) throw new ReplicateError('http', "the site's daily budget for the hosted AI service is spent; try again tomorrow", 429);
      const createUrl = target.official ? `${conn.baseUrl}/v1/models/${modelPath(model.model!)}/predictions` : `${conn.baseUrl}/v1/predictions`;
      const body = JSON.stringify(target.official ? { input } : { version: target.version, input });
      let prediction: Prediction;
      try {
        prediction = await api(createUrl, () => ({
          method: 'POST',
          // Replicate cancels the prediction at the end of the budget even if this function is ended first.
          headers: { 'Content-Type': 'application/json', 'Cancel-After': cancelAfterHeader(deadline - Date.now()) },
          body,
        }), true);
      } catch (error) {
        // The API refused to create it (unknown model, invalid input, its own limit): nothing to pay for.
        if (error instanceof ReplicateError && error.kind === 'http') await budget.refund?.(BUDGET_KEY, DAY).catch(() => {});
        throw error;
      }
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

    async fileInput(bytes, mime) {
      if (bytes.length <= INLINE_INPUT_MAX_BYTES) return `data:${mime};base64,${bytes.toString('base64')}`;
      const extension = mime.split('/')[1]?.replace('jpeg', 'jpg') ?? 'bin';
      const file = await api<{ id?: string; urls?: { get?: string } }>(`${conn.baseUrl}/v1/files`, () => {
        const form = new FormData();
        form.append('content', new Blob([new Uint8Array(bytes)], { type: mime }), `photo.${extension}`);
        form.append('filename', `photo.${extension}`);
        form.append('type', mime);
        return { method: 'POST', body: form };
      }, true);
      if (!file.id) throw new ReplicateError('bad-answer', 'no file id');
      uploaded.push(file.id);
      return file.urls?.get || `${conn.baseUrl}/v1/files/${file.id}`;
    },

    async close() {
      const ids = uploaded.splice(0);
      await Promise.all(
        ids.map((id) =>
          fetch(`${conn.baseUrl}/v1/files/${encodeURIComponent(id)}`, { method: 'DELETE', headers: auth, signal: AbortSignal.timeout(5000) }).catch(() => {}),
        ),
      );
    },
  };
}
