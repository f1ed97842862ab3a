import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import checkoutSession from '../../../netlify/functions/checkout-session.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import health from '../../../netlify/functions/health.mts';
import { operatorHealthRequest } from '../../support/operator-health';
import stripeWebhook from '../../../netlify/functions/stripe-webhook.mts';
import { query } from '../../../netlify/lib/db';
import { stripeClient } from '../../../netlify/lib/payments/stripe';
import { readPaymentsConfig } from '../../../netlify/lib/payments/config';
import { resetDeployState } from '../../../netlify/lib/running-deploy';
import { downloadToken } from '../../../netlify/lib/orders/tokens';
import { MSG } from '../../../src/lib/messages';
import { findImagePackage, ITEM_NAMES, ITEM_PRICES, sumPrices } from '../../../src/lib/catalog';
import { toCents } from '../../../src/lib/money';
import { FakeStripe } from '../../support/fake-stripe';
import { STRIPE_BASE, useStripePlatform } from './helpers/stripe-platform';
import { newKey, seedCompleted } from './helpers/seed';

// PAYMENTS=stripe end to end at the function level: real Requests, the embedded database, the official
// stripe library pointed at a local stand-in, and webhooks signed with the library's test-header helper.
const BASE = STRIPE_BASE;
const stripe = useStripePlatform();

const postCheckout = (body: object) =>
  checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), {});
const postWebhook = (payload: string, signature?: string) =>
  stripeWebhook(
    new Request(`${BASE}/api/stripe-webhook`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature !== undefined && { 'stripe-signature': signature }) },
      body: payload,
    }),
    {},
  );
const send = (event: ReturnType<FakeStripe['event']>) => {
  const { payload, signature } = stripe.sign(event);
  return postWebhook(payload, signature);
};
const sessionOrder = async (sessionId: string) => (await checkoutSession(new Request(`${BASE}/api/checkout/sessions/${sessionId}`), {})).json();
const download = (url: string) => downloads(new Request(`${BASE}${url}`), {});

/** Everything a webhook could change: "changes nothing" compares two of these. */
async function state() {
  return {
    payments: await query('select id, status, stripe_session_id, stripe_payment_intent from payments order by id'),
    items: await query('select payment_id, position, sold from payment_items order by payment_id, position'),
    purchased: await query('select id from media_transformations where purchased order by id'),
    events: await query('select id from stripe_events order by id'),
  };
}

/** A pending Stripe checkout of one finished image: the payment, its session and the seeded item. */
async function startCheckout() {
  const item = await seedCompleted('image');
  const res = await postCheckout({ items: [{ transformationId: item.id }], idempotencyKey: newKey() });
  expect(res.status).toBe(200);
  const body = await res.json();
  const sessionId = new URL(body.checkoutUrl).pathname.split('/').pop()!;
  return { item, body, sessionId };
}

describe('PAYMENTS=stripe', () => {
  it('records a pending payment and opens a Checkout Session priced by the server', async () => {
    const image = await seedCompleted('image');
    const video = await seedCompleted('video');
    const key = newKey();
    const res = await postCheckout({ items: [{ transformationId: image.id }, { transformationId: video.id }, { packageId: 'ai-creation' }], idempotencyKey: key });
    expect(res.status).toBe(200);
    const body = await res.json();
    const creation = findImagePackage('ai-creation')!;
    expect(body).toMatchObject({ success: true, amount: sumPrices([ITEM_PRICES.image, ITEM_PRICES.video, creation.priceValue]), currency: 'USD', downloads: [] });
    expect(body.checkoutUrl).toMatch(new RegExp(`^${stripe.base}/pay/cs_test_\\w+$`));

    const create = stripe.creates.at(-1)!;
    expect(create.idempotencyKey).toBe(`checkout-session:${body.paymentId}`);
    expect(create.params).toMatchObject({
      mode: 'payment',
      client_reference_id: body.paymentId,
      metadata: { payment_id: body.paymentId },
      success_url: `${BASE}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${BASE}/checkout/cancel`,
    });
    expect(create.params.line_items.map((li: any) => [li.price_data.product_data.name, li.price_data.unit_amount, li.price_data.currency])).toEqual([
      [ITEM_NAMES.image, String(toCents(ITEM_PRICES.image)), 'usd'],
      [ITEM_NAMES.video, String(toCents(ITEM_PRICES.video)), 'usd'],
      [creation.name, String(toCents(creation.priceValue)), 'usd'],
    ]);
    const [payment] = await query('select status, payment_method, stripe_session_id from payments where id = $1', [body.paymentId]);
    const sessionId = new URL(body.checkoutUrl).pathname.split('/').pop();
    expect(payment).toEqual({ status: 'pending', payment_method: 'stripe', stripe_session_id: sessionId });
    expect(await query('select id from media_transformations where purchased and id = any($1::uuid[])', [[image.id, video.id]])).toEqual([]);

    // A retried request (same idempotency key) gets the same payment and the same session.
    const creates = stripe.creates.length;
    const again = await (await postCheckout({ items: [{ transformationId: image.id }, { transformationId: video.id }, { packageId: 'ai-creation' }], idempotencyKey: key })).json();
    expect(again).toMatchObject({ paymentId: body.paymentId, checkoutUrl: body.checkoutUrl });
    expect(stripe.creates.length).toBe(creates);
  });

  it('releases nothing before the webhook; a paid session releases the clean files', async () => {
    const { item, body, sessionId } = await startCheckout();
    const pending = await sessionOrder(sessionId);
    expect(pending).toMatchObject({ success: true, paymentId: body.paymentId, status: 'pending', paymentMethod: 'stripe', downloads: [] });
    // Even with a valid download token, the clean file waits for the verified payment.
    const early = await download(`/api/downloads/${item.id}?token=${downloadToken(body.paymentId, item.id)}`);
    expect(early.status).toBe(403);

    const paid = await send(stripe.event('checkout.session.completed', stripe.pay(sessionId)));
    expect(paid.status).toBe(200);
    expect(await paid.json()).toMatchObject({ received: true, applied: true, status: 'completed' });

    const order = await sessionOrder(sessionId);
    expect(order).toMatchObject({ status: 'completed', amount: ITEM_PRICES.image });
    expect(order.downloads).toHaveLength(1);
    const file = await download(order.downloads[0].url);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(item.clean);
    const [payment] = await query('select stripe_payment_intent from payments where id = $1', [body.paymentId]);
    expect(payment!.stripe_payment_intent).toBe(stripe.sessions.get(sessionId)!.payment_intent);
  });

  it('refuses a forged signature, a tampered body and a missing header, changing nothing', async () => {
    const { sessionId } = await startCheckout();
    const event = stripe.event('checkout.session.completed', stripe.pay(sessionId));
    const before = await state();

    const forged = stripe.sign(event, { secret: 'whsec_notthesiteSecret000' });
    const tampered = stripe.sign(stripe.event('checkout.session.completed', { id: 'cs_test_other' }));
    const attempts = [
      await postWebhook(forged.payload, forged.signature),
      await postWebhook(stripe.sign(event).payload.replace('"paid"', '"paid" '), stripe.sign(event).signature),
      await postWebhook(JSON.stringify(event), tampered.signature),
      await postWebhook(JSON.stringify(event)),
    ];
    for (const res of attempts) {
      expect(res.status).toBe(400);
      expect((await res.json()).success).toBe(false);
    }
    expect(await state()).toEqual(before);
  });

  it('applies an event once: a redelivery or replay changes nothing, an old signature is refused', async () => {
    const { sessionId } = await startCheckout();
    const event = stripe.event('checkout.session.completed', stripe.pay(sessionId));
    expect((await send(event)).status).toBe(200);
    const after = await state();

    const replay = await send(event);
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({ applied: false, reason: 'duplicate event' });

    const stale = stripe.sign(event, { timestamp: Math.floor(Date.now() / 1000) - 600 });
    expect((await postWebhook(stale.payload, stale.signature)).status).toBe(400);
    expect(await state()).toEqual(after);
  });

  it('acknowledges an event for a session this site did not make (200, so Stripe stops retrying) and changes nothing', async () => {
    const client = stripeClient((readPaymentsConfig() as { stripe: Parameters<typeof stripeClient>[0] }).stripe);
    const lineItems = [{ quantity: 1, price_data: { currency: 'usd', unit_amount: toCents(ITEM_PRICES.image), product_data: { name: ITEM_NAMES.image } } }];
    const before = await state();
    for (const metadata of [{ payment_id: randomUUID() }, { payment_id: 'not-a-uuid' }, {}] as Record<string, string>[]) {
      const session = await client.checkout.sessions.create({ mode: 'payment', line_items: lineItems, metadata, success_url: `${BASE}/checkout/success` });
      const res = await send(stripe.event('checkout.session.completed', stripe.pay(session.id)));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ received: true, applied: false, reason: expect.stringMatching(/not made by this site/) });
    }
    expect(await state()).toEqual(before);
  });

  it('refuses a session whose amount does not match the recorded price, releasing nothing', async () => {
    const { item, body, sessionId } = await startCheckout();
    // As if a coupon or a changed price made Stripe charge less than the server's price.
    Object.assign(stripe.sessions.get(sessionId)!, { amount_total: 1, amount_subtotal: 1 });
    const before = await state();
    const res = await send(stripe.event('checkout.session.completed', stripe.pay(sessionId)));
    expect(res.status).toBe(409);
    expect((await res.json()).error).toMatch(/amount/);
    const { payments, items, purchased, events } = await state();
    // pay() changed the stand-in only; the database is as before.
    expect({ payments, items, purchased, events }).toEqual(before);
    expect((await sessionOrder(sessionId)).status).toBe('pending');
    expect(purchased.some((row) => row.id === item.id)).toBe(false);
    expect(body.paymentId).toBeTruthy();
  });

  it('marks an expired session failed, never after payment, and lets the cart be bought again', async () => {
    const { item, body, sessionId } = await startCheckout();
    const expired = await send(stripe.event('checkout.session.expired', stripe.expire(sessionId)));
    expect(await expired.json()).toMatchObject({ applied: true, status: 'failed' });
    expect((await sessionOrder(sessionId)).status).toBe('failed');

    // The abandoned checkout does not hold the item.
    const retry = await postCheckout({ items: [{ transformationId: item.id }], idempotencyKey: newKey() });
    expect(retry.status).toBe(200);
    const retryBody = await retry.json();
    expect(retryBody.paymentId).not.toBe(body.paymentId);

    // A paid session's late expiry event (out of order) does not undo the payment.
    const retrySession = new URL(retryBody.checkoutUrl).pathname.split('/').pop()!;
    const paid = stripe.pay(retrySession);
    expect((await send(stripe.event('checkout.session.completed', paid))).status).toBe(200);
    const late = await send(stripe.event('checkout.session.expired', paid));
    expect(await late.json()).toMatchObject({ applied: false, status: 'completed' });
  });

  it('revokes the downloads on a full refund, keeps them on a partial one, and a replay cannot restore them', async () => {
    const { item, sessionId } = await startCheckout();
    const completed = stripe.event('checkout.session.completed', stripe.pay(sessionId));
    await send(completed);
    const { downloads: links } = await sessionOrder(sessionId);
    expect((await download(links[0].url)).status).toBe(200);

    const partial = await send(stripe.event('charge.refunded', stripe.refundedCharge(sessionId, 50)));
    expect(await partial.json()).toMatchObject({ applied: false, status: 'completed' });
    expect((await download(links[0].url)).status).toBe(200);

    const full = await send(stripe.event('charge.refunded', stripe.refundedCharge(sessionId)));
    expect(await full.json()).toMatchObject({ applied: true, status: 'refunded' });
    const refused = await download(links[0].url);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(MSG.downloadForbidden);
    expect(await sessionOrder(sessionId)).toMatchObject({ status: 'refunded', downloads: [] });

    const after = await state();
    expect((await send(completed)).status).toBe(200); // the same event again: a duplicate
    expect(await send(stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)))).toHaveProperty('status', 200);
    expect(await state()).toEqual({ ...after, events: expect.any(Array) });
    expect((await download(links[0].url)).status).toBe(403);
    expect(await query('select purchased from media_transformations where id = $1', [item.id])).toEqual([{ purchased: false }]);
  });

  it('answers the session lookup with 404 for an unknown session and 400 for a malformed one', async () => {
    expect((await checkoutSession(new Request(`${BASE}/api/checkout/sessions/cs_test_nothere`), {})).status).toBe(404);
    expect((await checkoutSession(new Request(`${BASE}/api/checkout/sessions/abc`), {})).status).toBe(400);
  });
});

describe('payments configuration', () => {
  it('reports the active mode in /api/health', async () => {
    expect((await (await health(new Request(`${BASE}/api/health`))).json()).payments).toEqual({ mode: 'stripe' });
    process.env.PAYMENTS = '';
    expect((await (await health(new Request(`${BASE}/api/health`))).json()).payments).toEqual({ mode: 'demo' });
  });

  it('with Stripe selected but no keys: health says what is missing, checkout and webhook answer 503', async () => {
    delete process.env.STRIPE_SECRET_KEY;
    delete process.env.STRIPE_WEBHOOK_SECRET;
    const { payments } = await (await health(operatorHealthRequest(`${BASE}/api/health`))).json();
    expect(payments).toEqual({ mode: 'misconfigured', problem: expect.stringMatching(/STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET/) });
    const item = await seedCompleted('image');
    const before = await state();
    const res = await postCheckout({ items: [{ transformationId: item.id }], idempotencyKey: newKey() });
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe(MSG.paymentsUnavailable);
    expect((await postWebhook('{}', 't=1,v1=x')).status).toBe(503);
    expect(await state()).toEqual(before);
  });

  it('on a Deploy Preview, live keys are refused: checkout 503 with a clear message, health says why; test keys work', async () => {
    const previewContext = { deploy: { context: 'deploy-preview', branch: 'content/new-hero' } };
    try {
      process.env.STRIPE_SECRET_KEY = 'sk_live_abc123';
      const item = await seedCompleted('image');
      const before = await state();
      const creates = stripe.creates.length;
      const res = await checkout(
        new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: item.id }], idempotencyKey: newKey() }) }),
        previewContext,
      );
      expect(res.status).toBe(503);
      expect((await res.json()).error).toBe(MSG.paymentsLiveOnPreview);
      // Every answer of a preview is kept out of search engines.
      expect(res.headers.get('x-robots-tag')).toBe('noindex');
      expect(await state()).toEqual(before);
      expect(stripe.creates.length).toBe(creates);
      const { payments } = await (await health(operatorHealthRequest(`${BASE}/api/health`), previewContext)).json();
      expect(payments).toEqual({ mode: 'misconfigured', problem: expect.stringMatching(/Live Stripe keys are refused on a deploy-preview deploy/) });
      // The same deploy with a test key takes the (test) payment.
      Object.assign(process.env, stripe.env());
      expect((await postCheckout({ items: [{ transformationId: item.id }], idempotencyKey: newKey() })).status).toBe(200);
    } finally {
      resetDeployState();
    }
    // Outside a preview, nothing says noindex.
    expect((await health(new Request(`${BASE}/api/health`))).headers.get('x-robots-tag')).toBeNull();
  });

  it('in demo mode the webhook endpoint does not exist', async () => {
    process.env.PAYMENTS = 'demo';
    expect((await postWebhook('{}', 't=1,v1=x')).status).toBe(404);
  });
});
