/**
 * A small spec-following server-sent-events reader (comments, multi-line data, CR/LF/CRLF, chunks split
 * anywhere), used by the server for the upstream stream and by the island for ours.
 */
export interface SseMessage {
  event: string;
  data: string;
}

export async function* readSse(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parser = createSseParser();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    yield* parser.push(decoder.decode() + '\n\n', true);
  } finally {
    reader.releaseLock();
  }
}

/** Incremental parser: push text as it arrives, get back complete messages. */
export function createSseParser() {
  let buffer = '';
  let data: string[] = [];
  let event = '';

  function* push(chunk: string, final = false): Generator<SseMessage> {
    buffer += chunk;
    for (;;) {
      const match = /\r\n|\r|\n/.exec(buffer);
      // A lone trailing CR may be the first half of CRLF: wait for more unless the stream ended.
      if (!match || (match[0] === '\r' && match.index === buffer.length - 1 && !final)) break;
      const line = buffer.slice(0, match.index);
      buffer = buffer.slice(match.index + match[0].length);
      if (line === '') {
        if (data.length > 0) yield { event: event || 'message', data: data.join('\n') };
        data = [];
        event = '';
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon === -1 ? line : line.slice(0, colon);
      let value = colon === -1 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') data.push(value);
      else if (field === 'event') event = value;
    }
  }

  return { push };
}
