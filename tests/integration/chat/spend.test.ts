import { afterEach, describe, expect, it } from 'vitest';
import { query } from '../../../netlify/lib/db';
import { createChatHandler } from '../../../netlify/lib/chat/handler';
import { readChatConfig } from '../../../netlify/lib/chat/config';
import { createCatalogue, sqlCatalogueStore } from '../../../netlify/lib/chat/catalogue';
import { MICROS, SqlSpendStore } from '../../../netlify/lib/chat/spend';
import { MemoryRateLimiter } from '../../../netlify/lib/rate-limit';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { chatRequest, readEvents, validBody } from './helpers';
import { useChatPlatform } from './platform';

// Spend the operator can trust, in the embedded database as on Supabase: the provider's reported cost is
// what the day counts, the estimate refuses up front, and one client cannot take more than its share.
const setup = useChatPlatform(['CHAT_DAILY_BUDGET_USD', 'CHAT_CLIENT_SHARE']);
afterEach(() => {
  for (const k of ['CHAT_DAILY_BUDGET_USD', 'CHAT_CLIENT_SHARE']) delete process.env[k];
});

/** A handler on the SQL stores, as a function instance is with DATABASE_URL set. */
function instance() {
  const limiter = new MemoryRateLimiter();
  const catalogue = createCatalogue({ store: sqlCatalogueStore(), warn: () => {} });
  const spend = new SqlSpendStore();
  return { spend, chat: createChatHandler({ config: () => readChatConfig(), limiter: () => limiter, catalogue: () => catalogue, spend: () => spend, log: () => {} }) };
}

const cheap = () => validBody({ model: 'openai/gpt-4o-mini' });
const siteSpent = async () => Number((await query<{ n: string }>(`select coalesce(sum(spent_micros), 0)::bigint as n from chat_spend where scope = 'site'`))[0]!.n) / MICROS;

let nextIp = 1;
const client = () => ({ ip: `198.18.${nextIp >> 8}.${nextIp++ & 255}` });

describe('spend in dollars', () => {
  it('three stand-in replies costing $0.01 each record $0.03, from usage.cost', async () => {
    setup.fake.setScenario({ kind: 'stream', cost: 0.01 });
    const { chat, spend } = instance();
    for (let i = 0; i < 3; i++) expect((await readEvents(await chat(chatRequest(cheap()), client()))).at(-1)).toEqual({ done: true });
    await expect.poll(siteSpent).toBeCloseTo(0.03, 6);
    expect(await spend.today()).toMatchObject({ spentMicros: 30_000, reservedMicros: 0, replies: 3 });
    // Every instance reads the same day (a second instance, its own memory).
    expect(await instance().spend.today()).toMatchObject({ spentMicros: 30_000 });
  });

  it('with CHAT_DAILY_BUDGET_USD=0.02 the third is refused with 503 and a message, before anything is sent', async () => {
    process.env.CHAT_DAILY_BUDGET_USD = '0.02';
    process.env.CHAT_CLIENT_SHARE = '1';
    setup.fake.setScenario({ kind: 'stream', cost: 0.01 });
    const { chat } = instance();
    for (let i = 0; i < 2; i++) await readEvents(await chat(chatRequest(cheap()), client()));
    await expect.poll(siteSpent).toBeCloseTo(0.02, 6);
    const third = await chat(chatRequest(cheap()), client());
    expect(third.status).toBe(503);
    expect((await third.json()).error).toBe(CHAT_ERRORS.budgetSpent);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(setup.fake.requests).toHaveLength(2);
  });

  it('one client cannot take more than its share of the day; another still can', async () => {
    Object.assign(process.env, { CHAT_DAILY_BUDGET_USD: '0.04', CHAT_CLIENT_SHARE: '0.25' });
    setup.fake.setScenario({ kind: 'stream', cost: 0.01 });
    const { chat } = instance();
    const greedy = client();
    expect((await readEvents(await chat(chatRequest(cheap()), greedy))).at(-1)).toEqual({ done: true });
    await expect.poll(siteSpent).toBeCloseTo(0.01, 6);
    const refused = await chat(chatRequest(cheap()), greedy);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/^You have used your share of today's chat\. Please try again in \d+ (second|minute|hour)s?\.$/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await readEvents(await chat(chatRequest(cheap()), client()))).at(-1)).toEqual({ done: true });
    expect(setup.fake.requests).toHaveLength(2);
  });

  it('concurrent requests on two instances cannot pass the budget together', async () => {
    Object.assign(process.env, { CHAT_DAILY_BUDGET_USD: '0.01', CHAT_CLIENT_SHARE: '1' });
    setup.fake.setScenario({ kind: 'stream', hold: true, cost: 0.004 });
    const a = instance();
    const b = instance();
    // gpt-4o-mini with its 4,096-token cap is estimated at about $0.0025: four fit in $0.01, not eight.
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).chat(chatRequest(cheap()), client())));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 503)).toHaveLength(4);
    setup.fake.release();
    await Promise.all(answers.map((r) => r.text()));
  });
});

describe('the catalogue copy in the database', () => {
  it('is fetched once for every instance', async () => {
    await query('delete from chat_catalogue');
    const first = instance();
    const second = instance();
    await readEvents(await first.chat(chatRequest(cheap()), client()));
    await readEvents(await second.chat(chatRequest(cheap()), client()));
    expect(setup.fake.catalogueRequests).toHaveLength(1);
    const rows = await query<{ base_url: string; n: number }>('select base_url, jsonb_array_length(entries) as n from chat_catalogue');
    expect(rows).toEqual([{ base_url: setup.fake.baseUrl, n: expect.any(Number) }]);
    expect(rows[0]!.n).toBeGreaterThan(20);
  });
});
