import { beforeEach, describe, expect, it, vi } from 'vitest';
import { checkoutAnswer } from '../../support/answers';

import {
  $cartCount, $cartItems, $cartProcessing, $cartTotal, addPackageToCart, addToCart, checkout, clearCart, removeFromCart,
} from '../../../src/lib/cart';
import { decodeCart } from '../../../src/lib/cart-state';
import { findImagePackage, ITEM_PRICES, sumPrices, transformationItem } from '../../../src/lib/catalog';
import { MSG } from '../../../src/lib/messages';

beforeEach(() => {
  clearCart();
  $cartProcessing.set(false);
});

describe('cart rules', () => {
  it('prices items by type and totals them exactly', () => {
    expect(addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' })).toEqual({ ok: true, message: MSG.cartImageAdded });
    expect(addToCart({ type: 'video', videoUrl: '/v.mp4', transformationId: 't2' })).toEqual({ ok: true, message: MSG.cartVideoAdded });
    const [image, video] = $cartItems.get();
    expect(image).toMatchObject({ type: 'image', ...transformationItem('image') });
    expect(image!.id).toMatch(/^restored-\d+$/);
    expect(video).toMatchObject({ type: 'video', ...transformationItem('video') });
    expect(video!.id).toMatch(/^video-\d+$/);
    expect($cartTotal.get()).toBe(sumPrices([ITEM_PRICES.image, ITEM_PRICES.video]));
    expect($cartCount.get()).toBe(2);
  });

  it('rejects duplicates by image URL, video URL or transformation id', () => {
    addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' });
    addToCart({ type: 'video', videoUrl: '/v.mp4', transformationId: 't2' });
    const dup = { ok: false, message: 'This item is already in your cart' };
    expect(addToCart({ type: 'image', imageUrl: '/a.jpg' })).toEqual(dup);
    expect(addToCart({ type: 'video', videoUrl: '/v.mp4' })).toEqual(dup);
    expect(addToCart({ type: 'image', imageUrl: '/other.jpg', transformationId: 't2' })).toEqual(dup);
    expect($cartCount.get()).toBe(2);
    // Same URL on a different type is not a duplicate.
    expect(addToCart({ type: 'video', videoUrl: '/a.jpg', transformationId: 't3' }).ok).toBe(true);
  });

  it('adds packages once with their own price and message', () => {
    expect(addPackageToCart('premium-restoration')).toEqual({ ok: true, message: 'Added Premium Restoration to cart!' });
    expect(addPackageToCart('premium-restoration').message).toBe(MSG.cartDuplicate);
    expect($cartItems.get()[0]).toMatchObject({ price: findImagePackage('premium-restoration')!.priceValue, packageId: 'premium-restoration', type: 'image' });
    expect(addPackageToCart('nope').ok).toBe(false);
  });

  it('removes by id and clears', () => {
    addToCart({ type: 'image', imageUrl: '/a.jpg', id: 'restored-1' });
    addToCart({ type: 'image', imageUrl: '/b.jpg', id: 'restored-2' });
    expect(removeFromCart('restored-1')).toEqual({ ok: true, message: 'Item removed from cart' });
    expect($cartItems.get().map((i) => i.id)).toEqual(['restored-2']);
    clearCart();
    expect($cartCount.get()).toBe(0);
  });

  it('ignores corrupted storage', () => {
    expect(decodeCart('not json')).toEqual([]);
    expect(decodeCart('{"a":1}')).toEqual([]);
    expect(decodeCart('[{"id":"x","type":"image","name":"n","price":-1}]')).toEqual([]);
    expect(decodeCart(JSON.stringify([{ id: 'x', type: 'image', name: 'n', price: ITEM_PRICES.image }]))).toHaveLength(1);
  });
});

describe('checkout action', () => {
  it('refuses an empty cart without calling the server', async () => {
    const fetchImpl = vi.fn();
    await expect(checkout({ fetchImpl })).resolves.toEqual({ ok: false, message: 'Your cart is empty' });
    expect(fetchImpl).not.toHaveBeenCalled();
  });

  it('sends the e-mail for the confirmation trimmed, and no e-mail field when it is left empty', async () => {
    const bodies: Record<string, unknown>[] = [];
    const fetchImpl = (async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return Response.json({ success: false, error: 'stop here' }, { status: 409 });
    }) as unknown as typeof fetch;
    addPackageToCart('basic-restoration');
    await checkout({ fetchImpl, email: '  buyer@example.com ' });
    await checkout({ fetchImpl, email: '   ' });
    expect(bodies[0]!.email).toBe('buyer@example.com');
    expect(bodies[1]).not.toHaveProperty('email');
  });

  it('sends ids and the cart’s idempotency key, never prices; empties the cart 1000 ms after success', async () => {
    vi.useFakeTimers();
    addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' });
    addPackageToCart('basic-restoration');
    const bodies: unknown[] = [];
    const fetchImpl = vi.fn(async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      expect($cartProcessing.get()).toBe(true);
      return Response.json(checkoutAnswer({ paymentId: 'p1', amount: sumPrices([ITEM_PRICES.image, findImagePackage('basic-restoration')!.priceValue]), orderToken: 'tok' }));
    });
    const result = await checkout({ fetchImpl: fetchImpl as unknown as typeof fetch });
    expect(result).toMatchObject({ ok: true, message: MSG.checkoutSuccess, paymentId: 'p1' });
    expect(bodies[0]).toMatchObject({ items: [{ transformationId: 't1' }, { packageId: 'basic-restoration' }] });
    expect(JSON.stringify(bodies[0])).not.toContain('price');
    expect($cartProcessing.get()).toBe(false);
    expect($cartCount.get()).toBe(2);
    vi.advanceTimersByTime(999);
    expect($cartCount.get()).toBe(2);
    vi.advanceTimersByTime(1);
    expect($cartCount.get()).toBe(0);
    vi.useRealTimers();
  });

  it('a retry after a lost answer sends the same key; a changed cart gets a new one', async () => {
    addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' });
    const keys: string[] = [];
    const lost = vi.fn(async (_url: string, init: RequestInit) => {
      keys.push((JSON.parse(String(init.body)) as { idempotencyKey: string }).idempotencyKey);
      throw new TypeError('network error');
    });
    await checkout({ fetchImpl: lost as unknown as typeof fetch }).catch(() => {});
    await checkout({ fetchImpl: lost as unknown as typeof fetch }).catch(() => {});
    addToCart({ type: 'image', imageUrl: '/b.jpg', transformationId: 't2' });
    await checkout({ fetchImpl: lost as unknown as typeof fetch }).catch(() => {});
    expect(keys).toHaveLength(3);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    // An answered refusal (e.g. an expired payment page) frees the key: the next attempt is a new payment.
    const refused = vi.fn(async (_url: string, init: RequestInit) => {
      keys.push((JSON.parse(String(init.body)) as { idempotencyKey: string }).idempotencyKey);
      return Response.json({ success: false, error: 'This checkout is no longer open' }, { status: 409 });
    });
    await checkout({ fetchImpl: refused as unknown as typeof fetch });
    await checkout({ fetchImpl: refused as unknown as typeof fetch });
    expect(keys[3]).toBe(keys[2]);
    expect(keys[4]).not.toBe(keys[3]);
  });

  it('a double click sends one payment', async () => {
    addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' });
    let release!: () => void;
    const fetchImpl = vi.fn(
      () => new Promise<Response>((resolve) => (release = () => resolve(Response.json(checkoutAnswer({ paymentId: 'p', amount: ITEM_PRICES.image, orderToken: 't' }))))),
    );
    const first = checkout({ fetchImpl: fetchImpl as unknown as typeof fetch });
    const second = await checkout({ fetchImpl: fetchImpl as unknown as typeof fetch });
    expect(second.ok).toBe(false);
    // The first is under way (its answer's reader loads first): the request is out, its answer not yet in.
    await vi.waitFor(() => expect(fetchImpl).toHaveBeenCalled());
    release();
    await first;
    expect(fetchImpl).toHaveBeenCalledTimes(1);
  });

  it('reports the server error and resets the processing flag', async () => {
    addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' });
    const fetchImpl = vi.fn(async () => Response.json({ success: false, error: 'Item already purchased' }, { status: 409 }));
    await expect(checkout({ fetchImpl: fetchImpl as unknown as typeof fetch })).resolves.toEqual({ ok: false, message: 'Checkout failed: Item already purchased' });
    expect($cartProcessing.get()).toBe(false);
    const broken = vi.fn(async () => { throw new Error('offline'); });
    await expect(checkout({ fetchImpl: broken as unknown as typeof fetch })).resolves.toEqual({ ok: false, message: 'Checkout failed: offline' });
    const noMessage = vi.fn(async () => new Response('oops', { status: 500 }));
    await expect(checkout({ fetchImpl: noMessage as unknown as typeof fetch })).resolves.toEqual({ ok: false, message: 'Checkout failed: Please try again' });
  });

  it('reads a 200 answer that is not a checkout’s as the failure a server error gives: the cart stays, nothing is kept', async () => {
    addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' });
    const good = checkoutAnswer({ paymentId: 'p1', amount: ITEM_PRICES.image, orderToken: 'tok' });
    const { orderToken: _missing, ...withoutToken } = good;
    for (const body of [withoutToken, { ...good, amount: '1.99' }, { ...good, downloads: 'none' }, { ...good, confirmation: { status: 'mailed' } }]) {
      const fetchImpl = vi.fn(async () => Response.json(body));
      await expect(checkout({ fetchImpl: fetchImpl as unknown as typeof fetch })).resolves.toEqual({ ok: false, message: MSG.checkoutFailed() });
      expect($cartCount.get()).toBe(1);
      expect($cartProcessing.get()).toBe(false);
    }
  });
});


describe('checkout action with real payments', () => {
  it('sends the browser to the payment page and keeps the cart until the payment is confirmed', async () => {
    vi.useFakeTimers();
    addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' });
    const fetchImpl = vi.fn(async () =>
      Response.json(checkoutAnswer({ paymentId: 'p1', amount: ITEM_PRICES.image, orderToken: 'tok', downloads: [], checkoutUrl: 'https://checkout.stripe.com/c/pay/cs_test_1' })),
    );
    const result = await checkout({ fetchImpl: fetchImpl as unknown as typeof fetch });
    expect(result).toMatchObject({ ok: true, message: MSG.checkoutRedirecting, redirectUrl: 'https://checkout.stripe.com/c/pay/cs_test_1' });
    vi.advanceTimersByTime(5000);
    expect($cartCount.get()).toBe(1);
    vi.useRealTimers();
  });

  it('refuses a payment page that is not a web address', async () => {
    addToCart({ type: 'image', imageUrl: '/a.jpg', transformationId: 't1' });
    const fetchImpl = vi.fn(async () => Response.json(checkoutAnswer({ paymentId: 'p1', amount: ITEM_PRICES.image, orderToken: 'tok', checkoutUrl: 'javascript:alert(1)' })));
    await expect(checkout({ fetchImpl: fetchImpl as unknown as typeof fetch })).resolves.toEqual({ ok: false, message: MSG.checkoutFailed() });
    expect($cartCount.get()).toBe(1);
  });
});
