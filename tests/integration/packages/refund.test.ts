import { describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import checkoutSession from '../../../netlify/functions/checkout-session.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import stripeWebhook from '../../../netlify/functions/stripe-webhook.mts';
import { query } from '../../../netlify/lib/db';
import { MSG } from '../../../src/lib/messages';
import type { FakeStripe } from '../../support/fake-stripe';
import { STRIPE_BASE, useStripePlatform } from '../platform/helpers/stripe-platform';
import { newKey, seedCompleted } from '../platform/helpers/seed';
import { keyOf, packageRequest, take } from './helpers';

// A package paid through Stripe (the local stand-in): its allowance exists only once the verified webhook completes the
// payment, and a full refund revokes what is left while what was taken stays downloadable.
const stripe = useStripePlatform();
const BASE = STRIPE_BASE;
const send = async (event: ReturnType<FakeStripe['event']>) => {
  const { payload, signature } = stripe.sign(event);
  return stripeWebhook(new Request(`${BASE}/api/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload }), {});
};
const sessionOrder = async (sessionId: string) => (await checkoutSession(new Request(`${BASE}/api/checkout/sessions/${sessionId}`), {})).json();

describe('a package paid with Stripe', () => {
  it('gives nothing before the webhook, its allowance once after (a redelivery too), and a refund revokes the remainder', async () => {
    const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'premium-restoration' }], idempotencyKey: newKey() }) }), {});
    const body = await res.json();
    expect(body.allowances).toEqual([]);
    const sessionId = new URL(body.checkoutUrl).pathname.split('/').pop()!;
    expect(await query('select 1 from package_allowances where payment_id = $1', [body.paymentId])).toHaveLength(0);

    const completed = stripe.event('checkout.session.completed', stripe.pay(sessionId));
    expect((await send(completed)).status).toBe(200);
    expect((await send(stripe.event('checkout.session.completed', stripe.sessions.get(sessionId)))).status).toBe(200);
    const order = await sessionOrder(sessionId);
    expect(order.allowances).toHaveLength(1);
    expect(order.allowances[0]).toMatchObject({ imagesTotal: 250, imagesLeft: 250, state: 'active' });
    expect(await query('select count(*)::int as n from package_allowances where payment_id = $1', [body.paymentId])).toEqual([{ n: 1 }]);

    const key = keyOf(order.allowances[0].link);
    const image = await seedCompleted('image', { owned: true });
    const { downloadUrl } = await (await take(key, image.id, image.ownerSecret)).json();

    expect((await send(stripe.event('charge.refunded', stripe.refundedCharge(sessionId)))).status).toBe(200);
    const after = await (await packageRequest('/api/packages', key)).json();
    expect(after.allowance).toMatchObject({ state: 'revoked', imagesUsed: 1, imagesLeft: 0 });
    const fresh = await seedCompleted('image', { owned: true });
    const refused = await take(key, fresh.id, fresh.ownerSecret);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toBe(MSG.packageRevoked);
    // What was taken stays the buyer's.
    const file = await downloads(new Request(`${BASE}${downloadUrl}`), {});
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(image.clean);
  });
});
