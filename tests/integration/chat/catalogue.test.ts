import { describe, expect, it } from 'vitest';
import { OPENROUTER_ERRORS, OPENROUTER_MODELS, TWELVE_GONE, catalogueWithout, startFakeOpenAI } from '../../support/fake-openai';
import { useFakeProvider } from './platform';
import { createChatHandler } from '../../../netlify/lib/chat/handler';
import { createModelsHandler } from '../../../netlify/lib/chat/models-handler';
import { readChatConfig } from '../../../netlify/lib/chat/config';
import { createCatalogue, type Catalogue } from '../../../netlify/lib/chat/catalogue';
import { chatHealth } from '../../../netlify/lib/chat/health';
import { MemorySpendStore } from '../../../netlify/lib/chat/spend';
import { MemoryRateLimiter } from '../../../netlify/lib/rate-limit';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { CHAT_MODEL_PICKS, type ChatModelsResponse } from '../../../src/lib/chat/models';
import { TEST_KEY, chatRequest, readEvents, validBody } from './helpers';

// The live catalogue: picks resolved against GET /models, cached with a TTL and a last good copy, and the
// provider's refusals mapped once (the visitor's message, the operator's log line).
const provider = useFakeProvider();

const GONE = TWELVE_GONE;

function setup(options: { now?: () => number; env?: Record<string, string> } = {}) {
  const lines: string[] = [];
  const catalogue: Catalogue = createCatalogue({ store: null, now: options.now, warn: (l) => lines.push(l) });
  const limiter = new MemoryRateLimiter();
  const spend = new MemorySpendStore();
  const config = () => readChatConfig({ ...process.env, ...options.env });
  return {
    lines,
    spend,
    catalogue,
    chat: createChatHandler({ config, limiter: () => limiter, catalogue: () => catalogue, spend: () => spend, log: (l) => lines.push(l) }),
    models: async (): Promise<ChatModelsResponse> => (await createModelsHandler(config, () => catalogue)(new Request('http://localhost/api/chat/models'))).json(),
  };
}

describe('the live catalogue', () => {
  it(`offers only models that exist when the catalogue lacks ${GONE.length} of the ${CHAT_MODEL_PICKS.length} picks, defaulting to an existing large Anthropic model`, async () => {
    expect(GONE.every((id) => CHAT_MODEL_PICKS.some((p) => p.id === id))).toBe(true);
    provider.fake.setCatalogue({ models: catalogueWithout(GONE) });
    const { models } = setup();
    const body = await models();
    const listed = new Set(catalogueWithout(GONE).map((m) => m.id));
    expect(body.verified).toBe(true);
    for (const m of body.models) expect(listed.has(m.id), m.id).toBe(true);
    expect(body.defaultModel).toBe('anthropic/claude-opus-4.1');
    expect(body.models.find((m) => m.id === body.defaultModel)).toMatchObject({ cost: '$$$$', vision: true, contextLength: 200_000 });
    // Sonnet 4.5 is gone: Sonnet 4 (its family) stands in; the free Llama has no family and is dropped.
    expect(body.models.map((m) => m.id)).toContain('anthropic/claude-sonnet-4');
    expect(body.models.map((m) => m.id)).not.toContain('meta-llama/llama-3.3-70b-instruct:free');
  });

  it('fetches once an hour, shares the copy, keeps the last good one when the provider fails, and refetches after the TTL', async () => {
    let t = Date.UTC(2026, 11, 1, 12);
    const { models, lines } = setup({ now: () => t });
    await models();
    await models();
    expect(provider.fake.catalogueRequests).toHaveLength(1);
    expect(provider.fake.catalogueRequests[0]!.headers.authorization).toBe(`Bearer ${TEST_KEY}`);
    provider.fake.setCatalogue({ status: 503 });
    t += 3_601_000;
    const stale = await models();
    expect(provider.fake.catalogueRequests).toHaveLength(2);
    expect(stale.verified).toBe(true);
    expect(stale.models.map((m) => m.id)).toEqual(CHAT_MODEL_PICKS.map((p) => p.id));
    expect(lines.join('\n')).toMatch(/could not read the model catalogue .*503/);
    // The provider is not asked again for a minute; then it is, and its new answer is served.
    await models();
    expect(provider.fake.catalogueRequests).toHaveLength(2);
    provider.fake.setCatalogue({ models: catalogueWithout(['openai/gpt-4o']) });
    t += 61_000;
    expect((await models()).models.map((m) => m.id)).not.toContain('openai/gpt-4o');
    expect(provider.fake.catalogueRequests).toHaveLength(3);
  });

  it('serves the curated list unverified when no copy exists, and the first rejection refreshes it', async () => {
    provider.fake.setCatalogue({ status: 500 });
    const { models, chat } = setup();
    const first = await models();
    expect(first.verified).toBe(false);
    expect(first.models.map((m) => m.id)).toEqual(CHAT_MODEL_PICKS.map((p) => p.id));
    // The provider is back, without GPT-5: a visitor who picks it hears that, and the list is refreshed.
    provider.fake.setCatalogue({ models: catalogueWithout(['openai/gpt-5']) });
    const res = await chat(chatRequest(validBody({ model: 'openai/gpt-5' })));
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(CHAT_ERRORS.modelGone);
    const after = await models();
    expect(after.verified).toBe(true);
    expect(after.models.map((m) => m.id)).not.toContain('openai/gpt-5');
  });

  it('a model removed between two refreshes: the clear message, a refreshed list, never the provider’s text, nothing spent', async () => {
    const { models, chat, lines, spend } = setup();
    expect((await models()).models.map((m) => m.id)).toContain('google/gemini-2.5-flash');
    provider.fake.setCatalogue({ models: catalogueWithout(['google/gemini-2.5-flash']) });
    const res = await chat(chatRequest(validBody({ model: 'google/gemini-2.5-flash' })));
    expect(res.status).toBe(409);
    const text = await res.text();
    const refusal = JSON.parse(text);
    expect(refusal.error).toBe(CHAT_ERRORS.modelGone);
    // The refreshed list goes with the answer.
    expect(refusal.models.models.map((m: { id: string }) => m.id)).not.toContain('google/gemini-2.5-flash');
    expect(refusal.models.defaultModel).toBe('anthropic/claude-opus-4.5');
    expect(text).not.toMatch(/valid model ID/);
    expect(lines.join('\n')).toMatch(/\[chat\] upstream 400 model=google\/gemini-2\.5-flash request=\S+: the provider no longer serves this model.* is not a valid model ID/);
    expect((await models()).models.map((m) => m.id)).not.toContain('google/gemini-2.5-flash');
    expect(await spend.today()).toMatchObject({ spentMicros: 0, reservedMicros: 0 });
    // The next request for it is refused before anything goes upstream.
    const again = await chat(chatRequest(validBody({ model: 'google/gemini-2.5-flash' })));
    expect(again.status).toBe(400);
    expect(provider.fake.requests).toHaveLength(1);
  });

  it('the operator can pin the list and the default', async () => {
    const { models } = setup({ env: { CHAT_MODELS: 'x-ai/grok-4, openai/gpt-4o,retired/model', CHAT_DEFAULT_MODEL: 'openai/gpt-4o' } });
    const body = await models();
    expect(body.models.map((m) => m.id)).toEqual(['x-ai/grok-4', 'openai/gpt-4o']);
    expect(body.defaultModel).toBe('openai/gpt-4o');
  });

  it('the reply cap never passes the provider’s max output tokens', async () => {
    provider.fake.setCatalogue({ models: OPENROUTER_MODELS.map((m) => (m.id === 'openai/gpt-4o-mini' ? { ...m, top_provider: { ...m.top_provider, max_completion_tokens: 300 } } : m)) });
    const { chat } = setup();
    await readEvents(await chat(chatRequest(validBody({ model: 'openai/gpt-4o-mini' }))));
    expect(provider.fake.requests[0]!.body.max_tokens).toBe(300);
  });

  it('/api/health reports the catalogue: models resolved, picks dropped or replaced, last refresh', async () => {
    provider.fake.setCatalogue({ models: catalogueWithout(GONE) });
    const { catalogue, spend } = setup();
    const health = await chatHealth(readChatConfig(), catalogue, spend);
    expect(health).toMatchObject({ configured: true, endpoint: provider.fake.baseUrl, catalogue: { verified: true, stale: false, defaultModel: 'anthropic/claude-opus-4.1' } });
    expect(health.catalogue!.lastRefresh).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(health.catalogue!.replaced).toContainEqual({ pick: 'anthropic/claude-opus-4.5', by: 'anthropic/claude-opus-4.1' });
    expect(health.catalogue!.dropped).toContain('meta-llama/llama-3.3-70b-instruct:free');
    expect(health.catalogue!.models + health.catalogue!.dropped.length).toBe(CHAT_MODEL_PICKS.length);
    expect(JSON.stringify(health)).not.toContain(TEST_KEY);
  });
});

describe('upstream errors, mapped once', () => {
  const cases = [
    ['401 (bad key)', OPENROUTER_ERRORS.unauthorized, 503, CHAT_ERRORS.notConfigured, /upstream 401 .*refused the key: check CHAT_API_KEY/],
    ['403 (key disabled)', { kind: 'error', status: 403, message: 'Key is disabled' }, 503, CHAT_ERRORS.notConfigured, /upstream 403 .*refused the key/],
    ['403 (moderation)', OPENROUTER_ERRORS.moderated, 400, CHAT_ERRORS.moderated, /upstream 403 .*moderation flagged/],
    ['402 (no credit)', OPENROUTER_ERRORS.noCredit, 503, CHAT_ERRORS.creditSpent, /upstream 402 .*credit is used up/],
    ['429 (rate limited, Retry-After 17)', OPENROUTER_ERRORS.rateLimited(17), 429, CHAT_ERRORS.providerBusy(17), /upstream 429 .*rate limiting/],
    ['500', { kind: 'error', status: 500, message: 'Internal Server Error' }, 502, CHAT_ERRORS.upstreamFailed, /upstream 500 .*answered an error/],
  ] as const;

  it.each(cases)('%s answers its status and message, logs the cause with model and request id, never the key, spends nothing', async (_name, scenario, status, message, logged) => {
    provider.fake.setScenario({ ...scenario, message: `${scenario.message} (${TEST_KEY})` });
    const { chat, lines, spend } = setup();
    const res = await chat(chatRequest(validBody()));
    expect(res.status).toBe(status);
    const body = await res.json();
    expect(body.error).toBe(message);
    if (status === 429) expect(res.headers.get('retry-after')).toBe('17');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(logged);
    expect(lines[0]).toMatch(/model=anthropic\/claude-opus-4\.5 request=[0-9a-f-]{36}/);
    expect(lines[0]).toContain('[redacted]');
    expect(lines[0]).not.toContain(TEST_KEY);
    expect(JSON.stringify(body)).not.toContain(scenario.message);
    expect(await spend.today()).toMatchObject({ spentMicros: 0, reservedMicros: 0 });
  });
});

describe('an OpenAI-compatible server of the operator’s own, without a key', () => {
  it('lists its models as they are, labelled self-hosted, and streams a reply through the hub', async () => {
    const local = await startFakeOpenAI({ flavour: 'ollama' });
    try {
      delete process.env.CHAT_API_KEY;
      process.env.CHAT_API_BASE_URL = local.baseUrl;
      const { models, chat, spend } = setup();
      const body = await models();
      expect(body.configured).toBe(true);
      expect(body.models.map((m) => [m.id, m.cost])).toEqual([
        ['llama3.2:3b', 'Self-hosted'],
        ['qwen2.5:7b-instruct', 'Self-hosted'],
      ]);
      expect(body.defaultModel).toBe('llama3.2:3b');
      local.setScenario({ kind: 'stream', chunks: ['Local', ' reply'] });
      const events = await readEvents(await chat(chatRequest(validBody({ model: 'qwen2.5:7b-instruct' }))));
      expect(events).toEqual([{ delta: 'Local' }, { delta: ' reply' }, { done: true }]);
      expect(local.requests[0]!.path).toBe('/v1/chat/completions');
      expect(local.requests[0]!.headers.authorization).toBeUndefined();
      expect(local.catalogueRequests[0]!.headers.authorization).toBeUndefined();
      expect(await spend.today()).toMatchObject({ spentMicros: 0 });
    } finally {
      await local.close();
    }
  });
});
