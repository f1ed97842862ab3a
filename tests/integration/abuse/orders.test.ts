import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import health from '../../../netlify/functions/health.mts';
import orders from '../../../netlify/functions/orders.mts';
import { query } from '../../../netlify/lib/db';
import { runMaintenance } from '../../../netlify/lib/maintenance/run';
import { getStorage } from '../../../netlify/lib/storage';
import { createTransformation, getTransformation } from '../../../netlify/lib/transformations';
import { MSG } from '../../../src/lib/messages';
import { ITEM_PRICES } from '../../../src/lib/catalog';
import { confirmationSentence } from '../../../src/lib/checkout-status';
import { CHECKOUT_LIMIT } from '../../../netlify/lib/checkout/place-order';
import { MAIL_LIMITS } from '../../../netlify/lib/mail/limits';
import { countRows, newKey, seedCompleted } from '../platform/helpers/seed';
import { FakeStripe } from '../../support/fake-stripe';
import { BASE, client, count, useEmbeddedPlatform } from './helpers';

useEmbeddedPlatform();

describe('checkout: retries never lose an order or pay twice', () => {
  const pay = (body: unknown) =>
    checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), {});

  it('20 parallel retries of one cart make one payment, and every retry gets the same order back', async () => {
    const item = await seedCompleted();
    const before = await countRows();
    const request = { items: [{ transformationId: item.id }], idempotencyKey: newKey() };
    const answers = await Promise.all(Array.from({ length: 20 }, async () => { const r = await pay(request); return { status: r.status, body: await r.json() }; }));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.paymentId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.orderToken)).size).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.body.downloads))).size).toBe(1);
    const after = await countRows();
    expect(after.payments - before.payments).toBe(1);
    expect(after.items - before.items).toBe(1);
  });

  it('the same key with another cart is refused and writes nothing', async () => {
    const [a, b] = [await seedCompleted(), await seedCompleted()];
    const key = newKey();
    expect((await pay({ items: [{ transformationId: a.id }], idempotencyKey: key })).status).toBe(200);
    const before = await countRows();
    const res = await pay({ items: [{ transformationId: b.id }], idempotencyKey: key });
    expect(res.status).toBe(409);
    expect(await countRows()).toEqual(before);
    expect((await getTransformation(b.id))!.purchased).toBe(false);
  });

  it('a price sent by the client is refused; the server prices the cart', async () => {
    const item = await seedCompleted();
    const before = await countRows();
    const res = await pay({ items: [{ transformationId: item.id, price: 0 }], idempotencyKey: newKey() });
    if (res.status === 200) expect((await res.json()).amount).toBe(ITEM_PRICES.image);
    else {
      expect(res.status).toBe(400);
      expect(await countRows()).toEqual(before);
    }
  });

  it('an unfinished result cannot be bought', async () => {
    const t = await createTransformation({ kind: 'image', status: 'processing' });
    const before = await countRows();
    const res = await pay({ items: [{ transformationId: t.id }], idempotencyKey: newKey() });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await countRows()).toEqual(before);
  });
});

describe('checkout: nobody buys another browser’s result from its id', () => {
  const pay = (body: unknown) =>
    checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), client() as never);
  const refusedAsNotYours = async (res: Response) => {
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe(MSG.notYourCartItem);
  };

  it.each([
    ['without its owner secret', async () => undefined],
    ['with another item’s secret', async () => (await seedCompleted('image', { owned: true })).ownerSecret],
  ])('an item %s is refused (403) and nothing is written or sold', async (_, secretOf) => {
    const item = await seedCompleted('image', { owned: true });
    const before = await countRows();
    const ownerSecret = await secretOf();
    await refusedAsNotYours(await pay({ items: [{ transformationId: item.id, ...(ownerSecret && { ownerSecret }) }], idempotencyKey: newKey() }));
    expect(await countRows()).toEqual(before);
    expect((await getTransformation(item.id))!.purchased).toBe(false);
  });

  it('a cart that mixes the buyer’s own result with someone else’s is refused whole', async () => {
    const mine = await seedCompleted('image', { owned: true });
    const theirs = await seedCompleted('video', { owned: true });
    const before = await countRows();
    await refusedAsNotYours(await pay({ items: [{ transformationId: mine.id, ownerSecret: mine.ownerSecret }, { transformationId: theirs.id }, { packageId: 'basic-restoration' }], idempotencyKey: newKey() }));
    expect(await countRows()).toEqual(before);
  });

  it('the owner buys with the secret, priced by the server; the owner’s later payment is never refunded for a stranger’s', async () => {
    const item = await seedCompleted('video', { owned: true });
    await refusedAsNotYours(await pay({ items: [{ transformationId: item.id }], idempotencyKey: newKey() }));
    const res = await pay({ items: [{ transformationId: item.id, ownerSecret: item.ownerSecret }], idempotencyKey: newKey() });
    expect(res.status).toBe(200);
    expect((await res.json()).amount).toBe(ITEM_PRICES.video);
    expect((await getTransformation(item.id))!.purchased).toBe(true);
  });

  it('with Stripe too: refused before any Checkout Session is opened or payment recorded', async () => {
    const stripe = await new FakeStripe().start();
    Object.assign(process.env, stripe.env(), { DEPLOY_URL: BASE });
    try {
      const item = await seedCompleted('image', { owned: true });
      const before = await countRows();
      await refusedAsNotYours(await pay({ items: [{ transformationId: item.id }], idempotencyKey: newKey() }));
      expect(stripe.sessions.size).toBe(0);
      expect(await countRows()).toEqual(before);
      const mine = await pay({ items: [{ transformationId: item.id, ownerSecret: item.ownerSecret }], idempotencyKey: newKey() });
      expect(mine.status).toBe(200);
      expect(stripe.sessions.size).toBe(1);
    } finally {
      for (const k of ['PAYMENTS', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE', 'DEPLOY_URL']) delete process.env[k];
      await stripe.stop();
    }
  });

  it('a malformed owner secret is a 400, and an item from before owner secrets is still bought without one', async () => {
    const item = await seedCompleted('image', { owned: true });
    expect((await pay({ items: [{ transformationId: item.id, ownerSecret: 'guess' }], idempotencyKey: newKey() })).status).toBe(400);
    const legacy = await seedCompleted('image');
    expect((await pay({ items: [{ transformationId: legacy.id }], idempotencyKey: newKey() })).status).toBe(200);
  });
});

describe('downloads: only with the order’s token, only when paid', () => {
  it('a forged token gets nothing', async () => {
    const item = await seedCompleted();
    const res = await downloads(new Request(`${BASE}/api/downloads/${item.id}?token=${'A'.repeat(43)}`), {});
    expect([403, 404]).toContain(res.status);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('an order read with another order’s token gets nothing', async () => {
    const [a, b] = [await seedCompleted(), await seedCompleted()];
    const pay = async (id: string) => (await (await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: id }], idempotencyKey: newKey() }) }), {})).json());
    const [first, second] = [await pay(a.id), await pay(b.id)];
    const res = await orders(new Request(`${BASE}/api/orders/${first.paymentId}?token=${second.orderToken}`), {});
    expect([403, 404]).toContain(res.status);
  });
});

describe('checkout and mail: no relay, no flood, nothing pinned', () => {
  const outbox = () => path.join(path.dirname(process.env.STORAGE_DIR!), 'outbox');
  const mails = () => { try { return readdirSync(outbox()).filter((f) => f.endsWith('.eml')).length; } catch { return 0; } };
  const order = (email: string, ctx: object) =>
    checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'basic-restoration' }], idempotencyKey: newKey(), email }) }), ctx as never);

  beforeEach(async () => {
    for (const k of ['PAYMENTS', 'CONTEXT', 'MAIL_DAILY_LIMIT', 'SMTP_URL', 'MAIL_FROM']) delete process.env[k];
    await query(`delete from rate_limits where key like 'mail:%' or key like 'checkout:%'`);
  });

  it('40 checkouts from one client, each to another recipient: 429 after the limit, no further order or mail', async () => {
    const ctx = client();
    const [payments, sent] = [await count('payments'), mails()];
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await order(`victim${i}.${Date.now()}@example.com`, ctx)).status);
    const allowed = statuses.filter((s) => s === 200).length;
    expect(allowed).toBe(CHECKOUT_LIMIT.max);
    expect(statuses.slice(allowed)).toEqual(Array(40 - allowed).fill(429));
    expect(await count('payments')).toBe(payments + allowed);
    expect(mails()).toBe(sent + allowed);
    const refused = await order('one.more@example.com', ctx);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toBe(MSG.tooManyCheckouts);
  });

  it('a retried checkout (same key) is not counted again: the cart’s own retries never hit the limit', async () => {
    const ctx = client();
    const body = JSON.stringify({ items: [{ packageId: 'ai-creation' }], idempotencyKey: newKey() });
    for (let i = 0; i < CHECKOUT_LIMIT.max + 5; i++) {
      expect((await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }), ctx as never)).status).toBe(200);
    }
  });

  it('one recipient gets at most its daily confirmations; the order still succeeds and says the e-mail was not sent', async () => {
    const to = `often.${Date.now()}@example.com`;
    for (let i = 0; i < MAIL_LIMITS.perRecipient.max; i++) expect((await (await order(to, client())).json()).confirmation.status).toBe('saved');
    const sent = mails();
    const res = await order(to, client());
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.confirmation).toEqual({ status: 'limited', to: expect.stringMatching(/^o…@example\.com$/) });
    expect(confirmationSentence(body.confirmation)).toBe(MSG.confirmationLimited(body.confirmation.to));
    expect(mails()).toBe(sent);
  });

  it('the site sends at most its daily number of e-mails in all', async () => {
    process.env.MAIL_DAILY_LIMIT = '2';
    for (let i = 0; i < 2; i++) expect((await (await order(`first${i}.${Date.now()}@example.com`, client())).json()).confirmation.status).toBe('saved');
    const sent = mails();
    const body = await (await order(`third.${Date.now()}@example.com`, client())).json();
    expect(body).toMatchObject({ success: true, confirmation: { status: 'limited' } });
    expect(mails()).toBe(sent);
  });

  it('a production deploy without PAYMENTS refuses checkout (503) and says why in health; nothing written', async () => {
    process.env.CONTEXT = 'production';
    try {
      const before = await count('payments');
      const res = await order(`prod.${Date.now()}@example.com`, client());
      expect(res.status).toBe(503);
      expect((await res.json()).error).toBe(MSG.paymentsUnavailable);
      expect(await count('payments')).toBe(before);
      const status = await health(new Request(`${BASE}/api/health`));
      expect((await status.json()).payments).toEqual({ mode: 'misconfigured' });
      process.env.PAYMENTS = 'demo';
      expect((await order(`prod2.${Date.now()}@example.com`, client())).status).toBe(200);
    } finally {
      delete process.env.CONTEXT;
    }
  });

  it('an unpaid checkout expires and releases its item: the result nobody bought is cleaned up as usual', async () => {
    const item = await seedCompleted();
    const [pending] = await query<{ payment_id: string }>(`select payment_id from place_order($1::jsonb, $2, 'stripe')`, [JSON.stringify([{ transformationId: item.id }]), newKey()]);
    await query(`update payments set created_at = now() - interval '2 days' where id = $1`, [pending!.payment_id]);
    await query(`alter table media_transformations disable trigger media_transformations_updated_at`);
    await query(`update media_transformations set created_at = now() - interval '90 days' where id = $1`, [item.id]);
    await query(`alter table media_transformations enable trigger media_transformations_updated_at`);
    const done = await runMaintenance();
    expect(done.checkoutsExpired).toBeGreaterThanOrEqual(1);
    expect((await query<{ status: string }>(`select status from payments where id = $1`, [pending!.payment_id]))[0]!.status).toBe('failed');
    expect(await getTransformation(item.id)).toBeNull();
    expect(await getStorage().get(item.resultPath!)).toBeNull();
  });
});

describe('the smaller findings: orders', () => {
  it('the local outbox is readable by the server’s user only', async () => {
    const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'family-package' }], idempotencyKey: newKey(), email: `private.${Date.now()}@example.com` }) }), client() as never);
    expect((await res.json()).confirmation.status).toBe('saved');
    const dir = path.join(path.dirname(process.env.STORAGE_DIR!), 'outbox');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(dir)) expect(statSync(path.join(dir, file)).mode & 0o077).toBe(0);
  });
});
