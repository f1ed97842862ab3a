import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import type { ChatConfig } from './config';
import type { UpstreamMessage } from './upstream-messages';

export interface UpstreamPayload {
  model: string;
  messages: UpstreamMessage[];
  temperature: number;
  top_p: number;
  frequency_penalty: number;
  presence_penalty: number;
  /** The reply cap: the model's price tier, never above the provider's maximum (ChatModel.maxOutputTokens). */
  max_tokens: number;
}

/** Why the provider refused, as the hub answers it: one mapping for every status. */
export type UpstreamFailureKind = 'model-gone' | 'auth' | 'moderated' | 'credit' | 'rate-limited' | 'timeout' | 'unreachable' | 'cancelled' | 'failed';

export type UpstreamOpen =
  | { ok: true; body: ReadableStream<Uint8Array>; streamed: boolean; controller: AbortController; requestId: string }
  | { ok: false; kind: UpstreamFailureKind; status: number; message: string; headers?: Record<string, string> };

export interface UpstreamContext {
  /** Our id for this request, sent as X-Request-Id and logged with every failure. */
  requestId: string;
  log?: (line: string) => void;
}

/**
 * Starts a streamed chat completion. Resolves once the response headers arrive (or the first-byte
 * timeout passes); the caller owns `controller` and aborts it to stop the upstream request.
 */
export async function openUpstream(
  config: ChatConfig,
  payload: UpstreamPayload,
  clientSignal: AbortSignal | undefined,
  context: UpstreamContext,
): Promise<UpstreamOpen> {
  const log = context.log ?? ((line: string) => console.error(line));
  const controller = new AbortController();
  // Kept for the whole stream: a visitor who goes away stops the upstream request too.
  clientSignal?.addEventListener('abort', () => controller.abort(), { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.firstByteTimeoutMs);
  const logFailure = (status: number | string, cause: string, detail: string, providerId?: string | null) =>
    log(
      `[chat] upstream ${status} model=${payload.model} request=${context.requestId}${providerId ? ` provider-request=${providerId}` : ''}: ${cause}` +
        (detail ? ` — ${redact(detail, config.apiKey)}` : ''),
    );

  try {
    const res = await fetch(`${config.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'HTTP-Referer': config.siteUrl,
        'X-Title': config.appTitle,
        'X-Request-Id': context.requestId,
      },
      // include_usage: the last chunk carries the token counts (and OpenRouter's cost) the spend is settled with.
      body: JSON.stringify({ ...payload, stream: true, stream_options: { include_usage: true } }),
      signal: controller.signal,
    });
    if (!res.ok || !res.body) {
      const detail = await upstreamErrorMessage(res);
      controller.abort();
      const failure = mapUpstreamFailure(res.status, detail, res.headers.get('retry-after'));
      logFailure(res.status, failure.cause, detail, res.headers.get('x-generation-id') ?? res.headers.get('x-request-id'));
      return { ok: false, kind: failure.kind, status: failure.status, message: failure.message, headers: failure.headers };
    }
    // Some OpenAI-compatible servers ignore `stream: true` and answer with one JSON completion.
    const streamed = !/application\/json/i.test(res.headers.get('content-type') ?? '');
    return { ok: true, body: res.body, streamed, controller, requestId: context.requestId };
  } catch (error) {
    if (timedOut) {
      logFailure('timeout', `no answer within ${config.firstByteTimeoutMs} ms`, '');
      return { ok: false, kind: 'timeout', status: 504, message: CHAT_ERRORS.firstByteTimeout };
    }
    if (clientSignal?.aborted) return { ok: false, kind: 'cancelled', status: 499, message: 'The request was cancelled.' };
    logFailure('unreachable', `could not reach ${config.baseUrl}`, (error as Error).message);
    return { ok: false, kind: 'unreachable', status: 502, message: CHAT_ERRORS.unreachable };
  } finally {
    clearTimeout(timer);
  }
}

const MODEL_GONE = /not a valid model|no endpoints found|model .*(not found|does not exist|is not available|unavailable)|unknown model|model_not_found|invalid model/i;

/**
 * One mapping of provider failures to what the visitor reads (never the provider's text) and what the
 * operator's log says. `cause` is the log's reason.
 */
export function mapUpstreamFailure(
  status: number,
  detail: string,
  retryAfter: string | null,
): { kind: UpstreamFailureKind; status: number; message: string; cause: string; headers?: Record<string, string> } {
  if ((status === 400 || status === 404) && MODEL_GONE.test(detail)) {
    return { kind: 'model-gone', status: 409, message: CHAT_ERRORS.modelGone, cause: 'the provider no longer serves this model; the catalogue is refreshed' };
  }
  if (status === 403 && /moderat|flagged/i.test(detail)) {
    return { kind: 'moderated', status: 400, message: CHAT_ERRORS.moderated, cause: "the provider's moderation flagged the input" };
  }
  if (status === 401 || status === 403) {
    return { kind: 'auth', status: 503, message: CHAT_ERRORS.notConfigured, cause: 'the provider refused the key: check CHAT_API_KEY' };
  }
  if (status === 402) {
    return { kind: 'credit', status: 503, message: CHAT_ERRORS.creditSpent, cause: "the provider account's credit is used up: add credit or raise the key's limit" };
  }
  if (status === 429) {
    const seconds = retryAfterSeconds(retryAfter) ?? 60;
    return {
      kind: 'rate-limited',
      status: 429,
      message: CHAT_ERRORS.providerBusy(seconds),
      cause: 'the provider is rate limiting this key',
      headers: { 'Retry-After': String(seconds) },
    };
  }
  return { kind: 'failed', status: 502, message: CHAT_ERRORS.upstreamFailed, cause: 'the provider answered an error' };
}

/** Retry-After in seconds (delta-seconds or an HTTP date), at least 1 and at most a day. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Math.ceil((Date.parse(value) - now) / 1000);
  return Number.isFinite(seconds) ? Math.min(86_400, Math.max(1, seconds)) : null;
}

/** `error.message` of an OpenAI/OpenRouter error body (for the log), else the body's first characters. */
async function upstreamErrorMessage(res: Response): Promise<string> {
  try {
    const text = (await res.text()).slice(0, 64_000);
    try {
      return errorMessageOf(JSON.parse(text)) ?? text.slice(0, 300);
    } catch {
      return text.slice(0, 300);
    }
  } catch {
    return '';
  }
}

export function errorMessageOf(body: unknown): string | null {
  if (!body || typeof body !== 'object') return null;
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string' && error.trim()) return error.trim().slice(0, 500);
  if (error && typeof error === 'object') {
    const message = (error as { message?: unknown }).message;
    if (typeof message === 'string' && message.trim()) return message.trim().slice(0, 500);
  }
  return null;
}

/** Provider texts are logged, so the key must never ride along in one. */
export function redact(text: string, secret: string | null): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}
