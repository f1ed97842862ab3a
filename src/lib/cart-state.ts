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
    optionalString(v.transformationId) && optionalString(v.packageId)
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
export const $cartCount = computed($cartItems, (items) => items.length);
export const $cartTotal = computed($cartItems, (items) => sumPrices(items.map((i) => i.price)));
