import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import checkoutSession from '../../../netlify/functions/checkout-session.mts';
import stripeWebhook from '../../../netlify/functions/stripe-webhook.mts';
import { query } from '../../../netlify/lib/db';
import { getTransformation } from '../../../netlify/lib/transformations';
import { ITEM_PRICES } from '../../../src/lib/catalog';
import { toCents } from '../../../src/lib/money';
import { FakeStripe } from '../../support/fake-stripe';
import { downloadToken } from '../../../netlify/lib/orders/tokens';
import { stripeClient } from '../../../netlify/lib/payments/stripe';
import type { StripeSettings } from '../../../netlify/lib/payments/config';
import { newKey, seedCompleted } from '../platform/helpers/seed';
import { BASE, client, count, useEmbeddedPlatform } from './helpers';

useEmbeddedPlatform();

describe('downloads are bound to the sale that made them', () => {
  const stripe = new FakeStripe();
  beforeAll(async () => { await stripe.start(); });
  afterAll(async () => { await stripe.stop(); });
  beforeEach(() => { Object.assign(process.env, stripe.env(), { DEPLOY_URL: BASE }); });
  afterEach(() => { for (const k of ['PAYMENTS', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE', 'DEPLOY_URL']) delete process.env[k]; });

  const send = async (event: ReturnType<FakeStripe['event']>) => {
    const { payload, signature } = stripe.sign(event);
    return stripeWebhook(new Request(`${BASE}/api/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload }), {});
  };
  const open = async (itemId: string) => {
    const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: itemId }], idempotencyKey: newKey() }) }), client() as never);
    const body = await res.json();
    return { paymentId: body.paymentId as string, sessionId: new URL(body.checkoutUrl).pathname.split('/').pop()! };
  };
  const orderOf = async (sessionId: string) => (await checkoutSession(new Request(`${BASE}/api/checkout/sessions/${sessionId}`), {})).json();
  const fetchFile = (url: string) => downloads(new Request(`${BASE}${url}`), {});
  const rows = async () => ({
    payments: await query('select id, status from payments order by id'),
    items: await query('select payment_id, sold, refund_id from payment_items order by id'),
    events: await count('stripe_events'),
  });

  it('paid twice in two tabs: the second payment sells nothing, is refunded through the API, and its link is refused', async () => {
    const item = await seedCompleted();
    const [first, second] = [await open(item.id), await open(item.id)];
    expect((await send(stripe.event('checkout.session.completed', stripe.pay(first.sessionId)))).status).toBe(200);
    const duplicate = await send(stripe.event('checkout.session.completed', stripe.pay(second.sessionId)));
    expect(await duplicate.json()).toMatchObject({ applied: true, status: 'completed', refundId: expect.stringMatching(/^re_/) });
    const order = await orderOf(second.sessionId);
    expect(order.downloads).toEqual([]);
    expect(order.items).toEqual([expect.objectContaining({ transformationId: item.id, duplicate: 'refunded' })]);
    expect(stripe.refunds).toEqual([expect.objectContaining({ payment_intent: stripe.sessions.get(second.sessionId)!.payment_intent, amount: toCents(ITEM_PRICES.image) })]);
    // A link bound to the duplicate payment opens nothing; the sale's own link works.
    const refused = await fetchFile(`/api/downloads/${item.id}?token=${downloadToken(second.paymentId, item.id)}`);
    expect(refused.status).toBe(403);
    const sale = await orderOf(first.sessionId);
    expect((await fetchFile(sale.downloads[0].url)).status).toBe(200);
    // Stripe then reports the duplicate payment refunded in full: it ends refunded; the sale is untouched.
    const refundedEvent = await send(stripe.event('charge.refunded', stripe.refundedCharge(second.sessionId, toCents(ITEM_PRICES.image))));
    expect(await refundedEvent.json()).toMatchObject({ applied: true, status: 'refunded' });
    expect((await fetchFile(sale.downloads[0].url)).status).toBe(200);
    expect((await getTransformation(item.id))!.purchased).toBe(true);
  });

  it('a dispute (chargeback) revokes the download at once', async () => {
    const item = await seedCompleted();
    const { sessionId } = await open(item.id);
    await send(stripe.event('checkout.session.completed', stripe.pay(sessionId)));
    const link = (await orderOf(sessionId)).downloads[0].url;
    expect((await fetchFile(link)).status).toBe(200);
    const disputed = await send(stripe.event('charge.dispute.created', stripe.dispute(sessionId)));
    expect(await disputed.json()).toMatchObject({ applied: true, status: 'disputed' });
    expect((await fetchFile(link)).status).toBe(403);
    expect(await orderOf(sessionId)).toMatchObject({ status: 'disputed', downloads: [] });
    expect((await getTransformation(item.id))!.purchased).toBe(false);
  });

  it('a session, refund or dispute this site did not make is acknowledged (200) and ignored: nothing changes', async () => {
    const settings = stripe.env();
    const api = stripeClient({ secretKey: settings.STRIPE_SECRET_KEY!, webhookSecret: settings.STRIPE_WEBHOOK_SECRET!, api: { host: '127.0.0.1', port: Number(new URL(stripe.base).port), protocol: 'http' } } satisfies StripeSettings);
    const foreign = await api.checkout.sessions.create({ mode: 'payment', line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Another shop' } } }], success_url: 'https://other.example/done' });
    const before = await rows();
    for (const event of [
      stripe.event('checkout.session.completed', stripe.pay(foreign.id)),
      stripe.event('charge.refunded', stripe.refundedCharge(foreign.id)),
      stripe.event('charge.dispute.created', stripe.dispute(foreign.id)),
    ]) {
      const res = await send(event);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ received: true, applied: false, reason: expect.stringMatching(/not made by this site/) });
    }
    expect(await rows()).toEqual(before);
    expect(stripe.refunds.filter((r) => r.payment_intent === stripe.sessions.get(foreign.id)!.payment_intent)).toEqual([]);
  });

  it('a refund of this site’s charge that arrives before its completion is answered 404, so Stripe delivers it again later', async () => {
    const item = await seedCompleted();
    const { sessionId } = await open(item.id);
    stripe.pay(sessionId); // paid at Stripe; the completion event has not landed here yet
    const before = await rows();
    expect((await send(stripe.event('charge.refunded', stripe.refundedCharge(sessionId)))).status).toBe(404);
    expect(await rows()).toEqual(before);
  });
});
