import { computed } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';
import { sumPrices } from './money';

/**
 * The cart's state, kept in localStorage so it survives navigation and reloads. Deliberately free of
 * heavy imports: the shell script on every page reads the count from here for the sidebar badge.
 * Actions live in ./cart.
 */
export interface CartItem {
  id: string;
  type: 'image' | 'video';
  name: string;
  price: number;
  imageUrl?: string;
  videoUrl?: string;
  transformationId?: string;
  /** The result's owner secret (../owner-secrets.ts), sent with the checkout: only its maker's browser buys it. */
  ownerSecret?: string;
  packageId?: string;
}

export const CART_STORAGE_KEY = 'lumora-cart';

const optionalString = (v: unknown) => v === undefined || typeof v === 'string';

export function isCartItem(value: unknown): value is CartItem {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.id === 'string' && v.id.length > 0 &&
    (v.type === 'image' || v.type === 'video') &&
    typeof v.name === 'string' &&
    typeof v.price === 'number' && Number.isFinite(v.price) && v.price >= 0 &&
    optionalString(v.imageUrl) && optionalString(v.videoUrl) &&
    optionalString(v.transformationId) && optionalString(v.ownerSecret) && optionalString(v.packageId)
  );
}

/** A corrupted or foreign value in storage yields an empty cart, never a crash. */
export function decodeCart(raw: string): CartItem[] {
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter(isCartItem) : [];
  } catch {
    return [];
  }
}

export const $cartItems = persistentAtom<CartItem[]>(CART_STORAGE_KEY, [], {
  encode: JSON.stringify,
  decode: decodeCart,
});
/**
 * The checkout's idempotency key, kept with the cart: the same contents keep the same key (so a retry after
 * a lost answer gets the first payment's order back instead of a conflict), and any change of contents
 * makes a new one. Random, never derived from the contents: two buyers with equal carts must not share one.
 */
export const CHECKOUT_KEY_STORAGE_KEY = 'lumora-checkout-key';
export const $checkoutKey = persistentAtom<{ cart: string; key: string } | null>(CHECKOUT_KEY_STORAGE_KEY, null, {
  encode: JSON.stringify,
  decode: (raw) => {
    try {
      const v = JSON.parse(raw) as { cart?: unknown; key?: unknown } | null;
      return v && typeof v.cart === 'string' && typeof v.key === 'string' ? { cart: v.cart, key: v.key } : null;
    } catch {
      return null;
    }
  },
});

/** The cart's contents as the server sees them (ids in order), for matching the kept key. */
export const cartSignature = (items: readonly CartItem[]) => items.map((i) => (i.packageId ? `p:${i.packageId}` : `t:${i.transformationId ?? ''}`)).join(',');

/** The idempotency key of the current cart: the kept one if the contents are unchanged, else a new one. */
export function checkoutKeyFor(items: readonly CartItem[]): string {
  const cart = cartSignature(items), kept = $checkoutKey.get();
  if (kept && kept.cart === cart) return kept.key;
  const key = crypto.randomUUID();
  $checkoutKey.set({ cart, key });
  return key;
}

export const $cartCount = computed($cartItems, (items) => items.length);
export const $cartTotal = computed($cartItems, (items) => sumPrices(items.map((i) => i.price)));

/**
 * Clean-file links of bought transformations (transformation id → `/api/downloads/{id}?token=…`), saved
 * from the checkout's answer (and the order on the success page) next to the cart, so the tool's Download
 * gives the clean file after a purchase, also after a reload. The links do not expire; the server checks
 * the token and the completed payment on every download.
 */
export type Purchases = Record<string, string>;
export const PURCHASES_STORAGE_KEY = 'lumora-purchases';

export const isDownloadLink = (id: string, url: unknown): url is string =>
  typeof url === 'string' && url.startsWith(`/api/downloads/${id}?token=`);

export function decodePurchases(raw: string): Purchases {
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    return Object.fromEntries(Object.entries(parsed).filter(([id, url]) => isDownloadLink(id, url)));
  } catch {
    return {};
  }
}

export const $purchases = persistentAtom<Purchases>(PURCHASES_STORAGE_KEY, {}, {
  encode: JSON.stringify,
  decode: decodePurchases,
});
