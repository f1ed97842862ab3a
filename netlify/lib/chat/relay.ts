import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { readSse } from '../../../src/lib/chat/sse';
import { encodeEvent, type ChatStreamEvent } from '../../../src/lib/chat/stream-protocol';
import { errorMessageOf, redact } from './upstream';
import type { Usage } from './spend';

export interface RelayEnd {
  /** The provider's usage (the last chunk's `usage`), when it sent one. */
  usage: Usage | null;
  /** The reply reached the visitor whole (done, cut included). */
  replied: boolean;
}

interface RelayOptions {
  idleTimeoutMs: number;
  /** Milliseconds left before the platform's time limit: the reply is ended, and said so, just before. */
  timeLimitMs: number;
  /** Aborting it stops the upstream request. */
  upstream: AbortController;
  apiKey: string | null;
  /** Events sent before the reply (the documents the server read). */
  lead?: ChatStreamEvent[];
  /** Called once when the stream ends, however it ends (settles the spend). */
  onEnd?: (end: RelayEnd) => void;
  /** The operator's log line for a mid-stream failure. */
  log?: (line: string) => void;
}

interface UpstreamChunk {
  error?: unknown;
  usage?: Usage;
  choices?: { delta?: { content?: unknown; reasoning?: unknown; reasoning_content?: unknown }; finish_reason?: string | null }[];
}

/**
 * Turns the upstream chat-completions SSE stream into the hub's protocol (src/lib/chat/stream-protocol)
 * as chunks arrive. Every stream ends with exactly one `done` or `error` event, unless the visitor left.
 */
export function relayCompletion(body: ReadableStream<Uint8Array>, options: RelayOptions): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const log = options.log ?? ((line: string) => console.error(line));
  let cancelled = false;
  let idle = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let usage: Usage | null = null;
  let ended = false;
  let deadline: ReturnType<typeof setTimeout> | undefined;
  const end = (replied: boolean) => {
    if (ended) return;
    ended = true;
    options.onEnd?.({ usage, replied });
  };
  const touch = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      idle = true;
      options.upstream.abort();
    }, options.idleTimeoutMs);
  };
  // Any bytes, keep-alive comments (": OPENROUTER PROCESSING") included, prove the upstream is still alive.
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
      let outOfTime = false;
      const finish = (event: ChatStreamEvent) => {
        if (ended) return;
        send(event);
        clearTimeout(timer);
        clearTimeout(deadline);
        options.upstream.abort();
        if (!cancelled) controller.close();
        end('done' in event);
      };
      for (const event of options.lead ?? []) send(event);
      deadline = setTimeout(() => {
        outOfTime = true;
        finish({ done: true, cut: 'time' });
      }, options.timeLimitMs);

      const run = async () => {
        touch();
        let finishReason: string | null = null;
        for await (const message of readSse(watched)) {
          if (message.data === '[DONE]') break;
          let chunk: UpstreamChunk;
          try {
            chunk = JSON.parse(message.data) as UpstreamChunk;
          } catch {
            continue; // Not JSON: not a chunk we understand; keep reading.
          }
          if (chunk.usage && typeof chunk.usage === 'object') usage = chunk.usage;
          const failure = errorMessageOf(chunk);
          if (failure) {
            log(`[chat] upstream mid-stream error: ${redact(failure, options.apiKey)}`);
            return finish({ error: CHAT_ERRORS.midStream });
          }
          const choice = chunk.choices?.[0];
          const reasoning = choice?.delta?.reasoning ?? choice?.delta?.reasoning_content;
          if (typeof reasoning === 'string' && reasoning) send({ reasoning });
          const delta = choice?.delta?.content;
          if (typeof delta === 'string' && delta) send({ delta });
          if (choice?.finish_reason === 'error') {
            log('[chat] upstream mid-stream error: finish_reason "error"');
            return finish({ error: CHAT_ERRORS.midStream });
          }
          if (choice?.finish_reason) finishReason = choice.finish_reason;
          // The usage chunk comes after the finish_reason one: keep reading until [DONE] or the end.
        }
        if (finishReason === 'length') return finish({ done: true, cut: 'length' });
        // Some OpenAI-compatible servers end without [DONE]; a finish_reason means the answer is whole.
        finish(finishReason ? { done: true } : { error: CHAT_ERRORS.dropped });
      };

      run().catch(() => {
        if (cancelled || outOfTime) return;
        finish({ error: idle ? CHAT_ERRORS.idleTimeout : CHAT_ERRORS.dropped });
      });
    },
    cancel() {
      // The visitor stopped or left: stop paying for tokens nobody will read.
      cancelled = true;
      clearTimeout(timer);
      clearTimeout(deadline);
      options.upstream.abort();
      end(false);
    },
  });
}

/** The same protocol for a non-streamed completion: its whole text as one delta (choices[0].message.content). */
export function relayJsonCompletion(body: ReadableStream<Uint8Array>, options: Pick<RelayOptions, 'apiKey' | 'lead' | 'onEnd' | 'log'>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const log = options.log ?? ((line: string) => console.error(line));
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (event: ChatStreamEvent) => controller.enqueue(encoder.encode(encodeEvent(event)));
      for (const event of options.lead ?? []) send(event);
      let usage: Usage | null = null;
      let replied = false;
      try {
        const json = (await new Response(body).json()) as {
          usage?: Usage;
          choices?: { message?: { content?: unknown; reasoning?: unknown }; finish_reason?: string | null }[];
        };
        usage = json.usage ?? null;
        const failure = errorMessageOf(json);
        const choice = json.choices?.[0];
        const content = choice?.message?.content;
        if (failure) {
          log(`[chat] upstream error in a JSON completion: ${redact(failure, options.apiKey)}`);
          send({ error: CHAT_ERRORS.midStream });
        } else if (typeof content === 'string') {
          if (typeof choice?.message?.reasoning === 'string' && choice.message.reasoning) send({ reasoning: choice.message.reasoning });
          if (content) send({ delta: content });
          send(choice?.finish_reason === 'length' ? { done: true, cut: 'length' } : { done: true });
          replied = true;
        } else send({ error: CHAT_ERRORS.upstreamFailed });
      } catch {
        send({ error: CHAT_ERRORS.dropped });
      }
      controller.close();
      options.onEnd?.({ usage, replied });
    },
  });
}
