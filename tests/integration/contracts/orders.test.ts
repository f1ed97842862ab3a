import { describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import orders from '../../../netlify/functions/orders.mts';
import { checkoutAnswerSchema, checkoutRequestSchema, orderAnswerSchema, type CheckoutRequest } from '../../../src/lib/orders-schema';
import { ITEM_PRICES, findImagePackage, sumPrices } from '../../../src/lib/catalog';
import { MSG } from '../../../src/lib/messages';
import { useEmbeddedPlatform } from '../platform/helpers/backends';
import { newKey, seedCompleted } from '../platform/helpers/seed';
import { answerOf, refusalOf } from './helpers';

// The checkout's and the orders' contract (src/lib/orders-schema.ts) with the demo checkout: what the cart and the
// success page read, from the real functions. The Stripe side: orders-stripe.test.ts.
const BASE = 'http://localhost:8888';
useEmbeddedPlatform();

const post = (body: CheckoutRequest | object) =>
  checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), {});

describe('the checkout’s and the order’s answers match the schemas the cart and the success page read them with', () => {
  it('a demo checkout of a result and a package, then its order by id and token', async () => {
    const image = await seedCompleted('image', { owned: true });
    const body: CheckoutRequest = checkoutRequestSchema.parse({
      items: [{ transformationId: image.id, ownerSecret: image.ownerSecret }, { packageId: 'basic-restoration' }],
      idempotencyKey: newKey(),
      email: 'buyer@example.com',
    });
    const paid = await answerOf(checkoutAnswerSchema, await post(body));
    expect(paid).toMatchObject({ amount: sumPrices([ITEM_PRICES.image, findImagePackage('basic-restoration')!.priceValue]), confirmation: { status: expect.any(String) } });
    expect(paid.checkoutUrl).toBeUndefined();
    expect(paid.downloads.map((d) => d.transformationId)).toEqual([image.id]);
    expect(paid.allowances).toHaveLength(1);

    const order = await answerOf(orderAnswerSchema, await orders(new Request(`${BASE}/api/orders/${paid.paymentId}?token=${paid.orderToken}`), {}));
    expect(order).toMatchObject({ paymentId: paid.paymentId, orderToken: paid.orderToken, status: 'completed', paymentMethod: 'demo', downloads: paid.downloads, allowances: paid.allowances });
  });

  it('refusals: a bad cart and a wrong token, each `{ success: false, error }`', async () => {
    expect((await refusalOf(await post({ items: [], idempotencyKey: 'short' }), 400)).error).toMatch(/idempotencyKey/);
    const image = await seedCompleted('image');
    const paid = await answerOf(checkoutAnswerSchema, await post({ items: [{ transformationId: image.id }], idempotencyKey: newKey() }));
    const wrong = await orders(new Request(`${BASE}/api/orders/${paid.paymentId}?token=${paid.orderToken.slice(1)}x`), {});
    expect((await refusalOf(wrong, 404)).error).toBe(MSG.orderNotFound);
  });
});
