import { MSG } from '../messages';
import { CHAT_ERRORS } from './errors';
import { CHAT_MODEL_PICKS, DEFAULT_MODEL_ID, chatModelsResponseSchema, chatRefusalSchema, pickAsModel, type ChatModelsResponse } from './models';
import { jsonOf, refusalText } from '../api-answer';
import type { ChatRequestInput } from './schema';
import { readSse } from './sse';
import { decodeEvent, type ReadDocument, type ReplyCut } from './stream-protocol';

/** A failed reply; `message` is the server's text for the bubble (fallback "Failed to get response from AI"). */
export class ChatRequestError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** With a 409 (the model is no longer served): the refreshed list. */
    readonly models?: ChatModelsResponse,
  ) {
    super(message || MSG.chatFailedShort);
    this.name = 'ChatRequestError';
  }
}

export async function fetchChatModels(signal?: AbortSignal): Promise<ChatModelsResponse> {
  try {
    const res = await fetch('/api/chat/models', { signal, headers: { accept: 'application/json' }, cache: 'no-store' });
    if (!res.ok) throw new Error(`HTTP ${res.status}`);
    // Read with the schema the server builds it from (src/lib/chat/models.ts).
    return chatModelsResponseSchema.parse(jsonOf(await res.text()));
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    // Unreachable, refused or not the list's shape: the curated list, unverified; the chat call reports the real state.
    return { models: CHAT_MODEL_PICKS.map(pickAsModel), defaultModel: DEFAULT_MODEL_ID, configured: true, verified: false };
  }
}

export interface StreamHandlers {
  signal: AbortSignal;
  onDelta: (text: string) => void;
  onReasoning?: (text: string) => void;
  onDocument?: (document: ReadDocument) => void;
}

/**
 * Sends one chat request and feeds the reply to the handlers as it streams (protocol:
 * src/lib/chat/stream-protocol.ts). Resolves when the reply is complete, with why it was cut if it was;
 * rejects with ChatRequestError, or with an AbortError when `signal` stops it.
 */
export async function streamChat(
  body: Omit<ChatRequestInput, 'agentId' | 'model'> & { agentId: string; model: string },
  { signal, onDelta, onReasoning, onDocument }: StreamHandlers,
): Promise<{ cut?: ReplyCut }> {
  let res: Response;
  try {
    res = await fetch('/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ChatRequestError(CHAT_ERRORS.unreachable);
  }
  if (!res.ok || !res.body) {
    // The chat's refusal (src/lib/chat/models.ts); a body of another shape keeps only its words, if any.
    const body = jsonOf(await res.text().catch(() => ''));
    const refusal = chatRefusalSchema.safeParse(body);
    if (refusal.success) throw new ChatRequestError(refusal.data.error, res.status, refusal.data.models);
    throw new ChatRequestError(refusalText(body) ?? '', res.status);
  }
  try {
    for await (const message of readSse(res.body)) {
      const event = decodeEvent(message.data);
      if (!event) continue;
      if ('delta' in event) onDelta(event.delta);
      else if ('reasoning' in event) onReasoning?.(event.reasoning);
      else if ('document' in event) onDocument?.(event.document);
      else if ('done' in event) return event.cut ? { cut: event.cut } : {};
      else throw new ChatRequestError(event.error);
    }
  } catch (error) {
    if (error instanceof ChatRequestError || (error as Error).name === 'AbortError') throw error;
    if (signal.aborted) throw new DOMException('Stopped', 'AbortError');
    throw new ChatRequestError(CHAT_ERRORS.dropped);
  }
  throw new ChatRequestError(CHAT_ERRORS.dropped);
}
