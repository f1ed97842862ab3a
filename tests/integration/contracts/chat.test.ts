import { afterEach, describe, expect, it, vi } from 'vitest';
import chatFunction from '../../../netlify/functions/chat.mts';
import modelsFunction from '../../../netlify/functions/chat-models.mts';
import { fetchChatModels, streamChat } from '../../../src/lib/chat/hub-api';
import { errorAnswerSchema } from '../../../src/lib/api-answer';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { chatModelsResponseSchema, chatRefusalSchema } from '../../../src/lib/chat/models';
import { catalogueWithout } from '../../support/fake-openai';
import { chatRequest, validBody } from '../chat/helpers';
import { useChatPlatform } from '../chat/platform';
import { answerOf } from './helpers';

// The chat's contract (src/lib/chat/models.ts, schema.ts, stream-protocol.ts): the agent hub's own client
// (src/lib/chat/hub-api.ts) against the real functions, with the provider a local stand-in.
const platform = useChatPlatform([]);
afterEach(() => {
  vi.unstubAllGlobals();
});

/** The browser's fetch: each of the page's own requests (a path) handed to its function; the server's go out as they are. */
function routeToFunctions() {
  const outside = globalThis.fetch;
  vi.stubGlobal('fetch', (async (url: string | URL | Request, init: RequestInit = {}) => {
    if (typeof url !== 'string' || !url.startsWith('/')) return outside(url, init);
    const req = new Request(new URL(url, 'http://localhost'), init);
    return new URL(req.url).pathname === '/api/chat/models' ? modelsFunction(req) : chatFunction(req, { ip: '192.0.2.77' });
  }) as typeof fetch);
}

describe('the chat’s answers match the schemas the agent hub reads them with', () => {
  it('the model list: verified from the live catalogue, read by the hub as it is (not its fallback)', async () => {
    const models = await answerOf(chatModelsResponseSchema, await modelsFunction(new Request('http://localhost/api/chat/models')));
    expect(models).toMatchObject({ configured: true, verified: true });
    routeToFunctions();
    await expect(fetchChatModels()).resolves.toEqual(models);
  });

  it('a reply streams to the hub; a model gone since the list comes back with the list as it is now', async () => {
    routeToFunctions();
    platform.fake.setScenario({ kind: 'stream', chunks: ['Three competitors', ' stand out.'] });
    let reply = '';
    await expect(streamChat(validBody() as Parameters<typeof streamChat>[0], { signal: new AbortController().signal, onDelta: (text) => (reply += text) })).resolves.toEqual({});
    expect(reply).toBe('Three competitors stand out.');

    platform.fake.setCatalogue({ models: catalogueWithout(['google/gemini-2.5-flash']) });
    const gone = await chatFunction(chatRequest(validBody({ model: 'google/gemini-2.5-flash' })), { ip: '192.0.2.78' });
    const refusal = await answerOf(chatRefusalSchema, gone, 409);
    expect(refusal.error).toBe(CHAT_ERRORS.modelGone);
    expect(refusal.models?.models.map((m) => m.id)).not.toContain('google/gemini-2.5-flash');
  });

  it('the pipeline’s refusals keep the chat’s words and the one error shape', async () => {
    const refused = async (req: Request, status: number) => (await answerOf(errorAnswerSchema, await chatFunction(req, {}), status)).error;
    expect(await refused(new Request('http://localhost/api/chat'), 405)).toBe(CHAT_ERRORS.methodNotAllowed);
    expect(await refused(chatRequest(validBody(), { headers: { 'content-type': 'text/plain' } }), 415)).toBe(CHAT_ERRORS.jsonOnly);
    expect(await refused(chatRequest(validBody(), { headers: { 'sec-fetch-site': 'cross-site' } }), 403)).toBe(CHAT_ERRORS.crossSite);
    expect(await refused(chatRequest('{"agentId":'), 400)).toBe(CHAT_ERRORS.invalidJson);
    expect(await refused(chatRequest(validBody({ messages: [] })), 400)).toMatch(/^Invalid request: messages: /);
  });
});
