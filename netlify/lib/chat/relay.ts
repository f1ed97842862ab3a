import { MSG } from '../../../src/lib/messages';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { readSse } from '../../../src/lib/chat/sse';
import { encodeEvent, type ChatStreamEvent } from '../../../src/lib/chat/stream-protocol';
import { errorMessageOf, redact } from './upstream';

interface RelayOptions {
  idleTimeoutMs: number;
  /** Aborting it stops the upstream request. */
  upstream: AbortController;
  apiKey: string;
}

/**
 * Turns the upstream chat-completions SSE stream into the hub's protocol (src/lib/chat/stream-protocol)
 * as chunks arrive. Every stream ends with exactly one `done` or `error` event, unless the visitor left.
 */
export function relayCompletion(body: ReadableStream<Uint8Array>, options: RelayOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cancelled = false;
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      idle = true;
      options.upstream.abort();
    }, options.idleTimeoutMs);
  };
  // Any bytes, keep-alive comments included, prove the upstream is still alive.
  const watched = body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        touch();
        controller.enqueue(chunk);
      },
    }),
  );

  return new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (event: ChatStreamEvent) => {
        if (!cancelled) controller.enqueue(encoder.encode(encodeEvent(event)));
      };
      const finish = (event: ChatStreamEvent) => {
        send(event);
        clearTimeout(timer);
        options.upstream.abort();
        if (!cancelled) controller.close();
      };

      const run = async () => {
        touch();
        let finished = false;
        for await (const message of readSse(watched)) {
          if (message.data === '[DONE]') return finish({ done: true });
          let chunk: UpstreamChunk;
          try {
            chunk = JSON.parse(message.data) as UpstreamChunk;
          } catch {
            continue; // Not JSON: not a chunk we understand; keep reading.
          }
          const failure = errorMessageOf(chunk);
          if (failure) return finish({ error: redact(failure, options.apiKey) });
          const choice = chunk.choices?.[0];
          const delta = choice?.delta?.content;
          if (typeof delta === 'string' && delta) send({ delta });
          if (choice?.finish_reason === 'error') return finish({ error: MSG.chatFailedShort });
          if (choice?.finish_reason) finished = true;
        }
        // Some OpenAI-compatible servers end without [DONE]; a finish_reason means the answer is whole.
        finish(finished ? { done: true } : { error: CHAT_ERRORS.dropped });
      };

      run().catch(() => {
        if (cancelled) return;
        finish({ error: idle ? CHAT_ERRORS.idleTimeout : CHAT_ERRORS.dropped });
      });
    },
    cancel() {
      // The visitor stopped or left: stop paying for tokens nobody will read.
      cancelled = true;
      clearTimeout(timer);
      options.upstream.abort();
    },
  });
}

interface UpstreamChunk {
  error?: unknown;
  choices?: { delta?: { content?: unknown }; finish_reason?: string | null }[];
}

/** The same protocol for a non-streamed completion: its whole text as one delta (choices[0].message.content). */
export function relayJsonCompletion(body: ReadableStream<Uint8Array>, apiKey: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: ChatStreamEvent) => controller.enqueue(encoder.encode(encodeEvent(event)));
      try {
        const json = (await new Response(body).json()) as { choices?: { message?: { content?: unknown } }[] };
        const failure = errorMessageOf(json);
        const content = json.choices?.[0]?.message?.content;
        if (failure) send({ error: redact(failure, apiKey) });
        else if (typeof content === 'string') {
          if (content) send({ delta: content });
          send({ done: true });
        } else send({ error: MSG.chatFailedShort });
      } catch {
        send({ error: CHAT_ERRORS.dropped });
      }
      controller.close();
    },
  });
}
