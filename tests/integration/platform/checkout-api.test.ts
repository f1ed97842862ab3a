import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import orders from '../../../netlify/functions/orders.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import { MSG } from '../../../src/lib/messages';
import { ITEM_PRICES, sumPrices } from '../../../src/lib/catalog';
import { startEmbedded } from './helpers/backends';
import { countRows, newKey, seedCompleted } from './helpers/seed';

// /api/checkout, /api/orders and /api/downloads called with real Requests on a fresh embedded database.
const BASE = 'http://localhost:8888';
const post = (body: string | object, headers: Record<string, string> = {}) =>
  checkout(
    new Request(`${BASE}/api/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    {},
  );
const get = (handler: typeof orders, path: string) => handler(new Request(`${BASE}${path}`), {});

let platform: Awaited<ReturnType<typeof startEmbedded>>;
beforeAll(async () => {
  platform = await startEmbedded();
});
afterAll(async () => {
  await platform?.stop();
});

describe('POST /api/checkout', () => {
  it('checks out, then the order and the clean downloads are reachable with the issued tokens', async () => {
    const image = await seedCompleted('image');
    const video = await seedCompleted('video');
    const res = await post({ items: [{ transformationId: image.id }, { transformationId: video.id }], idempotencyKey: newKey() });
    expect(res.status).toBe(200);
    const body = await res.json();
    const total = sumPrices([ITEM_PRICES.image, ITEM_PRICES.video]);
    expect(body).toMatchObject({ success: true, amount: total, currency: 'USD' });
    expect(body.items).toHaveLength(2);
    expect(body.orderToken).toMatch(/^[\w-]{43}$/);

    const order = await get(orders, `/api/orders/${body.paymentId}?token=${body.orderToken}`);
    expect(order.status).toBe(200);
    const orderBody = await order.json();
    expect(orderBody).toMatchObject({ success: true, paymentId: body.paymentId, amount: total, status: 'completed', paymentMethod: 'demo' });
    expect(orderBody.downloads).toEqual(body.downloads);

    for (const [i, item] of [image, video].entries()) {
      const link = body.downloads[i];
      const file = await get(downloads, link.url);
      expect(file.status).toBe(200);
      expect(Buffer.from(await file.arrayBuffer())).toEqual(item.clean);
      expect(file.headers.get('content-disposition')).toBe(`attachment; filename="${link.filename}"`);
      expect(file.headers.get('content-type')).toBe(i === 0 ? 'image/jpeg' : 'video/mp4');
    }
  });

  it('replays a retry with the same key without writing', async () => {
    const item = await seedCompleted();
    const request = { items: [{ transformationId: item.id }], idempotencyKey: newKey() };
    const first = await (await post(request)).json();
    const before = await countRows();
    const again = await (await post(request)).json();
    expect(again.paymentId).toBe(first.paymentId);
    expect(await countRows()).toEqual(before);
  });

  const badRequests: [string, () => Promise<string | object>, number, RegExp][] = [
    ['malformed JSON', async () => '{"items": [', 400, /^Invalid JSON body$/],
    ['a non-object body', async () => '[1,2]', 400, /expected object/i],
    ['wrong types', async () => ({ items: 'all', idempotencyKey: newKey() }), 400, /^items: /],
    ['an unknown field', async () => ({ items: [{ packageId: 'ai-creation' }], idempotencyKey: newKey(), coupon: 'FREE' }), 400, /coupon/],
    ['a client-set price', async () => ({ items: [{ transformationId: (await seedCompleted()).id, price: 0.01 }], idempotencyKey: newKey() }), 400, /^items\.0/],
    ['a top-level amount', async () => ({ items: [{ packageId: 'ai-creation' }], idempotencyKey: newKey(), amount: 1 }), 400, /amount/],
    ['an empty cart', async () => ({ items: [], idempotencyKey: newKey() }), 400, /^Your cart is empty$/],
    ['a missing idempotency key', async () => ({ items: [{ packageId: 'ai-creation' }] }), 400, /idempotencyKey/],
    ['an id that is not a uuid', async () => ({ items: [{ transformationId: 'abc' }], idempotencyKey: newKey() }), 400, /transformationId|Invalid/],
    ['an unknown transformation', async () => ({ items: [{ transformationId: crypto.randomUUID() }], idempotencyKey: newKey() }), 404, /^Item not found: /],
    ['an unknown package', async () => ({ items: [{ packageId: 'gold' }], idempotencyKey: newKey() }), 404, /^Unknown package: gold$/],
    ['a duplicate', async () => { const id = (await seedCompleted()).id; return { items: [{ transformationId: id }, { transformationId: id }], idempotencyKey: newKey() }; }, 400, /already in your cart/],
    ['an already purchased item', async () => {
      const id = (await seedCompleted()).id;
      await post({ items: [{ transformationId: id }], idempotencyKey: newKey() });
      return { items: [{ transformationId: id }], idempotencyKey: newKey() };
    }, 409, /^Item already purchased: /],
    ['a 1 MB body', async () => JSON.stringify({ items: [], idempotencyKey: newKey(), pad: 'x'.repeat(1024 * 1024) }), 413, /too large/],
  ];
  it.each(badRequests)('answers %s with a clear 4xx and writes nothing', async (_label, makeBody, status, message) => {
    const body = await makeBody();
    const before = await countRows();
    const res = await post(body);
    expect(res.status).toBe(status);
    const answer = await res.json();
    expect(answer.success).toBe(false);
    expect(answer.error).toMatch(message);
    expect(await countRows()).toEqual(before);
  });

  it('stops reading a streamed body over the limit (no Content-Length)', async () => {
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 16 * 1024;
        if (pulled > 1024 * 1024) controller.close();
        else controller.enqueue(new Uint8Array(16 * 1024).fill(32));
      },
    });
    const res = await checkout(
      new Request(`${BASE}/api/checkout`, { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit),
      {},
    );
    expect(res.status).toBe(413);
    expect(pulled).toBeLessThan(256 * 1024);
  });

  it('refuses other methods', async () => {
    const res = await checkout(new Request(`${BASE}/api/checkout`), {});
    expect(res.status).toBe(405);
  });
});

describe('GET /api/orders and /api/downloads', () => {
  it('refuse forged, missing and cross-used tokens', async () => {
    const item = await seedCompleted();
    const body = await (await post({ items: [{ transformationId: item.id }], idempotencyKey: newKey() })).json();
    const forged = body.orderToken.slice(0, -2) + (body.orderToken.endsWith('AA') ? 'BB' : 'AA');

    for (const path of [
      `/api/orders/${body.paymentId}?token=${forged}`,
      `/api/orders/${body.paymentId}`,
      `/api/orders/${crypto.randomUUID()}?token=${body.orderToken}`,
      `/api/orders/not-a-uuid?token=x`,
    ]) {
      const res = await get(orders, path);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toBe(MSG.orderNotFound);
    }

    for (const path of [
      `/api/downloads/${item.id}?token=${forged}`,
      `/api/downloads/${item.id}?token=${body.orderToken}`, // an order token is not a download token
      `/api/downloads/${item.id}`,
    ]) {
      const res = await get(downloads, path);
      expect(res.status).toBe(403);
      expect((await res.json()).error).toBe(MSG.downloadForbidden);
    }
  });

  it('refuses the download of an item that was not purchased, even with a valid-looking token', async () => {
    const { downloadToken } = await import('../../../netlify/lib/orders/tokens');
    const item = await seedCompleted();
    const res = await get(downloads, `/api/downloads/${item.id}?token=${downloadToken(crypto.randomUUID(), item.id)}`);
    expect(res.status).toBe(403);
  });
});
