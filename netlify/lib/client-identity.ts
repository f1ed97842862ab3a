import { createHash } from 'node:crypto';
import { isIPv4, isIPv6 } from 'node:net';

/**
 * The one client identity every limiter uses. Only the address the platform vouches for counts: Netlify's
 * `context.ip` (the local server passes the socket's address the same way). A request header such as
 * X-Forwarded-For is never read: any client can write one. An IPv6 client is grouped by its /64, since one
 * connection owns a whole /64 and could otherwise rotate through fresh limits. Hashed, so the rate-limit
 * table never holds an address.
 */
export function clientId(context: unknown): string {
  const ip = (context as { ip?: unknown } | null | undefined)?.ip;
  const group = typeof ip === 'string' ? addressGroup(ip.trim()) : null;
  return createHash('sha256').update(`client:${group ?? 'unknown'}`).digest('hex').slice(0, 32);
}

/** An IPv4 address as it is; an IPv6 address as its /64 prefix; IPv4-mapped IPv6 as the IPv4 address. */
export function addressGroup(ip: string): string | null {
  const bare = ip.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return null;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (mapped) return mapped[1]!;
  const [head = '', tail = ''] = bare.split('::');
  const left = head ? head.split(':') : [], right = tail ? tail.split(':') : [];
  // Only the first four groups (the /64) count, so a trailing embedded IPv4 needs no parsing.
  const groups = bare.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => parseInt(g, 16).toString(16)).join(':')}::/64`;
}
