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
export type ReplyCut = 'length' | 'time';

export interface ReadDocument {
  filename: string;
  text: string;
}

export type ChatStreamEvent =
  | { delta: string }
  | { reasoning: string }
  | { document: ReadDocument }
  | { done: true; cut?: ReplyCut }
  | { error: string };

export function encodeEvent(event: ChatStreamEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

export function decodeEvent(data: string): ChatStreamEvent | null {
  try {
    const value = JSON.parse(data) as Record<string, unknown>;
    if (typeof value.delta === 'string') return { delta: value.delta };
    if (typeof value.reasoning === 'string') return { reasoning: value.reasoning };
    const doc = value.document as Record<string, unknown> | undefined;
    if (doc && typeof doc.filename === 'string' && typeof doc.text === 'string') return { document: { filename: doc.filename, text: doc.text } };
    if (value.done === true) return value.cut === 'length' || value.cut === 'time' ? { done: true, cut: value.cut } : { done: true };
    if (typeof value.error === 'string') return { error: value.error };
  } catch {
    // Not ours: ignored like any unknown event.
  }
  return null;
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  'x-accel-buffering': 'no',
} as const;
