import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import { query } from '../../../netlify/lib/db';
import { domainMailLimit } from '../../../netlify/lib/mail/limits';
import { startEmbedded } from '../platform/helpers/backends';
import { newKey } from '../platform/helpers/seed';

// The abuse corpus, mail: demo orders to fresh addresses at one domain spend that domain's share of the day only.
const BASE = 'http://localhost:8888';
let platform: Awaited<ReturnType<typeof startEmbedded>>;
const savedEnv = { ...process.env };
beforeAll(async () => {
  platform = await startEmbedded();
  for (const k of ['PAYMENTS', 'CONTEXT', 'SMTP_URL', 'MAIL_FROM']) delete process.env[k];
  process.env.MAIL_DAILY_LIMIT = '80';
  await query(`delete from rate_limits where key like 'mail:%'`);
});
afterAll(async () => {
  await platform?.stop();
  process.env = { ...savedEnv };
});

let n = 1;
const order = async (email: string) => {
  const ip = `10.66.${n >> 8}.${n++ & 255}`;
  const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'basic-restoration' }], idempotencyKey: newKey(), email }) }), { ip } as never);
  expect(res.status).toBe(200);
  return (await res.json()).confirmation.status as string;
};

describe('one recipient domain cannot spend the day’s mail', () => {
  it('fresh addresses at one domain get its share (a quarter of MAIL_DAILY_LIMIT), then limited; another domain still gets mail', async () => {
    const share = domainMailLimit();
    expect(share).toBe(20);
    const statuses: string[] = [];
    for (let i = 0; i <= share; i++) statuses.push(await order(`fresh${i}.${Date.now()}@flood.example`));
    expect(statuses.slice(0, share).every((s) => s === 'saved')).toBe(true);
    expect(statuses[share]).toBe('limited');
    expect(await order(`buyer.${Date.now()}@elsewhere.example`)).toBe('saved');
  });
});
