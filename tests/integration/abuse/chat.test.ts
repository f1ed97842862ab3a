import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import chatFunction from '../../../netlify/functions/chat.mts';
import { query } from '../../../netlify/lib/db';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { maxOutputTokens } from '../../../src/lib/chat/models';
import { IMAGE_PART_TOKENS } from '../../../src/lib/chat/request-limits';
import { startFakeOpenAI, type FakeOpenAI } from '../../support/fake-openai';
import { TEST_KEY, validBody } from '../chat/helpers';
import { BASE, client, useEmbeddedPlatform } from './helpers';

useEmbeddedPlatform();
let fake: FakeOpenAI;
beforeAll(async () => {
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
});

describe('chat: the operator key cannot be run up', () => {
  beforeEach(async () => {
    fake.reset();
    Object.assign(process.env, { CHAT_API_KEY: TEST_KEY, CHAT_API_BASE_URL: fake.baseUrl, PUBLIC_SITE_URL: 'https://lumora.test' });
    for (const k of ['CHAT_DAILY_REQUESTS', 'CHAT_DAILY_TOKENS', 'CHAT_RATE_LIMIT_MAX', 'CHAT_CLIENT_SHARE']) delete process.env[k];
    await query(`delete from rate_limits where key like 'chat:%'`);
    await query('delete from chat_spend');
  });
  const send = (body: unknown, headers: Record<string, string> = {}, ctx = client()) =>
    chatFunction(new Request(`${BASE}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }), ctx as never);
  const refused = async (res: Response, status: number, message: string) => {
    expect(res.status).toBe(status);
    expect((await res.json()).error).toBe(message);
    expect(fake.requests).toHaveLength(0);
  };

  it.each([
    ['text/plain (no CORS preflight)', { 'content-type': 'text/plain' }, 415, CHAT_ERRORS.jsonOnly],
    ['a form post', { 'content-type': 'application/x-www-form-urlencoded' }, 415, CHAT_ERRORS.jsonOnly],
    ['another site’s Origin', { origin: 'https://evil.example' }, 403, CHAT_ERRORS.crossSite],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 403, CHAT_ERRORS.crossSite],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }, 403, CHAT_ERRORS.crossSite],
  ])('refuses %s before anything goes upstream', async (_, headers, status, message) => {
    await refused(await send(validBody(), headers), status, message);
  });

  it('accepts this site’s own Origin (control)', async () => {
    const res = await send(validBody(), { origin: 'https://lumora.test', 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    await res.text();
  });

  it('counts a text attachment toward the 120k-character cap', async () => {
    const big = Buffer.from('x'.repeat(130_000)).toString('base64');
    const body = validBody({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise' }, { type: 'file', file: { filename: 'notes.txt', file_data: `data:text/plain;base64,${big}` } }] }] });
    const res = await send(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/too long/);
    expect(fake.requests).toHaveLength(0);
  });

  it('a forged X-Forwarded-For or a rotating IPv6 address in one /64 buys no fresh limit', async () => {
    process.env.CHAT_RATE_LIMIT_MAX = '2';
    for (let i = 0; i < 2; i++) await (await send(validBody(), { 'x-forwarded-for': `198.51.100.${i}` }, { ip: `2001:db8:7:7::${i + 1}` })).text();
    await refused2(await send(validBody(), { 'x-forwarded-for': '198.51.100.99' }, { ip: '2001:db8:7:7:ffff::9' }));
    async function refused2(res: Response) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(fake.requests).toHaveLength(2);
  });

  it('stops every client once the site’s daily request budget is spent (in SQL, across instances)', async () => {
    process.env.CHAT_DAILY_REQUESTS = '2';
    for (let i = 0; i < 2; i++) expect((await send(validBody())).status).toBe(200);
    const res = await send(validBody());
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe(CHAT_ERRORS.budgetSpent);
    expect(fake.requests).toHaveLength(2);
  });

});

describe('the smaller findings: chat', () => {
  it('the chat’s daily token budget counts images: a conversation of images is stopped once it is spent, before the model is called', async () => {
    Object.assign(process.env, { CHAT_API_KEY: TEST_KEY, CHAT_API_BASE_URL: fake.baseUrl, PUBLIC_SITE_URL: 'https://lumora.test' });
    await query(`delete from rate_limits where key like 'chat:%'`);
    await query('delete from chat_spend');
    fake.reset();
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer()).toString('base64')}` } };
    const body = validBody({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image, image, image] }] });
    process.env.CHAT_DAILY_TOKENS = String(maxOutputTokens('openai/gpt-4o') + 3 * IMAGE_PART_TOKENS + 10);
    process.env.CHAT_CLIENT_SHARE = '1';
    try {
      const send = () => chatFunction(new Request(`${BASE}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), client() as never);
      expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(503);
      expect((await refused.json()).error).toBe(CHAT_ERRORS.budgetSpent);
      expect(fake.requests).toHaveLength(1);
    } finally {
      delete process.env.CHAT_DAILY_TOKENS;
      delete process.env.CHAT_CLIENT_SHARE;
    }
  });
});
