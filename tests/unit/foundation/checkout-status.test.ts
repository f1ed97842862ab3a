import { describe, expect, it, vi } from 'vitest';
import { ITEM_PRICES } from '../../../src/lib/catalog';
import { loadOrder, orderPageUrl, orderUrl, sessionOrderUrl, waitForPayment } from '../../../src/lib/checkout-status';
import type { PaymentStatus } from '../../../src/lib/orders-schema';
import { orderAnswer } from '../../support/answers';
import { MSG } from '../../../src/lib/messages';

const order = (status: PaymentStatus) => orderAnswer({ paymentId: 'p1', orderToken: 't/1', status, amount: ITEM_PRICES.image, paymentMethod: 'stripe' });

describe('waitForPayment', () => {
  it('asks about the session until the webhook has settled the order', async () => {
    const answers: PaymentStatus[] = ['pending', 'pending', 'completed'];
    const fetchImpl = vi.fn(async () => Response.json(order(answers.shift()!)));
    const paid = await waitForPayment('cs_test_1', { fetchImpl: fetchImpl as unknown as typeof fetch, intervalMs: 1 });
    expect(paid.status).toBe('completed');
    expect(fetchImpl).toHaveBeenCalledTimes(3);
    expect(fetchImpl.mock.calls[0]).toEqual([sessionOrderUrl('cs_test_1'), expect.objectContaining({ cache: 'no-store' })]);
  });

  it('stops after the last attempt with the order still pending', async () => {
    const fetchImpl = vi.fn(async () => Response.json(order('pending')));
    const result = await waitForPayment('cs_test_1', { fetchImpl: fetchImpl as unknown as typeof fetch, intervalMs: 1, attempts: 3 });
    expect(result.status).toBe('pending');
    expect(fetchImpl).toHaveBeenCalledTimes(3);
  });

  it('throws the server message for an unknown session, and stops when aborted', async () => {
    const missing = vi.fn(async () => Response.json({ success: false, error: 'Order not found' }, { status: 404 }));
    await expect(waitForPayment('cs_test_x', { fetchImpl: missing as unknown as typeof fetch })).rejects.toThrow('Order not found');
    const controller = new AbortController();
    const pending = vi.fn(async () => Response.json(order('pending')));
    const waiting = waitForPayment('cs_test_1', { fetchImpl: pending as unknown as typeof fetch, signal: controller.signal, intervalMs: 10_000 });
    setTimeout(() => controller.abort(), 5);
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('gives the permanent order address with encoded values', () => {
    expect(orderPageUrl({ paymentId: 'p1', orderToken: 't/1' })).toBe('/checkout/success?order=p1&token=t%2F1');
  });
});

describe('loadOrder', () => {
  it('reads a settled order by its id and token, and throws the server message (or a generic one) otherwise', async () => {
    const fetchImpl = vi.fn(async (_url: string) => Response.json(order('completed')));
    await expect(loadOrder('p1', 't/1', { fetchImpl: fetchImpl as unknown as typeof fetch })).resolves.toMatchObject({ status: 'completed' });
    expect(fetchImpl.mock.calls[0]![0]).toBe(orderUrl('p1', 't/1'));
    expect(orderUrl('p1', 't/1')).toBe('/api/orders/p1?token=t%2F1');
    const forbidden = vi.fn(async () => Response.json({ success: false, error: 'Forbidden' }, { status: 403 }));
    await expect(loadOrder('p1', 'bad', { fetchImpl: forbidden as unknown as typeof fetch })).rejects.toThrow('Forbidden');
    const broken = vi.fn(async () => new Response('<html>', { status: 502 }));
    await expect(loadOrder('p1', 't', { fetchImpl: broken as unknown as typeof fetch })).rejects.toThrow('Could not load your order');
  });

  it('refuses a 200 answer that is not an order, with the message a server error gives (never a half-read order)', async () => {
    const { downloads: _gone, ...withoutDownloads } = order('completed');
    for (const body of [withoutDownloads, { ...order('completed'), status: 'paid' }, { ...order('completed'), amount: '1.99' }, 'not json', null]) {
      const fetchImpl = vi.fn(async () => (typeof body === 'string' ? new Response(body) : Response.json(body)));
      await expect(loadOrder('p1', 't/1', { fetchImpl: fetchImpl as unknown as typeof fetch })).rejects.toMatchObject({ name: 'ApiError', message: MSG.orderLoadFailed, status: 200 });
    }
  });
});
