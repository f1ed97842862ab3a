/**
 * The hub's own server-sent-event protocol, between POST /api/chat and the island. Each event is one
 * `data:` line holding JSON:
 *   data: {"delta":"text"}   a piece of the reply, in order
 *   data: {"done":true}      the reply is complete (always the last event of a good stream)
 *   data: {"error":"text"}   the reply failed; the text is for the user (always the last event)
 * Lines starting with ':' are keep-alive comments. A stream that ends without done or error was cut.
 */
export type ChatStreamEvent = { delta: string } | { done: true } | { error: string };

export function encodeEvent(event: ChatStreamEvent): string {
  return `data: ${JSON.stringify(event)}\n\n`;
}

export function decodeEvent(data: string): ChatStreamEvent | null {
  try {
    const value = JSON.parse(data) as Record<string, unknown>;
    if (typeof value.delta === 'string') return { delta: value.delta };
    if (value.done === true) return { done: true };
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
