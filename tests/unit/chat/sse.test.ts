import { describe, expect, it } from 'vitest';
import { createSseParser, readSse } from '../../../src/lib/chat/sse';
import { decodeEvent, encodeEvent } from '../../../src/lib/chat/stream-protocol';

const collect = (parts: string[]) => {
  const parser = createSseParser();
  const out = parts.flatMap((p) => [...parser.push(p)]);
  return [...out, ...parser.push('', true)];
};

describe('SSE parser', () => {
  it('handles comments, multi-line data, CRLF and chunks split anywhere', () => {
    const text = ': OPENROUTER PROCESSING\r\n\r\ndata: {"a":1}\r\n\r\nevent: note\ndata: line1\ndata: line2\n\ndata:[DONE]\n\n';
    const whole = collect([text]);
    expect(whole).toEqual([
      { event: 'message', data: '{"a":1}' },
      { event: 'note', data: 'line1\nline2' },
      { event: 'message', data: '[DONE]' },
    ]);
    // Every split point, including between CR and LF, gives the same messages.
    for (let i = 1; i < text.length; i++) expect(collect([text.slice(0, i), text.slice(i)])).toEqual(whole);
  });

  it('reads a byte stream whose UTF-8 characters are split across chunks', async () => {
    const bytes = new TextEncoder().encode(encodeEvent({ delta: 'héllo ✓' }) + encodeEvent({ done: true }));
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        for (const b of bytes) c.enqueue(new Uint8Array([b]));
        c.close();
      },
    });
    const events = [];
    for await (const m of readSse(body)) events.push(decodeEvent(m.data));
    expect(events).toEqual([{ delta: 'héllo ✓' }, { done: true }]);
  });

  it('ignores unknown event payloads', () => {
    expect(decodeEvent('not json')).toBeNull();
    expect(decodeEvent('{"foo":1}')).toBeNull();
    expect(decodeEvent('{"error":"x"}')).toEqual({ error: 'x' });
  });
});
