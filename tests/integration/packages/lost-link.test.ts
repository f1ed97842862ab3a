import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../../../netlify/lib/db';
import { runOutbox } from '../../../netlify/lib/delivery/worker';
import { MSG } from '../../../src/lib/messages';
import { startEmbedded } from '../platform/helpers/backends';
import { startSmtpSink } from '../../support/smtp-sink';
import { LOST_LINK_LIMIT } from '../../../netlify/lib/packages/lost-link';
import { buyPackage, packageRequest } from './helpers';
import packages from '../../../netlify/functions/packages.mts';

// "Lost your link?": the same answer whatever the address; a buyer's links go to the order's address through the
// outbox; a client asking too often is refused.
let platform: Awaited<ReturnType<typeof startEmbedded>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  platform = await startEmbedded();
  sink = await startSmtpSink();
  Object.assign(process.env, { SMTP_URL: sink.url, MAIL_FROM: 'shop@example.com', DEPLOY_URL: 'https://shop.example' });
});
afterAll(async () => {
  for (const name of ['SMTP_URL', 'MAIL_FROM', 'DEPLOY_URL']) delete process.env[name];
  await sink?.stop();
  await platform?.stop();
});

const ask = (email: string, ip: string) =>
  packages(new Request('http://localhost:8888/api/packages/link', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) }), { ip } as never);

describe('lost your link?', () => {
  it('answers the same for a buyer and a stranger, and mails only the buyer, the current link', async () => {
    const buyer = `family.${randomUUID()}@example.com`;
    const order = await buyPackage('family-package', buyer);
    await runOutbox();
    const before = sink.messages.length;
    const stranger = await ask(`nobody.${randomUUID()}@example.com`, '203.0.113.7');
    const known = await ask(buyer.toUpperCase(), '203.0.113.8');
    expect(stranger.status).toBe(200);
    expect(known.status).toBe(200);
    expect(await stranger.json()).toEqual(await known.json());
    await runOutbox();
    const sent = sink.messages.slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to).toContain(buyer);
    const key = decodeURIComponent(order.allowances[0].link.split('#package=')[1]);
    expect(sent[0]!.raw.replace(/=\r?\n/g, '')).toContain(key.slice(0, 36));
    // Reading the package is still free of change: the e-mail is the only effect.
    expect((await packageRequest('/api/packages', decodeURIComponent(order.allowances[0].link.split('#package=')[1]))).status).toBe(200);
  });

  it('refuses a client past its few requests (429), whatever the address', async () => {
    const ip = '198.51.100.9';
    for (let i = 0; i < LOST_LINK_LIMIT.max; i++) expect((await ask(`x${i}@example.com`, ip)).status).toBe(200);
    const refused = await ask('y@example.com', ip);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(MSG.packageLinkRequests);
    expect(await query(`select count(*)::int as n from outbox_events where kind = 'package.link'`)).toEqual([{ n: 1 }]);
  });
});
