import { MSG } from '../../../src/lib/messages';
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
  /** The reply cap of the model's price tier (MAX_OUTPUT_TOKENS): bounds what one request costs. */
  max_tokens: number;
}

export type UpstreamOpen =
  | { ok: true; body: ReadableStream<Uint8Array>; streamed: boolean; controller: AbortController }
  | { ok: false; status: number; message: string };

/**
 * Starts a streamed chat completion. Resolves once the response headers arrive (or the first-byte
 * timeout passes); the caller owns `controller` and aborts it to stop the upstream request.
 */
export async function openUpstream(
  config: ChatConfig & { apiKey: string },
  payload: UpstreamPayload,
  clientSignal?: AbortSignal,
): Promise<UpstreamOpen> {
  const controller = new AbortController();
  // Kept for the whole stream: a visitor who goes away stops the upstream request too.
  clientSignal?.addEventListener('abort', () => controller.abort(), { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.firstByteTimeoutMs);

  try {
    const res = await fetch(`${config.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${config.apiKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'HTTP-Referer': config.siteUrl,
        'X-Title': config.appTitle,
      },
      body: JSON.stringify({ ...payload, stream: true }),
      signal: controller.signal,
    });
    if (!res.ok || !res.body) {
      const message = await upstreamErrorMessage(res);
      controller.abort();
      return { ok: false, status: 502, message: redact(message, config.apiKey) };
    }
    // Some OpenAI-compatible servers ignore `stream: true` and answer with one JSON completion.
    const streamed = !/application\/json/i.test(res.headers.get('content-type') ?? '');
    return { ok: true, body: res.body, streamed, controller };
  } catch {
    if (timedOut) return { ok: false, status: 504, message: CHAT_ERRORS.firstByteTimeout };
    if (clientSignal?.aborted) return { ok: false, status: 499, message: 'The request was cancelled.' };
    return { ok: false, status: 502, message: CHAT_ERRORS.unreachable };
  } finally {
    clearTimeout(timer);
  }
}

/** `error.message` of an OpenAI/OpenRouter error body, else the generic "Failed to get response from AI". */
async function upstreamErrorMessage(res: Response): Promise<string> {
  try {
    const text = (await res.text()).slice(0, 64_000);
    return errorMessageOf(JSON.parse(text)) ?? MSG.chatFailedShort;
  } catch {
    return MSG.chatFailedShort;
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

/** Upstream messages are relayed to the visitor, so the key must never ride along in one. */
export function redact(text: string, secret: string): string {
  return secret ? text.split(secret).join('[redacted]') : text;
}
