import { persistentAtom } from '@nanostores/persistent';

/**
 * A paid package's secret link and key, as the tool, the cart and the e-mails use them. No Node imports here. The
 * package's shape (its allowance) and the requests and answers of /api/packages are ./packages-schema.ts: zod, kept
 * apart so the pages that reach this module only through the cart (a package button) carry none of it.
 */
export type { AllowanceState, AllowanceSummary } from './packages-schema';

/** The tool page's address with a package key: the key travels in the fragment, which no server, log or Referer sees. */
export const TOOL_PATH = '/image-video-transformation';
export const PACKAGE_FRAGMENT = 'package';
export const packageLinkPath = (key: string) => `${TOOL_PATH}#${PACKAGE_FRAGMENT}=${encodeURIComponent(key)}`;

/** The key in an address's fragment (`#package=…`), or null. */
export function keyFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const key = params.get(PACKAGE_FRAGMENT)?.trim();
  return key && /^[0-9a-fA-F-]{36}\.[0-9]{1,9}\.[A-Za-z0-9_-]{43}$/.test(key) ? key : null;
}

/** The header that carries the key to the server (never a query string: it would land in logs). */
export const PACKAGE_KEY_HEADER = 'x-package-key';

/**
 * The package this browser opened last, kept in localStorage like the cart: its key (the link's secret), so the
 * tool reopens it without the link. A malformed value reads as none.
 */
export const $packageKey = persistentAtom<string>('lumora-package-key', '', {
  encode: (value) => value,
  decode: (raw) => (keyFromHash(`#${PACKAGE_FRAGMENT}=${raw}`) ?? ''),
});

export const packageHeaders = (key: string | null | undefined): Record<string, string> => (key ? { [PACKAGE_KEY_HEADER]: key } : {});

/** "12 Dec 2027" in the buyer's own locale. */
export const expiryDate = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
