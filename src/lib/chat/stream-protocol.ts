import { z } from '../zod';
import { jsonOf } from '../api-answer';

/**
 * The hub's own server-sent-event protocol, between POST /api/chat and the island. Each event is one
 * `data:` line holding JSON:
 *   data: {"document":{"filename":"…","text":"…"}}  an attachment's text as the server read it (first,
 *                                                    before any delta): the island keeps it in the conversation
 *   data: {"reasoning":"text"}  a piece of a reasoning model's thinking, in order
 *   data: {"delta":"text"}      a piece of the reply, in order
 *   data: {"done":true}         the reply is complete (always the last event of a good stream);
 *                               `"cut":"length"` the reply cap ended it, `"cut":"time"` the time limit did
 *   data: {"error":"text"}      the reply failed; the text is for the user (always the last event)
 * Lines starting with ':' are keep-alive comments. A stream that ends without done or error was cut.
 */
const replyCutSchema = z.enum(['length', 'time']);
export type ReplyCut = z.infer<typeof replyCutSchema>;

const readDocumentSchema = z.object({ filename: z.string(), text: z.string() });
export type ReadDocument = z.infer<typeof readDocumentSchema>;

/** One event, as the server encodes it and the island reads it (an unknown `cut` reads as none). */
export const chatStreamEventSchema = z.union([
  z.object({ delta: z.string() }),
  z.object({ reasoning: z.string() }),
  z.object({ document: readDocumentSchema }),
  z.object({ done: z.literal(true), cut: replyCutSchema.optional().catch(undefined) }),
  z.object({ error: z.string() }),
]);
export type ChatStreamEvent = z.infer<typeof chatStreamEventSchema>;

export function encodeEvent(event: ChatStreamEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

/** An event read with its schema; anything else (not JSON, not ours) is null and ignored like any unknown event. */
export function decodeEvent(data: string): ChatStreamEvent | null {
  const parsed = chatStreamEventSchema.safeParse(jsonOf(data));
  if (!parsed.success) return null;
  const event = parsed.data;
  // Only the fields of the event's kind travel on (a done event without a known cut is a plain done).
  if ('done' in event) return event.cut ? { done: true, cut: event.cut } : { done: true };
  return event;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;
