import { describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import checkoutSession from '../../../netlify/functions/checkout-session.mts';
import stripeWebhook from '../../../netlify/functions/stripe-webhook.mts';
import { query } from '../../../netlify/lib/db';
import { expireUnpaidCheckouts } from '../../../netlify/lib/payments/expiry';
import { toCents } from '../../../src/lib/money';
import { STRIPE_BASE, useStripePlatform } from '../platform/helpers/stripe-platform';
import { newKey, seedCompleted } from '../platform/helpers/seed';

// The abuse corpus, slow payments: a failing network or a days-long bank debit never leaves a buyer charged
// without the download or a refund. The official library against the local Stripe stand-in.
const BASE = STRIPE_BASE;
const stripe = useStripePlatform();

const send = async (type: string, sessionId: string) => {
  const { payload, signature } = stripe.sign(stripe.event(type, stripe.sessions.get(sessionId)));
  return stripeWebhook(new Request(`${BASE}/api/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload }), {});
};
const order = async (sessionId: string) => (await checkoutSession(new Request(`${BASE}/api/checkout/sessions/${sessionId}`), {})).json();
const status = async (paymentId: string) => (await query<{ status: string }>('select status from payments where id = $1', [paymentId]))[0]!.status;
/** The payment as if it had been recorded `hours` ago. */
const age = (paymentId: string, hours: number) => query(`update payments set created_at = now() - make_interval(hours => $2::int) where id = $1`, [paymentId, hours]);

async function startCheckout(transformationId?: string) {
  const itemId = transformationId ?? (await seedCompleted('image')).id;
  const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: itemId }], idempotencyKey: newKey() }) }), {});
  expect(res.status).toBe(200);
  const body = await res.json();
  return { itemId, paymentId: body.paymentId as string, amount: body.amount as number, sessionId: new URL(body.checkoutUrl).pathname.split('/').pop()! };
}

describe('no buyer is charged for nothing', () => {
  it('a session completed and paid but never announced (a webhook outage), found after 30 h pending: the order completes', async () => {
    const { paymentId, sessionId } = await startCheckout();
    stripe.pay(sessionId);
    await age(paymentId, 30);
    await expireUnpaidCheckouts();
    expect(await status(paymentId)).toBe('completed');
    expect((await order(sessionId)).downloads).toHaveLength(1);
  });

  it('an asynchronous payment still processing after 30 h is never failed; its async_payment_succeeded completes it', async () => {
    const { paymentId, sessionId } = await startCheckout();
    stripe.payAsync(sessionId);
    expect((await send('checkout.session.completed', sessionId)).status).toBe(200);
    await age(paymentId, 30);
    await expireUnpaidCheckouts();
    expect(await status(paymentId)).toBe('pending');
    stripe.settleAsync(sessionId);
    expect((await send('checkout.session.async_payment_succeeded', sessionId)).status).toBe(200);
    expect(await status(paymentId)).toBe('completed');
    expect((await order(sessionId)).downloads).toHaveLength(1);
  });

  it('async_payment_succeeded for an order already failed (failed by an older expiry) completes it while its items are free', async () => {
    const { paymentId, sessionId } = await startCheckout();
    stripe.payAsync(sessionId);
    await query(`update payments set status = 'failed' where id = $1`, [paymentId]);
    stripe.settleAsync(sessionId);
    const refundsBefore = stripe.refunds.length;
    expect((await send('checkout.session.async_payment_succeeded', sessionId)).status).toBe(200);
    expect(await status(paymentId)).toBe('completed');
    expect((await order(sessionId)).downloads).toHaveLength(1);
    expect(stripe.refunds).toHaveLength(refundsBefore);
  });

  it('the same late payment whose item another order has bought since: refunded at once, in full, once', async () => {
    const first = await startCheckout();
    stripe.payAsync(first.sessionId);
    await query(`update payments set status = 'failed' where id = $1`, [first.paymentId]);
    // The item, free again, is bought by someone else.
    const second = await startCheckout(first.itemId);
    stripe.pay(second.sessionId);
    expect((await send('checkout.session.completed', second.sessionId)).status).toBe(200);
    expect(await status(second.paymentId)).toBe('completed');

    stripe.settleAsync(first.sessionId);
    expect((await send('checkout.session.async_payment_succeeded', first.sessionId)).status).toBe(200);
    expect(await status(first.paymentId)).toBe('refunded');
    const intent = stripe.sessions.get(first.sessionId)!.payment_intent;
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toEqual([expect.objectContaining({ payment_intent: intent })]);
    expect((await order(first.sessionId)).downloads ?? []).toHaveLength(0);
    // A redelivery neither refunds twice nor sells.
    expect((await send('checkout.session.async_payment_succeeded', first.sessionId)).status).toBe(200);
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toHaveLength(1);
    expect(await status(second.paymentId)).toBe('completed');
  });

  it('a completed session paid after 30 h of pending whose item was sold meanwhile: refunded, never "failed with money kept"', async () => {
    const first = await startCheckout();
    // An older expiry failed it while Stripe still held an open session the buyer then paid.
    await query(`update payments set status = 'failed' where id = $1`, [first.paymentId]);
    const second = await startCheckout(first.itemId);
    stripe.pay(second.sessionId);
    await send('checkout.session.completed', second.sessionId);
    stripe.pay(first.sessionId);
    await age(first.paymentId, 30);
    expect((await send('checkout.session.completed', first.sessionId)).status).toBe(200);
    expect(await status(first.paymentId)).toBe('refunded');
    const intent = stripe.sessions.get(first.sessionId)!.payment_intent!;
    const refunds = stripe.refunds.filter((r) => r.payment_intent === intent);
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.amount).toBe(toCents(first.amount));
  });

  it('an open session past its hour is expired at Stripe first, then failed; a lost async failure is read from the PaymentIntent', async () => {
    const open = await startCheckout();
    await age(open.paymentId, 2);
    await expireUnpaidCheckouts();
    expect(await status(open.paymentId)).toBe('failed');
    expect(stripe.sessions.get(open.sessionId)!.status).toBe('expired');

    const bounced = await startCheckout();
    stripe.payAsync(bounced.sessionId);
    stripe.paymentIntents.get(stripe.sessions.get(bounced.sessionId)!.payment_intent!)!.status = 'requires_payment_method';
    await age(bounced.paymentId, 30);
    await expireUnpaidCheckouts();
    expect(await status(bounced.paymentId)).toBe('failed');
  });
});
