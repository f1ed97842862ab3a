import { describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import checkoutSession from '../../../netlify/functions/checkout-session.mts';
import stripeWebhook from '../../../netlify/functions/stripe-webhook.mts';
import { checkoutAnswerSchema, orderAnswerSchema } from '../../../src/lib/orders-schema';
import { STRIPE_BASE, useStripePlatform } from '../platform/helpers/stripe-platform';
import { newKey, seedCompleted } from '../platform/helpers/seed';
import { answerOf } from './helpers';

// The checkout's contract with real payments (PAYMENTS=stripe against the local Stripe stand-in): the answer that
// names the payment page, and the session's order the success page polls, pending and then paid.
const stripe = useStripePlatform();
const BASE = STRIPE_BASE;

describe('the Stripe checkout’s answers match the schemas the cart and the success page read them with', () => {
  it('a checkout that names the payment page; its session’s order before and after the webhook', async () => {
    const item = await seedCompleted('image');
    const started = await answerOf(checkoutAnswerSchema, await checkout(
      new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: item.id }], idempotencyKey: newKey() }) }),
      {},
    ));
    expect(started.checkoutUrl).toMatch(/^https?:\/\//);
    const sessionId = new URL(started.checkoutUrl!).pathname.split('/').pop()!;
    const session = () => checkoutSession(new Request(`${BASE}/api/checkout/sessions/${sessionId}`), {});

    const pending = await answerOf(orderAnswerSchema, await session());
    expect(pending).toMatchObject({ paymentId: started.paymentId, orderToken: started.orderToken, status: 'pending', downloads: [] });

    const { payload, signature } = stripe.sign(stripe.event('checkout.session.completed', stripe.pay(sessionId)));
    expect((await stripeWebhook(new Request(`${BASE}/api/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload }), {})).status).toBe(200);
    const paid = await answerOf(orderAnswerSchema, await session());
    expect(paid).toMatchObject({ status: 'completed', paymentMethod: 'stripe' });
    expect(paid.downloads.map((d) => d.transformationId)).toEqual([item.id]);
  });
});
