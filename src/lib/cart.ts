import { atom } from 'nanostores';
import { findImagePackage, transformationItem } from './catalog';
import { orderPageUrl } from './checkout-status';
import { MSG } from './messages';
import type { CheckoutRequest } from './orders-schema';
import { previewUrl } from './tool/constants';
import type { VideoResolution } from './tool/video-modes';
import { $cartItems, $checkoutKey, $purchases, checkoutKeyFor, isDownloadLink, type CartItem } from './cart-state';
import { ownerSecretFor } from './owner-secrets';

export { $cartItems, $cartCount, $cartTotal, $purchases, CART_STORAGE_KEY, PURCHASES_STORAGE_KEY, type CartItem } from './cart-state';

/**
 * Cart actions. Islands read the stores with `useStore` and call these; they
 * return the message to show, so every island words results the same way. Prices are for display
 * only: the checkout function prices every item again on the server.
 */

/** Delay before the cart empties after a successful checkout. */
export const CART_CLEAR_DELAY_MS = 1000;

export const $cartProcessing = atom(false);

export interface ActionResult {
  ok: boolean;
  message: string;
}

export type NewCartItem =
  | { type: 'image'; imageUrl?: string; transformationId?: string; id?: string }
  | { type: 'video'; videoUrl?: string; imageUrl?: string; transformationId?: string; id?: string; resolution?: VideoResolution };

/** Duplicate rule: same image URL, same video URL or same transformation id. */
export function isDuplicate(items: readonly CartItem[], candidate: Partial<CartItem>): boolean {
  return items.some(
    (item) =>
      (candidate.type === 'image' && item.type === 'image' && !!candidate.imageUrl && item.imageUrl === candidate.imageUrl) ||
      (candidate.type === 'video' && item.type === 'video' && !!candidate.videoUrl && item.videoUrl === candidate.videoUrl) ||
      (!!candidate.transformationId && item.transformationId === candidate.transformationId) ||
      (!!candidate.packageId && item.packageId === candidate.packageId),
  );
}

/** Adds a result; the cart keeps its owner secret with it (the checkout needs it), when this browser made it. */
export function addToCart(input: NewCartItem): ActionResult {
  const prefix = input.type === 'image' ? 'restored-' : 'video-';
  const { resolution, ...fields } = input.type === 'video' ? input : { ...input, resolution: undefined };
  const ownerSecret = input.transformationId ? ownerSecretFor(input.transformationId) : undefined;
  const item: CartItem = {
    ...fields,
    id: input.id ?? `${prefix}${Date.now()}`,
    ...transformationItem(input.type, resolution),
    ...(ownerSecret && { ownerSecret }),
  };
  const items = $cartItems.get();
  if (isDuplicate(items, item)) return { ok: false, message: MSG.cartDuplicate };
  $cartItems.set([...items, item]);
  return { ok: true, message: input.type === 'image' ? MSG.cartImageAdded : MSG.cartVideoAdded };
}

/**
 * The thumbnail of a cart item. A result's goes through its stable preview route, never the signed URL it
 * was added with (those expire after an hour, the cart in localStorage does not); packages keep their image.
 */
export function thumbnailUrl(item: CartItem): string | undefined {
  if (item.type !== 'image') return undefined;
  return item.transformationId ? previewUrl(item.transformationId) : item.imageUrl;
}

export function addPackageToCart(packageId: string, imageUrl = '/media/content/package-placeholder.svg'): ActionResult {
  const pkg = findImagePackage(packageId);
  if (!pkg) return { ok: false, message: `Unknown package: ${packageId}` };
  const item: CartItem = {
    id: `package-${pkg.id}`,
    type: 'image',
    name: pkg.name,
    price: pkg.priceValue,
    imageUrl,
    packageId: pkg.id,
  };
  const items = $cartItems.get();
  if (isDuplicate(items, item)) return { ok: false, message: MSG.cartDuplicate };
  $cartItems.set([...items, item]);
  return { ok: true, message: MSG.cartPackageAdded(pkg.name) };
}

export function removeFromCart(id: string): ActionResult {
  $cartItems.set($cartItems.get().filter((item) => item.id !== id));
  return { ok: true, message: MSG.cartRemoved };
}

export function clearCart(): void {
  $cartItems.set([]);
}

export interface CheckoutSuccess extends ActionResult {
  ok: true;
  paymentId: string;
  orderToken: string;
  amount: number;
  /** Where the browser goes next: the success page (demo) or the payment provider's page (Stripe). */
  redirectUrl: string;
}

/** The payment page the server names must be a web address, never a script or data URL. */
const isWebUrl = (value: unknown): value is string => {
  try {
    return typeof value === 'string' && ['https:', 'http:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
};

/**
 * Keeps the clean-file links of an order (checkout answer or success page), keyed by transformation id, so
 * the tool's Download gives the clean file from then on. Anything that is not a download link is ignored.
 */
export function rememberDownloads(downloads: unknown): void {
  if (!Array.isArray(downloads)) return;
  const next = { ...$purchases.get() };
  const entries: unknown[] = downloads;
  for (const d of entries) {
    if (typeof d !== 'object' || d === null || !('transformationId' in d) || !('url' in d)) continue;
    const { transformationId: id, url } = d;
    if (typeof id === 'string' && isDownloadLink(id, url)) next[id] = url;
  }
  $purchases.set(next);
}

/** What the checkout sends for a cart item: its id, and a result's owner secret (kept with it, else in the store). */
function checkoutItem(item: CartItem): CheckoutRequest['items'][number] {
  if (item.packageId) return { packageId: item.packageId };
  const transformationId = item.transformationId ?? '';
  const ownerSecret = item.ownerSecret ?? ownerSecretFor(transformationId);
  return { transformationId, ...(ownerSecret && { ownerSecret }) };
}

/**
 * Pays for the cart. The server prices every item; the browser sends only ids (a result's with its owner
 * secret) and the cart's idempotency key (kept with the cart while its contents stay the same), so a double click or a retry after a lost answer
 * returns the first payment's order and can never create a second payment. With the demo checkout the order
 * is paid at once; with Stripe the answer names the payment page, and the cart stays until the success page
 * confirms the payment (cancelling there brings the buyer back to a full cart). An e-mail, when given, is
 * where the server sends the order confirmation; the server validates it again.
 */
export async function checkout(
  { email = '', fetchImpl = fetch }: { email?: string; fetchImpl?: typeof fetch } = {},
): Promise<CheckoutSuccess | ActionResult> {
  const items = $cartItems.get();
  if (items.length === 0) return { ok: false, message: MSG.cartEmpty };
  if ($cartProcessing.get()) return { ok: false, message: 'Checkout is already in progress' };
  $cartProcessing.set(true);
  try {
    // Typed by the server's schema; the answer is read with the checkout's answer schema.
    const body: CheckoutRequest = {
      idempotencyKey: checkoutKeyFor(items),
      items: items.map(checkoutItem),
      ...(email.trim() && { email: email.trim() }),
    };
    // The answer's reader and schema (zod) load when the buyer checks out: the pages that only add to the cart
    // (a package button on a landing page) carry none of it.
    const [{ readAnswer, jsonOf }, { checkoutAnswerSchema }] = await Promise.all([import('./api-answer'), import('./orders-schema')]);
    const response = await fetchImpl('/api/checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    let data;
    try {
      // A refusal carries the server's words; an answer that is not a checkout's, the generic failure.
      data = readAnswer(checkoutAnswerSchema, response.status, jsonOf(await response.text().catch(() => '')), MSG.checkoutFailed());
    } catch (error) {
      // The server answered, so nothing was lost: the next attempt gets a fresh key (a payment the key
      // belonged to may have expired or failed and cannot be replayed).
      $checkoutKey.set(null);
      const words = error instanceof Error ? error.message : MSG.checkoutFailed();
      return { ok: false, message: words === MSG.checkoutFailed() ? words : MSG.checkoutFailed(words) };
    }
    const { paymentId, orderToken, amount, checkoutUrl } = data;
    if (checkoutUrl !== undefined) {
      if (!isWebUrl(checkoutUrl)) return { ok: false, message: MSG.checkoutFailed() };
      return { ok: true, message: MSG.checkoutRedirecting, paymentId, orderToken, amount, redirectUrl: checkoutUrl };
    }
    rememberDownloads(data.downloads);
    setTimeout(clearCart, CART_CLEAR_DELAY_MS);
    return { ok: true, message: MSG.checkoutSuccess, paymentId, orderToken, amount, redirectUrl: orderPageUrl({ paymentId, orderToken }) };
  } catch (error) {
    return { ok: false, message: MSG.checkoutFailed(error instanceof Error ? error.message : undefined) };
  } finally {
    $cartProcessing.set(false);
  }
}
