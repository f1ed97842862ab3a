import { site } from '../lib/site';

/** Resolves a content href: `ext:partners.lifequest` → the URL in site.external; other hrefs unchanged. */
export function resolveHref(href: string): { href: string; external: boolean } {
  if (!href.startsWith('ext:')) return { href, external: false };
  const value = href
    .slice(4)
    .split('.')
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], site.external);
  if (typeof value !== 'string' || !value) throw new Error(`Unknown or empty external link ${href}`);
  return { href: value, external: true };
}
