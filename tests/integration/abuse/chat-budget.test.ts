import { describe, expect, it, vi } from 'vitest';
import chatFunction from '../../../netlify/functions/chat.mts';
import { query } from '../../../netlify/lib/db';
import { createCatalogue, sqlCatalogueStore } from '../../../netlify/lib/chat/catalogue';
import { readChatConfig } from '../../../netlify/lib/chat/config';
import { createChatHandler } from '../../../netlify/lib/chat/handler';
import { FallbackSpendStore, MemorySpendStore, SqlSpendStore } from '../../../netlify/lib/chat/spend';
import { FallbackRateLimiter, MemoryRateLimiter, SqlRateLimiter } from '../../../netlify/lib/rate-limit';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { CHAT_LIMITS } from '../../../src/lib/chat/request-limits';
import { TINY_PNG, chatRequest, readEvents, validBody } from '../chat/helpers';
import { useChatPlatform } from '../chat/platform';
import { BASE, client } from './helpers';

// The chat's day no one client can drain (netlify/lib/chat/spend.ts, `chat_reserve`): the fourth review closed
// the chat for everyone with sixteen requests of empty images from one address. Driven through the chat function
// on the embedded database as a visitor would, and with the database failing under the spend store.
const setup = useChatPlatform(['CHAT_DAILY_TOKENS', 'CHAT_DAILY_REQUESTS', 'CHAT_CLIENT_SHARE', 'CHAT_DAILY_BUDGET_USD', 'CHAT_RATE_LIMIT_MAX']);

const FREE = 'meta-llama/llama-3.3-70b-instruct:free';
const FREE_VISION = 'mistralai/mistral-small-3.2-24b-instruct:free';
const emptyImage = { type: 'image_url', image_url: { url: 'data:image/png;base64,' } };
const post = (body: unknown, from = client()) =>
  chatFunction(new Request(`${BASE}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), from as never);
const hello = (model = FREE) => validBody({ model, messages: [{ role: 'user', content: 'Hello' }] });
const day = async (scope = 'site') =>
  (
    await query<{ reserved_tokens: string; spent_tokens: string; requests: number }>(
      `select reserved_tokens, spent_tokens, requests from chat_spend where scope = $1 and day = (now() at time zone 'utc')::date`,
      [scope],
    )
  )[0] ?? { reserved_tokens: '0', spent_tokens: '0', requests: 0 };
const tokens = async (scope = 'site') => {
  const row = await day(scope);
  return Number(row.reserved_tokens) + Number(row.spent_tokens);
};

describe('chat: a day no one client can drain', () => {
  it('the review’s attack: 16 requests of 150 empty image parts from one address are refused, and "Hello" from another is answered', async () => {
    const attacker = client();
    const messages = Array.from({ length: CHAT_LIMITS.maxMessages }, (_, i) =>
      i % 2 === 0 ? { role: 'user', content: [{ type: 'text', text: 'look' }, emptyImage, emptyImage, emptyImage] } : { role: 'assistant', content: 'ok' },
    );
    messages[messages.length - 1] = { role: 'user', content: [{ type: 'text', text: 'look' }, emptyImage, emptyImage, emptyImage] };
    const body = validBody({ model: FREE, messages });
    expect(JSON.stringify(body).length).toBeLessThan(13_000);
    for (let i = 0; i < 16; i++) {
      const res = await post(body, attacker);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe(`Invalid request: messages: At most ${CHAT_LIMITS.maxImagesPerRequest} images per request.`);
    }
    expect(await tokens()).toBe(0);
    const res = await post(hello(), client());
    expect(res.status).toBe(200);
    expect((await readEvents(res)).at(-1)).toEqual({ done: true });
    expect(setup.fake.requests).toHaveLength(1);
  });

  it('images count only when the model takes images and they hold data: empty ones, or any to a text model, cost no image tokens', async () => {
    setup.fake.setScenario({ kind: 'stream', hold: true });
    const three = (image: object) => [{ role: 'user', content: [{ type: 'text', text: 'look' }, image, image, image] }];
    const real = { type: 'image_url', image_url: { url: TINY_PNG } };
    // Each reply is held, so its estimate stays reserved: the site's reserved tokens grow by what each was counted.
    const counted = async (model: string, messages: unknown) => {
      const before = Number((await day()).reserved_tokens);
      answers.push(await post(validBody({ model, messages }), client()));
      return Number((await day()).reserved_tokens) - before;
    };
    const answers: Response[] = [];
    const plain = await counted(FREE_VISION, [{ role: 'user', content: 'look' }]);
    const empty = await counted(FREE_VISION, three(emptyImage));
    const toTextModel = (await counted(FREE, three(real))) - (await counted(FREE, [{ role: 'user', content: 'look' }]));
    const toVisionModel = await counted(FREE_VISION, three(real));
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    // Three images of data to a vision model: 3 × 1,600 tokens more than the same question without them.
    expect(toVisionModel - plain).toBeGreaterThanOrEqual(3 * 1_600);
    // Empty images, and images to a text model: the note the model gets instead, a few dozen tokens each.
    expect(empty - plain).toBeLessThan(3 * 100);
    expect(toTextModel).toBeLessThan(3 * 100);
    setup.fake.release();
    await Promise.all(answers.map((r) => r.text()));
  });

  it('one client gets at most its share of the day’s tokens; another still gets through', async () => {
    setup.fake.setScenario({ kind: 'stream', hold: true });
    // Measure one request's estimate, then set the day so one client's share holds one of them and no more.
    const probe = await post(hello(), client());
    const one = await tokens();
    setup.fake.release();
    await probe.text();
    await query('delete from chat_spend');
    Object.assign(process.env, { CHAT_DAILY_TOKENS: String(one * 4 + 10), CHAT_CLIENT_SHARE: '0.25' });
    const greedy = client();
    const first = await post(hello(), greedy);
    expect(first.status).toBe(200);
    const second = await post(hello(), greedy);
    expect(second.status).toBe(429);
    expect((await second.json()).error).toMatch(/^You have used your share of today's chat\./);
    const other = await post(hello(), client());
    expect(other.status).toBe(200);
    setup.fake.release();
    await Promise.all([first.text(), other.text()]);
  });

  it('corrects the day’s tokens from the provider’s reported usage when the reply ends', async () => {
    setup.fake.setScenario({ kind: 'stream', chunks: ['Hi', ' there'], hold: true });
    const res = await post(hello(), client());
    const estimated = Number((await day()).reserved_tokens);
    setup.fake.release();
    expect((await readEvents(res)).at(-1)).toEqual({ done: true });
    // The stand-in reports prompt tokens as its request's messages' JSON / 4, and one completion token per chunk.
    const reported = Math.ceil(JSON.stringify(setup.fake.requests[0]!.body.messages).length / 4) + 2;
    await expect.poll(async () => Number((await day()).spent_tokens)).toBe(reported);
    expect(Number((await day()).reserved_tokens)).toBe(0);
    expect(estimated).toBeGreaterThan(reported + 1_000);
  });

  it('a refused request adds nothing: a prompt larger than the day is refused, and the next request still fits', async () => {
    Object.assign(process.env, { CHAT_CLIENT_SHARE: '1' });
    setup.fake.setScenario({ kind: 'stream', hold: true });
    const probe = await post(hello(), client());
    const one = await tokens();
    setup.fake.release();
    await probe.text();
    await query('delete from chat_spend');
    process.env.CHAT_DAILY_TOKENS = String(one + 100);
    const big = validBody({ model: FREE, messages: [{ role: 'user', content: 'x'.repeat(CHAT_LIMITS.maxMessageChars) }] });
    const refused = await post(big, client());
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toBe(CHAT_ERRORS.budgetSpent);
    expect(await day()).toMatchObject({ reserved_tokens: '0', spent_tokens: '0', requests: 0 });
    setup.fake.setScenario({ kind: 'stream' });
    const res = await post(hello(), client());
    expect(res.status).toBe(200);
    await res.text();
  });

  it('counts requests per client and per site in the same day, refusing without counting', async () => {
    Object.assign(process.env, { CHAT_DAILY_REQUESTS: '3', CHAT_CLIENT_SHARE: '0.34' });
    const a = client();
    const statuses = [];
    for (const who of [a, a, client(), client(), client()]) {
      const res = await post(hello(), who);
      statuses.push(res.status);
      await res.text();
    }
    expect(statuses).toEqual([200, 429, 200, 200, 503]);
    expect((await day()).requests).toBe(3);
  });
});

describe('chat: limits that fail closed when the database cannot be reached', () => {
  /** A handler as a function instance builds it, on a database that fails while `down` is set, with a clock. */
  function instance() {
    const state = { down: false, now: 1_000_000 };
    const flaky = async (text: string, params?: readonly unknown[]) => {
      if (state.down) throw new Error('connect ETIMEDOUT 10.0.0.5:5432');
      return query(text, params);
    };
    const warn = vi.fn();
    const spend = new FallbackSpendStore(new SqlSpendStore(flaky), new MemorySpendStore(), warn, () => state.now);
    const limiter = new FallbackRateLimiter(new SqlRateLimiter(flaky), new MemoryRateLimiter(), warn, () => state.now);
    const catalogue = createCatalogue({ store: sqlCatalogueStore(), warn: () => {} });
    const chat = createChatHandler({ config: () => readChatConfig(), limiter: () => limiter, catalogue: () => catalogue, spend: () => spend, log: () => {} });
    return { state, chat, warn };
  }
  const paid = () => validBody({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'Hello' }] });
  const rows = async () => Number((await query<{ n: number }>(`select coalesce(sum(requests), 0)::int as n from chat_spend where scope = 'site'`))[0]!.n);

  it('refuses paid models with a clear 503 while the spend store cannot be reached, lets free ones go on in memory, and uses the database again once it answers', async () => {
    const { state, chat, warn } = instance();
    await (await chat(chatRequest(paid()), client())).text();
    expect(await rows()).toBe(1);

    state.down = true;
    const refused = await chat(chatRequest(paid()), client());
    expect(refused.status).toBe(503);
    expect((await refused.json()).error).toBe(CHAT_ERRORS.limitsUnavailable);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const free = await chat(chatRequest(hello()), client());
    expect(free.status).toBe(200);
    expect((await readEvents(free)).at(-1)).toEqual({ done: true });
    expect(setup.fake.requests).toHaveLength(2);

    // Back, but still in its cool-down: the instance has not asked yet.
    state.down = false;
    expect((await chat(chatRequest(paid()), client())).status).toBe(503);
    // After the cool-down the next request is counted in the database again.
    state.now += 30_000;
    const back = await chat(chatRequest(paid()), client());
    expect(back.status).toBe(200);
    await back.text();
    expect(await rows()).toBe(2);
    const limited = await query<{ n: number }>(`select count(*)::int as n from rate_limits where key like 'chat:%'`);
    expect(limited[0]!.n).toBeGreaterThan(0);
    expect(warn.mock.calls.map(([line]) => String(line))).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\[rate-limit\] store failed/),
        expect.stringMatching(/^\[chat\] spend store failed/),
        expect.stringMatching(/^\[rate-limit\] store reachable again/),
        expect.stringMatching(/^\[chat\] spend store reachable again/),
      ]),
    );
  });
});
