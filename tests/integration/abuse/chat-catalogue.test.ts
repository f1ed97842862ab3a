import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import chatFunction from '../../../netlify/functions/chat.mts';
import { query } from '../../../netlify/lib/db';
import { CHAT_ERRORS } from '../../../src/lib/chat/errors';
import { MAX_OUTPUT_TOKENS } from '../../../src/lib/chat/models';
import { MIME } from '../../support/documents';
import { dataUrl, validBody } from '../chat/helpers';
import { useChatPlatform } from '../chat/platform';

// Abuse cases of the chat against today's catalogue, through the deployed function on the embedded database:
// the reply cap and the day's budgets cannot be talked around, and a crafted document costs nothing.
const BASE = 'http://localhost:8888';
const setup = useChatPlatform(['CHAT_DAILY_REQUESTS', 'CHAT_DAILY_TOKENS', 'CHAT_DAILY_BUDGET_USD', 'CHAT_CLIENT_SHARE', 'CHAT_RATE_LIMIT_MAX', 'CHAT_MODELS', 'CHAT_DEFAULT_MODEL']);

let next = 1 + Math.floor(Math.random() * 2 ** 16);
const client = () => ({ ip: `10.77.${(next >> 8) & 255}.${next++ & 255}` });
const send = (body: unknown, ctx = client()) =>
  chatFunction(new Request(`${BASE}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), ctx as never);

// The dearest model the stand-in's catalogue lists ($75 per million reply tokens), offered by the operator's pin.
const DEAR = 'anthropic/claude-opus-4.1';
const pinDear = () => Object.assign(process.env, { CHAT_MODELS: `${DEAR},anthropic/claude-opus-4.5`, CHAT_DEFAULT_MODEL: DEAR });

describe('chat: the catalogue and the budgets cannot be talked around', () => {
  it('caps the reply by the catalogue’s price tier, whatever the client asks', async () => {
    pinDear();
    await (await send(validBody({ model: DEAR }))).text();
    expect((setup.fake.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(MAX_OUTPUT_TOKENS.$$$$);
    const refused = await send({ ...validBody({ model: DEAR }), max_tokens: 100_000 });
    expect(refused.status).toBe(400);
    expect(setup.fake.requests).toHaveLength(1);
  });

  it('a retired model id is refused before anything goes upstream', async () => {
    const res = await send(validBody({ model: 'anthropic/claude-3-opus' }));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/model: Unknown model/);
    expect(setup.fake.requests).toHaveLength(0);
  });

  it('stops once the day’s estimated tokens are spent', async () => {
    pinDear();
    // The site's day, one client's share of it as large: the site's budget is what stops the second request.
    Object.assign(process.env, { CHAT_DAILY_TOKENS: String(MAX_OUTPUT_TOKENS.$$$$ + 200), CHAT_CLIENT_SHARE: '1' });
    expect((await send(validBody({ model: DEAR }))).status).toBe(200);
    const res = await send(validBody({ model: DEAR }));
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe(CHAT_ERRORS.budgetSpent);
    expect(setup.fake.requests).toHaveLength(1);
  });

  it('one client sending images to the dearest model cannot spend the site’s day: its share stops it, others go on', async () => {
    pinDear();
    Object.assign(process.env, { CHAT_DAILY_BUDGET_USD: '1', CHAT_CLIENT_SHARE: '0.5' });
    setup.fake.setScenario({ kind: 'stream', cost: 0.1 });
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=' } };
    const body = validBody({ model: DEAR, messages: [{ role: 'user', content: [{ type: 'text', text: 'What are these?' }, image, image, image] }] });
    const greedy = client();
    const statuses: number[] = [];
    for (let i = 0; i < 13; i++) {
      const res = await send(body, greedy);
      statuses.push(res.status);
      await res.text();
    }
    // Each request is estimated at about $0.22 (3 images at $0.024 and 4,800 prompt tokens at $15/M, 1,024 reply
    // tokens at $75/M) and costs $0.10: three fit in the client's $0.50 (0.30 + 0.22 does not).
    expect(statuses.slice(0, 3)).toEqual([200, 200, 200]);
    expect(new Set(statuses.slice(3))).toEqual(new Set([429]));
    expect(setup.fake.requests).toHaveLength(3);
    await expect
      .poll(async () => Number((await query<{ n: string }>(`select spent_micros as n from chat_spend where scope = 'site'`))[0]!.n))
      .toBe(300_000);
    const other = await send(body);
    expect(other.status, await other.clone().text()).toBe(200);
    await other.text();
  });

  it('a crafted .docx that unpacks to more than the cap is refused unopened; nothing is sent or spent', async () => {
    const zip = new JSZip();
    zip.file('word/document.xml', Buffer.alloc(70 * 1024 * 1024, 0x20));
    const bomb = await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE', compressionOptions: { level: 1 } });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const res = await send(
      validBody({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Read it' }, { type: 'file', file: { filename: 'huge.docx', file_data: dataUrl(MIME.docx, bomb) } }] }] }),
    );
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/"huge\.docx" unpacks to more than 64 MB/);
    expect(setup.fake.requests).toHaveLength(0);
    expect(Number((await query<{ n: string }>(`select count(*)::int as n from chat_spend`))[0]!.n)).toBe(0);
  });
});
