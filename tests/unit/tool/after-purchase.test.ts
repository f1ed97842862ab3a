import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkoutAnswer, statusAnswer } from '../../support/answers';
import { $cartItems, $purchases, addPackageToCart, addToCart, checkout, clearCart, rememberDownloads, thumbnailUrl, type CartItem } from '../../../src/lib/cart';
import { decodePurchases } from '../../../src/lib/cart-state';
import { ITEM_PRICES, sumPrices } from '../../../src/lib/catalog';
import { downloadSource, loadImageResult, loadVideoResult } from '../../../src/lib/tool/api';
import { previewUrl } from '../../../src/lib/tool/constants';
import { $savedResults, decodeSavedResults, saveResult } from '../../../src/lib/tool/saved';

// The browser side of "Download gives the clean file after purchase" and of thumbnails that never expire.
const ID = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const link = (id: string) => `/api/downloads/${id}?token=tok-${id.slice(0, 4)}`;

beforeEach(() => {
  clearCart();
  $purchases.set({});
  $savedResults.set({});
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('purchased downloads', () => {
  it('the checkout keeps the order’s download links by transformation id', async () => {
    addToCart({ type: 'image', transformationId: ID });
    addToCart({ type: 'video', transformationId: OTHER });
    const fetchImpl = vi.fn(async () =>
      Response.json(checkoutAnswer({
        paymentId: 'p1', amount: sumPrices([ITEM_PRICES.image, ITEM_PRICES.video]), orderToken: 'tok',
        downloads: [
          { transformationId: ID, url: link(ID), filename: 'restored-image-1.jpg' },
          { transformationId: OTHER, url: 'https://evil.test/x', filename: 'x' },
        ],
      })),
    );
    expect((await checkout({ fetchImpl: fetchImpl as unknown as typeof fetch })).ok).toBe(true);
    expect($purchases.get()).toEqual({ [ID]: link(ID) });
  });

  it('a failed checkout keeps nothing; later orders add to earlier ones', async () => {
    addToCart({ type: 'image', transformationId: ID });
    await checkout({ fetchImpl: (async () => Response.json({ success: false, error: 'no' }, { status: 409 })) as unknown as typeof fetch });
    expect($purchases.get()).toEqual({});
    rememberDownloads([{ transformationId: ID, url: link(ID) }]);
    rememberDownloads([{ transformationId: OTHER, url: link(OTHER) }, null, 'junk']);
    rememberDownloads(undefined);
    expect($purchases.get()).toEqual({ [ID]: link(ID), [OTHER]: link(OTHER) });
  });

  it('a link of another item or origin in storage is dropped, and corruption yields nothing', () => {
    expect(decodePurchases(JSON.stringify({ [ID]: link(ID), [OTHER]: link(ID), x: 'https://evil.test' }))).toEqual({ [ID]: link(ID) });
    expect(decodePurchases('not json')).toEqual({});
    expect(decodePurchases('[1]')).toEqual({});
  });

  it('Download: the watermarked preview through its stable route before purchase, the clean file after', () => {
    expect(downloadSource('image', ID, {}, 42)).toEqual({ url: previewUrl(ID), filename: 'restored-image-42.jpg', clean: false });
    expect(downloadSource('image', ID, { [ID]: link(ID) }, 42)).toEqual({ url: link(ID), filename: 'restored-image-42.jpg', clean: true });
    expect(downloadSource('video', OTHER, { [ID]: link(ID) }, 7)).toEqual({ url: previewUrl(OTHER), filename: 'generated-video-7.mp4', clean: false });
    expect(downloadSource('video', OTHER, { [OTHER]: link(OTHER) }, 7).url).toBe(link(OTHER));
  });
});

describe('cart thumbnails', () => {
  it('results use the stable preview route, whatever URL they were saved with; packages keep theirs', () => {
    const old: CartItem = { id: 'r', type: 'image', name: 'n', price: ITEM_PRICES.image, transformationId: ID, imageUrl: '/api/files/previews/x.jpg?exp=1&sig=s' };
    expect(thumbnailUrl(old)).toBe(`/api/transformations/${ID}/preview`);
    addPackageToCart('basic-restoration', '/media/p.svg');
    expect(thumbnailUrl($cartItems.get()[0]!)).toBe('/media/p.svg');
    expect(thumbnailUrl({ id: 'v', type: 'video', name: 'n', price: ITEM_PRICES.video, transformationId: OTHER, imageUrl: '/x.jpg' })).toBeUndefined();
  });
});

describe('saved tool results', () => {
  it('remembers one result per tab and forgets it on demand', () => {
    saveResult('image', ID);
    saveResult('video', OTHER);
    saveResult('image', undefined);
    expect($savedResults.get()).toEqual({ video: OTHER });
    expect(decodeSavedResults(JSON.stringify({ image: ID, video: 3, other: 'x' }))).toEqual({ image: ID });
    expect(decodeSavedResults('{')).toEqual({});
  });

  const answer = (body: object, status = 200) => vi.fn(async () => Response.json(body, { status }));

  it('loads a saved image again from the status answer, with fresh URLs, its hints, heal marks, tone and colour reference', async () => {
    const hints = [{ x: 0.5, y: 0.5, color: '#ff0000' }];
    const healMarks = [{ points: [{ x: 0.2, y: 0.3 }, { x: 0.25, y: 0.4 }], radius: 0.016 }];
    vi.stubGlobal('fetch', answer(statusAnswer({
      transformationId: ID, kind: 'image', purchased: true,
      originalImageUrl: '/o.png', processedUrl: '/p.jpg?t=1', originalUrl: '/o.jpg?t=1', width: 640, height: 480, hints, healMarks, tone: 'sepia', reference: true,
    })));
    await expect(loadImageResult(ID)).resolves.toEqual({
      success: true, transformationId: ID, originalUrl: '/o.jpg?t=1', processedUrl: '/p.jpg?t=1', width: 640, height: 480, hints, healMarks, tone: 'sepia', reference: true,
    });
    // An item this browser holds no owner secret for (made before owner secrets) is asked for without one.
    expect(fetch).toHaveBeenCalledWith(`/api/transformations/${ID}`, expect.objectContaining({ cache: 'no-store', headers: {} }));
  });

  it('loads a finished video; anything unknown, unfinished or of the other kind is null; offline throws', async () => {
    const video = statusAnswer({ transformationId: OTHER, kind: 'video', videoUrl: '/v.mp4?t=1', originalImageUrl: '/o.png' });
    vi.stubGlobal('fetch', answer(video));
    // A video from before the resolution choice is 720p; the answer's resolution is kept (it sets the price).
    await expect(loadVideoResult(OTHER)).resolves.toEqual({ transformationId: OTHER, videoUrl: '/v.mp4?t=1', originalImageUrl: '/o.png', stillUrl: null, resolution: '720p' });
    vi.stubGlobal('fetch', answer({ ...video, resolution: '1080p' }));
    await expect(loadVideoResult(OTHER)).resolves.toMatchObject({ resolution: '1080p' });
    await expect(loadImageResult(OTHER)).resolves.toBeNull();
    vi.stubGlobal('fetch', answer({ ...video, status: 'processing', videoUrl: null }));
    await expect(loadVideoResult(OTHER)).resolves.toBeNull();
    vi.stubGlobal('fetch', answer({ success: false, error: 'Transformation not found' }, 404));
    await expect(loadVideoResult(OTHER)).resolves.toBeNull();
    vi.stubGlobal('fetch', answer({ success: false, error: 'Invalid transformation id' }, 400));
    await expect(loadImageResult('nope')).resolves.toBeNull();
    vi.stubGlobal('fetch', answer({ success: false, error: 'Something went wrong' }, 500));
    await expect(loadImageResult(ID)).rejects.toThrow('Something went wrong');
  });
});
