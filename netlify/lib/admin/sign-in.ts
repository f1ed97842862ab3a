import { createHash, randomBytes } from 'node:crypto';
import { ADMIN_PATHS, SIGN_IN_LINK_MINUTES } from '../../../src/lib/admin';
import { site } from '../../../src/lib/site';
import { query } from '../db';
import { maskEmail } from '../mail/mask';
import { deliver, readMailTarget } from '../mail/transport';
import { visitorEmail } from '../mail/compose';
import { databaseRateLimiter, enforceRateLimit, firstRefusal } from '../rate-limit';
import { currentDeployContext, deployOrigin } from '../running-deploy';
import { MSG } from '../../../src/lib/messages';
import { isOperator } from './operators';

/**
 * The team signs in by e-mail: an address in OPERATOR_EMAILS gets a one-time link (a random token, stored only as
 * its SHA-256), which works once and for SIGN_IN_LINK_MINUTES; its page's button POSTs it back
 * (`consumeSignIn`), so a mail scanner opening the link signs nobody in. Every address gets the same answer and an
 * unknown one no mail, so the form tells nobody who is on the team. Requests are limited per client (a 429 that is
 * the same for every address) and per address (past it, silently no more mail). The link is sent directly, not
 * through the outbox: a link retried later would have expired. Under `npm start` (no SMTP) it is also printed on
 * the console, as the mail lands in the local outbox folder.
 */
export const SIGN_IN_LIMITS = { perClient: { max: 5, windowSeconds: 900 }, perAddress: { max: 3, windowSeconds: 900 } } as const;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const hashAddress = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 32);

/** Counts the request against the client's limit (429 past it), whatever the address. */
export async function limitSignInRequests(client: string): Promise<void> {
  await enforceRateLimit({ key: `sign-in:client:${client}`, ...SIGN_IN_LIMITS.perClient }, { message: MSG.tooManyRequests });
}

/**
 * The work a sign-in request does after its answer: for a team address within its limit, a stored token and the
 * e-mail with its link; for any other address, nothing. Never throws.
 */
export async function sendSignInLink(email: string, now: Date = new Date()): Promise<'sent' | 'not-operator' | 'limited' | 'failed'> {
  try {
    if (!isOperator(email)) return 'not-operator';
    const refused = await firstRefusal(databaseRateLimiter, [{ key: `sign-in:address:${hashAddress(email)}`, ...SIGN_IN_LIMITS.perAddress }]);
    if (refused) return 'limited';
    const to = email.trim().toLowerCase();
    const token = randomBytes(32).toString('base64url');
    const expires = new Date(now.getTime() + SIGN_IN_LINK_MINUTES * 60_000);
    await query('insert into operator_sign_ins (token_hash, email, expires_at) values ($1, $2, $3)', [hashToken(token), to, expires]);
    const origin = deployOrigin() ?? new URL(site.url).origin;
    const link = `${new URL(ADMIN_PATHS.signIn, origin).href}?token=${token}`;
    const target = readMailTarget();
    const message = visitorEmail(
      to,
      `Your sign-in link for the ${site.brand} inbox`,
      [
        `Someone (hopefully you) asked to sign in to the ${site.brand} inbox with this address. Open the link and press "Sign in":`,
        { link, label: 'Sign in to the inbox' },
        `The link works once, for ${SIGN_IN_LINK_MINUTES} minutes. If you did not ask for it, ignore this e-mail: nobody can sign in without it.`,
      ],
      origin,
      'sign-in',
    );
    const delivery = await deliver(message, target);
    // `npm start` and other local runs: the link on the console too (never on a deploy, where logs are shared).
    if (target.kind === 'outbox' && currentDeployContext() === 'dev') console.log(`[inbox] sign-in link for ${maskEmail(email)}: ${link}`);
    console.log(`[inbox] sign-in link for ${maskEmail(email)} ${delivery.status === 'sent' ? 'sent' : `saved to ${delivery.file}`}`);
    return 'sent';
  } catch (error) {
    console.error(`[inbox] sign-in link for ${maskEmail(email)} not sent: ${(error as Error).message}`);
    return 'failed';
  }
}

/** Uses the token once: the address it signs in, or null (unknown, used, expired, or no longer on the team). */
export async function consumeSignIn(token: string | null): Promise<string | null> {
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
  const [row] = await query<{ email: string }>(
    `update operator_sign_ins set used_at = now() where token_hash = $1 and used_at is null and expires_at > now() returning email`,
    [hashToken(token)],
  );
  return row && isOperator(row.email) ? row.email : null;
}
