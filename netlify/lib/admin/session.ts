import { SESSION_HOURS } from '../../../src/lib/admin';
import { MSG } from '../../../src/lib/messages';
import { HttpError, withErrors, type HandlerOptions } from '../http';
import { sign, verify } from '../signing';
import { isOperator } from './operators';

/**
 * The team's session: a cookie signed with APP_SECRET that names the address and when it ends
 * (`<base64url address>.<unix seconds>.<HMAC>`), HttpOnly (no page script reads it), SameSite=Strict (no other
 * site's page or link sends it), Secure with the `__Host-` prefix on HTTPS (only this host, only encrypted), plain
 * `inbox` only on http://localhost for `npm start`. It is valid while the address is still in OPERATOR_EMAILS;
 * signing out clears it (rotating APP_SECRET ends every session).
 */
export interface Session {
  email: string;
  expiresAt: Date;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether the cookie can be Secure: everywhere but plain http on this machine. */
function secureFor(req: Request): boolean {
  const url = new URL(req.url);
  return !(url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

const cookieName = (secure: boolean) => (secure ? '__Host-inbox' : 'inbox');

function cookieValue(email: string, expires: Date): string {
  const exp = Math.floor(expires.getTime() / 1000);
  const who = Buffer.from(email).toString('base64url');
  return `${who}.${exp}.${sign('inbox-session', `${who}.${exp}`)}`;
}

/** The Set-Cookie header that starts a session for `email`. */
export function sessionCookie(req: Request, email: string, now: Date = new Date()): string {
  const secure = secureFor(req);
  const expires = new Date(now.getTime() + SESSION_HOURS * 3_600_000);
  return `${cookieName(secure)}=${cookieValue(email, expires)}; Path=/; Max-Age=${SESSION_HOURS * 3600}; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

/** The Set-Cookie header that ends it. */
export function clearedSessionCookie(req: Request): string {
  const secure = secureFor(req);
  return `${cookieName(secure)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`;
}

export function readSession(req: Request, now: Date = new Date()): Session | null {
  const name = cookieName(secureFor(req));
  const raw = (req.headers.get('cookie') ?? '').split(';').map((c) => c.trim()).find((c) => c.startsWith(`${name}=`))?.slice(name.length + 1);
  const [who = '', exp = '', signature = '', ...rest] = (raw ?? '').split('.');
  if (rest.length || !/^\d{1,12}$/.test(exp) || !verify('inbox-session', `${who}.${exp}`, signature)) return null;
  const expiresAt = new Date(Number(exp) * 1000);
  const email = Buffer.from(who, 'base64url').toString('utf8');
  if (expiresAt <= now || !isOperator(email)) return null;
  return { email, expiresAt };
}

/** The session, or a 401 (every /api/admin/* answer without one). */
export function requireSession(req: Request): Session {
  const session = readSession(req);
  if (!session) throw new HttpError(401, MSG.signInRequired);
  return session;
}

/** What every inbox answer carries, refusals included: never stored by a cache, never indexed. */
export const PRIVATE_HEADERS = { 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex, nofollow' } as const;

/** `withErrors` (the request guard, errors as answers, security headers) plus PRIVATE_HEADERS on every answer. */
export function inboxFunction<C>(handler: (req: Request, context: C) => Promise<Response>, options?: HandlerOptions) {
  const guarded = withErrors(handler, options);
  return async (req: Request, context?: C): Promise<Response> => {
    const response = await guarded(req, context);
    for (const [name, value] of Object.entries(PRIVATE_HEADERS)) response.headers.set(name, value);
    return response;
  };
}
