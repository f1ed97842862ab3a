import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import checkoutSession from '../../../netlify/functions/checkout-session.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import orders from '../../../netlify/functions/orders.mts';
import stripeWebhook from '../../../netlify/functions/stripe-webhook.mts';
import { query } from '../../../netlify/lib/db';
import { MSG } from '../../../src/lib/messages';
import { formatPrice, ITEM_PRICES, sumPrices } from '../../../src/lib/catalog';
import { FakeStripe } from '../../support/fake-stripe';
import { startSmtpSink } from '../../support/smtp-sink';
import { startEmbedded } from './helpers/backends';
import { countRows, newKey, seedCompleted } from './helpers/seed';

// The order confirmation end to end: /api/checkout with an e-mail, a real SMTP server on loopback (or the
// local outbox without one), and the links in the received message downloading the clean files.
const BASE = 'http://localhost:8888';
const SITE = 'https://shop.lumora.test';
const post = (body: object) =>
  checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), {});

let platform: Awaited<ReturnType<typeof startEmbedded>>;
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
const outbox = () => path.join(path.dirname(process.env.STORAGE_DIR!), 'outbox');
const outboxFiles = async () => (await readdir(outbox()).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));
const saved = { URL: process.env.URL, DEPLOY_URL: process.env.DEPLOY_URL };

beforeAll(async () => {
  platform = await startEmbedded();
  sink = await startSmtpSink();
  process.env.URL = SITE;
  delete process.env.DEPLOY_URL;
});
afterAll(async () => {
  await sink?.stop();
  await platform?.stop();
  Object.assign(process.env, saved);
  for (const [key, value] of Object.entries(saved)) if (value === undefined) delete process.env[key];
});
beforeEach(() => {
  process.env.SMTP_URL = sink.url;
  process.env.MAIL_FROM = 'Lumora AI <orders@lumora.test>';
});
afterEach(() => {
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
});

/** Every absolute download link in the message's text part. */
const linksIn = (text: string) => [...text.matchAll(/https:\/\/\S+\/api\/downloads\/\S+/g)].map((m) => m[0]);

async function expectCleanDownloads(links: string[], items: { id: string; clean: Buffer }[]) {
  expect(links).toHaveLength(items.length);
  for (const [i, item] of items.entries()) {
    const link = new URL(links[i]!);
    expect(link.origin).toBe(SITE);
    expect(link.pathname).toBe(`/api/downloads/${item.id}`);
    const file = await downloads(new Request(`${BASE}${link.pathname}${link.search}`), {});
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(item.clean);
  }
}

describe('order confirmation e-mail', () => {
  it('sends one message over SMTP whose links download the clean files, and shows the address only masked', async () => {
    const image = await seedCompleted('image');
    const video = await seedCompleted('video');
    const request = { items: [{ transformationId: image.id }, { transformationId: video.id }], idempotencyKey: newKey(), email: ' buyer@example.com ' };
    const before = sink.messages.length;
    const res = await post(request);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.confirmation).toEqual({ status: 'sent', to: 'b…@example.com' });
    expect(JSON.stringify(body)).not.toContain('buyer@example.com');

    expect(sink.messages).toHaveLength(before + 1);
    const received = sink.messages.at(-1)!;
    expect(received.to).toEqual(['buyer@example.com']);
    expect(received.from).toBe('orders@lumora.test');
    const mail = await simpleParser(received.raw);
    expect(mail.subject).toContain(body.paymentId.slice(0, 8));
    expect(mail.text).toContain(body.paymentId);
    expect(mail.text).toContain(formatPrice(sumPrices([ITEM_PRICES.image, ITEM_PRICES.video])));
    await expectCleanDownloads(linksIn(mail.text!), [image, video]);
    expect(linksIn(mail.text!)).toEqual(body.downloads.map((d: { url: string }) => `${SITE}${d.url}`));

    // The order page tells the same story, and a retried checkout never mails twice.
    const order = await (await orders(new Request(`${BASE}/api/orders/${body.paymentId}?token=${body.orderToken}`), {})).json();
    expect(order.confirmation).toEqual({ status: 'sent', to: 'b…@example.com' });
    expect(JSON.stringify(order)).not.toContain('buyer@example.com');
    expect((await (await post(request)).json()).confirmation.status).toBe('sent');
    expect(sink.messages).toHaveLength(before + 1);
    const [row] = await query<{ email: string; email_status: string }>('select email, email_status from payments where id = $1', [body.paymentId]);
    expect(row).toEqual({ email: 'buyer@example.com', email_status: 'sent' });
  });

  it('without SMTP writes the message as an .eml file in the outbox', async () => {
    delete process.env.SMTP_URL;
    delete process.env.MAIL_FROM;
    const image = await seedCompleted('image');
    const filesBefore = await outboxFiles();
    const body = await (await post({ items: [{ transformationId: image.id }], idempotencyKey: newKey(), email: 'ada@example.org' })).json();
    expect(body.confirmation).toEqual({ status: 'saved', to: 'a…@example.org' });
    const added = (await outboxFiles()).filter((f) => !filesBefore.includes(f));
    expect(added).toHaveLength(1);
    expect(added[0]).toContain(body.paymentId);
    const mail = await simpleParser(await readFile(path.join(outbox(), added[0]!)));
    expect(mail.to).toMatchObject({ text: 'ada@example.org' });
    await expectCleanDownloads(linksIn(mail.text!), [image]);
  });

  it('on a Deploy Preview links to the preview itself (DEPLOY_PRIME_URL), never to the production site', async () => {
    const preview = 'https://deploy-preview-7--lumora.netlify.app';
    Object.assign(process.env, { CONTEXT: 'deploy-preview', DEPLOY_PRIME_URL: preview });
    try {
      const image = await seedCompleted('image');
      const body = await (await post({ items: [{ transformationId: image.id }], idempotencyKey: newKey(), email: 'eve@example.com' })).json();
      expect(body.confirmation.status).toBe('sent');
      const mail = await simpleParser(sink.messages.at(-1)!.raw);
      expect(linksIn(mail.text!)).toEqual(body.downloads.map((d: { url: string }) => `${preview}${d.url}`));
      expect(mail.text).not.toContain(SITE);
    } finally {
      delete process.env.CONTEXT;
      delete process.env.DEPLOY_PRIME_URL;
    }
  });

  it('refuses a malformed address with a clear 400 and writes nothing', async () => {
    const image = await seedCompleted('image');
    const rows = await countRows();
    const [mails, files] = [sink.messages.length, await outboxFiles()];
    const res = await post({ items: [{ transformationId: image.id }], idempotencyKey: newKey(), email: 'not-an-address' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(`email: ${MSG.invalidEmail}`);
    expect(await countRows()).toEqual(rows);
    expect(sink.messages).toHaveLength(mails);
    expect(await outboxFiles()).toEqual(files);
  });

  it('sends nothing when no address is given', async () => {
    const image = await seedCompleted('image');
    const [mails, files] = [sink.messages.length, await outboxFiles()];
    const body = await (await post({ items: [{ transformationId: image.id }], idempotencyKey: newKey(), email: '' })).json();
    expect(body.success).toBe(true);
    expect(body.confirmation).toEqual({ status: 'none' });
    expect(sink.messages).toHaveLength(mails);
    expect(await outboxFiles()).toEqual(files);
  });

  it('keeps the payment when the mail server is down, and says the confirmation failed', async () => {
    const dead = await startSmtpSink();
    await dead.stop();
    process.env.SMTP_URL = dead.url;
    const image = await seedCompleted('image');
    const res = await post({ items: [{ transformationId: image.id }], idempotencyKey: newKey(), email: 'carol@example.com' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ success: true, confirmation: { status: 'failed', to: 'c…@example.com' } });
    expect(body.downloads).toHaveLength(1);
  });
});

describe('order confirmation e-mail with Stripe', () => {
  const stripe = new FakeStripe();
  beforeAll(() => stripe.start());
  afterAll(async () => {
    for (const name of Object.keys(stripe.env())) delete process.env[name];
    await stripe.stop();
  });

  it('mails nothing while the payment is pending and once when the verified webhook completes it', async () => {
    Object.assign(process.env, stripe.env());
    const image = await seedCompleted('image');
    const before = sink.messages.length;
    const body = await (await post({ items: [{ transformationId: image.id }], idempotencyKey: newKey(), email: 'dan@example.net' })).json();
    expect(body.confirmation).toEqual({ status: 'pending', to: 'd…@example.net' });
    expect(sink.messages).toHaveLength(before);

    const sessionId = new URL(body.checkoutUrl).pathname.split('/').pop()!;
    const event = stripe.event('checkout.session.completed', stripe.pay(sessionId));
    for (let delivery = 0; delivery < 2; delivery++) {
      const { payload, signature } = stripe.sign(event);
      const res = await stripeWebhook(new Request(`${BASE}/api/stripe-webhook`, { method: 'POST', headers: { 'stripe-signature': signature }, body: payload }), {});
      expect(res.status).toBe(200);
    }
    expect(sink.messages).toHaveLength(before + 1);
    const mail = await simpleParser(sink.messages.at(-1)!.raw);
    await expectCleanDownloads(linksIn(mail.text!), [image]);
    const order = await (await checkoutSession(new Request(`${BASE}/api/checkout/sessions/${sessionId}`), {})).json();
    expect(order.confirmation).toEqual({ status: 'sent', to: 'd…@example.net' });
  });
});
