import { readSse } from '../../../src/lib/chat/sse';
import { decodeEvent, type ChatStreamEvent } from '../../../src/lib/chat/stream-protocol';

export const TEST_KEY = 'sk-or-v1-test-SECRET-0123456789abcdef';

export function chatRequest(body: unknown, init: { headers?: Record<string, string> } = {}): Request {
  return new Request('http://localhost/api/chat', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...init.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function validBody(overrides: Record<string, unknown> = {}) {
  return {
    agentId: 'market-research',
    model: 'anthropic/claude-opus-4.5',
    messages: [
      { role: 'assistant', content: "Hello! I'm the Market Research Agent." },
      { role: 'user', content: 'Who are my competitors?' },
    ],
    temperature: 0.7,
    top_p: 0.9,
    frequency_penalty: 0,
    presence_penalty: 0,
    ...overrides,
  };
}

export async function readEvents(res: Response): Promise<ChatStreamEvent[]> {
  const events: ChatStreamEvent[] = [];
  for await (const message of readSse(res.body!)) {
    const event = decodeEvent(message.data);
    if (event) events.push(event);
  }
  return events;
}

export function dataUrl(mime: string, content: string | Buffer): string {
  return `data:${mime};base64,${Buffer.from(content).toString('base64')}`;
}

/** A 1x1 PNG. */
export const TINY_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
