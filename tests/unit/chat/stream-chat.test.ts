import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatRequestError, fetchChatModels, streamChat } from '../../../src/lib/chat/hub-api';
import { CHAT_MODEL_PICKS, type ChatModelsResponse } from '../../../src/lib/chat/models';
import { encodeEvent, type ChatStreamEvent } from '../../../src/lib/chat/stream-protocol';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { MSG } from '../../../src/lib/messages';

const body = { agentId: 'market-research', model: 'openai/gpt-4o', messages: [{ role: 'user' as const, content: 'hi' }] };

function sse(events: ChatStreamEvent[]): Response {
  return new Response(events.map(encodeEvent).join(''), { headers: { 'content-type': 'text/event-stream' } });
}

afterEach(() => vi.unstubAllGlobals());

async function run(response: Response | (() => Promise<Response>)) {
  vi.stubGlobal('fetch', vi.fn(typeof response === 'function' ? response : async () => response));
  const deltas: string[] = [];
  const result = streamChat(body, { signal: new AbortController().signal, onDelta: (d) => deltas.push(d) });
  return { result, deltas };
}

describe('streamChat (island side of the protocol)', () => {
  it('feeds deltas in order and resolves on done', async () => {
    const { result, deltas } = await run(sse([{ delta: 'a' }, { delta: 'b' }, { done: true }]));
    await expect(result).resolves.toEqual({});
    expect(deltas).toEqual(['a', 'b']);
  });

  it('passes on reasoning and read documents, and says why a reply was cut', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => sse([{ document: { filename: 'a.pdf', text: 'Page one' } }, { reasoning: 'Hm' }, { delta: 'a' }, { done: true, cut: 'length' }])));
    const seen: string[] = [];
    const result = await streamChat(body, {
      signal: new AbortController().signal,
      onDelta: (d) => seen.push(`delta:${d}`),
      onReasoning: (r) => seen.push(`reasoning:${r}`),
      onDocument: (d) => seen.push(`document:${d.filename}:${d.text}`),
    });
    expect(result).toEqual({ cut: 'length' });
    expect(seen).toEqual(['document:a.pdf:Page one', 'reasoning:Hm', 'delta:a']);
  });

  it("rejects with the server's message from an error event or an error response", async () => {
    await expect((await run(sse([{ delta: 'a' }, { error: 'Provider down' }]))).result).rejects.toThrow('Provider down');
    const refused = new Response(JSON.stringify({ error: 'Too many chat requests.' }), { status: 429 });
    const { result } = await run(refused);
    await expect(result).rejects.toBeInstanceOf(ChatRequestError);
    await expect(result).rejects.toThrow('Too many chat requests.');
  });

  it('falls back to the generic failure text when the server gives no message', async () => {
    await expect((await run(new Response('oops', { status: 500 }))).result).rejects.toThrow(MSG.chatFailedShort);
  });

  it('treats a stream that ends without done as cut off', async () => {
    await expect((await run(sse([{ delta: 'a' }]))).result).rejects.toThrow(CHAT_ERRORS.dropped);
  });

  it('reports an unreachable server', async () => {
    const { result } = await run(async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(result).rejects.toThrow(CHAT_ERRORS.unreachable);
  });
});

describe('the chat’s JSON answers (read with src/lib/chat/models.ts)', () => {
  const list: ChatModelsResponse = {
    models: [{ id: 'openai/gpt-4o', name: 'GPT-4o', speed: 'Medium', quality: 'Very good', cost: '$$', vision: true, contextLength: 128_000, maxOutputTokens: 2048 }],
    defaultModel: 'openai/gpt-4o',
    configured: true,
    verified: true,
  };

  it('a model list of another shape is treated as a failed one: the curated list, unverified', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => Response.json(list)));
    await expect(fetchChatModels()).resolves.toEqual(list);
    for (const odd of [{ ...list, models: [{ id: 'x' }] }, { ...list, verified: 'yes' }, { models: 'all' }]) {
      vi.stubGlobal('fetch', vi.fn(async () => Response.json(odd)));
      const fallback = await fetchChatModels();
      expect(fallback.verified).toBe(false);
      expect(fallback.models.map((m) => m.id)).toEqual(CHAT_MODEL_PICKS.map((p) => p.id));
    }
  });

  it('a refusal keeps its words; its list only when the list has the schema’s shape', async () => {
    const { result } = await run(Response.json({ success: false, error: CHAT_ERRORS.modelGone, models: list }, { status: 409 }));
    await expect(result).rejects.toMatchObject({ message: CHAT_ERRORS.modelGone, status: 409, models: list });
    const odd = await run(Response.json({ success: false, error: CHAT_ERRORS.modelGone, models: { models: [{ id: 1 }] } }, { status: 409 }));
    await expect(odd.result).rejects.toMatchObject({ message: CHAT_ERRORS.modelGone, status: 409, models: undefined });
    const bare = await run(new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(bare.result).rejects.toMatchObject({ name: 'ChatRequestError', message: MSG.chatFailedShort, status: 502 });
  });
});
