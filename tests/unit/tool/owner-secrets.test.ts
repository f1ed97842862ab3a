import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $cartItems, addToCart, checkout, clearCart } from '../../../src/lib/cart';
import { decodeCart } from '../../../src/lib/cart-state';
import { checkoutRequestSchema } from '../../../src/lib/orders-schema';
import { $ownerSecrets, decodeOwnerSecrets, MAX_OWNER_SECRETS, ownerHeaders, rememberOwnerSecret } from '../../../src/lib/owner-secrets';
import { applyHeal, loadImageResult, processImage, startVideoFromImage } from '../../../src/lib/tool/api';
import { OWNER_SECRET_HEADER } from '../../../src/lib/tool/ownership';

// The browser's half of "items belong to the browser that made them": the secret kept from the answer that made
// the item, sent with every request about it, kept with the cart item and sent with the checkout.
const ID = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SECRET = 'a'.repeat(43);
const SECRET2 = `${'b'.repeat(42)}_`;

beforeEach(() => {
  clearCart();
  $ownerSecrets.set({});
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearCart();
  $ownerSecrets.set({});
});

describe('the owner secrets store', () => {
  it('keeps well-formed secrets only, newest last, at most MAX_OWNER_SECRETS', () => {
    rememberOwnerSecret(ID, SECRET);
    rememberOwnerSecret(OTHER, 'too-short');
    rememberOwnerSecret(OTHER, undefined);
    expect($ownerSecrets.get()).toEqual({ [ID]: SECRET });
    for (let i = 0; i < MAX_OWNER_SECRETS; i++) rememberOwnerSecret(`item-${i}`, SECRET2);
    expect(Object.keys($ownerSecrets.get())).toHaveLength(MAX_OWNER_SECRETS);
    expect($ownerSecrets.get()[ID]).toBeUndefined();
    expect(Object.keys($ownerSecrets.get()).at(-1)).toBe(`item-${MAX_OWNER_SECRETS - 1}`);
  });

  it('a corrupted or foreign value in storage keeps only well-formed secrets', () => {
    expect(decodeOwnerSecrets(JSON.stringify({ [ID]: SECRET, [OTHER]: 'x', '': SECRET }))).toEqual({ [ID]: SECRET });
    expect(decodeOwnerSecrets('not json')).toEqual({});
    expect(decodeOwnerSecrets('[1]')).toEqual({});
  });

  it('the header names the secret of the item asked about, and nothing for an item made elsewhere', () => {
    rememberOwnerSecret(ID, SECRET);
    expect(ownerHeaders(ID)).toEqual({ [OWNER_SECRET_HEADER]: SECRET });
    expect(ownerHeaders(OTHER)).toEqual({});
  });
});

describe('the tool sends it', () => {
  const json = (body: object, status = 200) => vi.fn(async () => Response.json(body, { status }));
  const answer = { success: true, transformationId: ID, originalUrl: '/o.jpg', processedUrl: '/p.jpg', width: 4, height: 3, hints: [], healMarks: [], tone: 'grey', reference: false, error: null };

  it('keeps the secret of a new image (and does not hand it to the tab), then sends it with a re-render', async () => {
    vi.stubGlobal('XMLHttpRequest', class {
      status = 200;
      responseText = JSON.stringify({ ...answer, ownerSecret: SECRET });
      upload = {};
      onload?: () => void;
      open() {}
      setRequestHeader() {}
      send() { this.onload?.(); }
    });
    const result = await processImage(new File([new Uint8Array(10)], 'old.jpg', { type: 'image/jpeg' }), { model: 'sd-xl', prompt: 'Restore it please' });
    expect(result).not.toHaveProperty('ownerSecret');
    expect($ownerSecrets.get()).toEqual({ [ID]: SECRET });
    vi.stubGlobal('fetch', json(answer));
    await applyHeal(ID, []);
    expect(fetch).toHaveBeenCalledWith(`/api/transformations/${ID}/heal`, expect.objectContaining({ headers: { 'content-type': 'application/json', [OWNER_SECRET_HEADER]: SECRET } }));
  });

  it('"Animate this photo" sends the image’s secret and keeps the new video’s', async () => {
    rememberOwnerSecret(ID, SECRET);
    vi.stubGlobal('fetch', json({ success: true, transformationId: OTHER, status: 'queued', ownerSecret: SECRET2, error: null }, 202));
    await expect(startVideoFromImage(ID, { prompt: 'zoom in slowly', mode: 'standard', resolution: '720p', animateFaces: true })).resolves.toEqual({ transformationId: OTHER, status: 'queued', error: null, success: true });
    expect(fetch).toHaveBeenCalledWith('/api/process-video', expect.objectContaining({ headers: { 'content-type': 'application/json', [OWNER_SECRET_HEADER]: SECRET } }));
    expect($ownerSecrets.get()[OTHER]).toBe(SECRET2);
  });

  it('a saved result another browser owns (403) is forgotten like one the server no longer has', async () => {
    vi.stubGlobal('fetch', json({ success: false, error: 'made in another browser' }, 403));
    await expect(loadImageResult(ID)).resolves.toBeNull();
  });
});

describe('the cart keeps it and the checkout sends it', () => {
  it('a result added to the cart carries its secret; the checkout body passes the server’s schema', async () => {
    rememberOwnerSecret(ID, SECRET);
    addToCart({ type: 'image', transformationId: ID });
    addToCart({ type: 'video', transformationId: OTHER });
    expect($cartItems.get()[0]!.ownerSecret).toBe(SECRET);
    expect($cartItems.get()[1]).not.toHaveProperty('ownerSecret');
    // It survives the trip through localStorage.
    expect(decodeCart(JSON.stringify($cartItems.get()))[0]!.ownerSecret).toBe(SECRET);
    $ownerSecrets.set({});
    const fetchImpl = vi.fn(async (_url: string, _init: RequestInit) => Response.json({ success: false, error: 'stop here' }, { status: 403 }));
    await checkout({ fetchImpl: fetchImpl as unknown as typeof fetch });
    const body = JSON.parse(String(fetchImpl.mock.calls[0]![1].body));
    expect(body.items).toEqual([{ transformationId: ID, ownerSecret: SECRET }, { transformationId: OTHER }]);
    expect(checkoutRequestSchema.safeParse(body).success).toBe(true);
    expect(checkoutRequestSchema.safeParse({ ...body, items: [{ transformationId: ID, ownerSecret: 'short' }] }).success).toBe(false);
  });
});
