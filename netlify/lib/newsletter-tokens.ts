import { sign, verify } from './signing';

/**
 * The newsletter's links, signed with APP_SECRET so no token is stored: a confirmation token names the subscriber
 * and when it expires (`<id>.<unix seconds>.<HMAC>`); an unsubscribe token names the subscriber only
 * (`<id>.<HMAC>`), because an unsubscribe link must work for as long as the mail that carries it is kept.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function confirmToken(subscriberId: string, expires: Date): string {
  const exp = Math.floor(expires.getTime() / 1000);
  return `${subscriberId}.${exp}.${sign('newsletter-confirm', `${subscriberId}.${exp}`)}`;
}

export type ConfirmTokenCheck = { ok: true; subscriberId: string } | { ok: false; reason: 'invalid' | 'expired' };

export function readConfirmToken(token: string | null | undefined, now: Date = new Date()): ConfirmTokenCheck {
  const [id = '', exp = '', signature = '', ...rest] = (token ?? '').split('.');
  if (rest.length || !UUID.test(id) || !/^\d{1,12}$/.test(exp) || !verify('newsletter-confirm', `${id}.${exp}`, signature)) return { ok: false, reason: 'invalid' };
  if (Number(exp) * 1000 < now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, subscriberId: id };
}

export const unsubscribeToken = (subscriberId: string) => `${subscriberId}.${sign('newsletter-unsubscribe', subscriberId)}`;

/** The subscriber the unsubscribe token names, or null. */
export function readUnsubscribeToken(token: string | null | undefined): string | null {
  const [id = '', signature = '', ...rest] = (token ?? '').split('.');
  return !rest.length && UUID.test(id) && verify('newsletter-unsubscribe', id, signature) ? id : null;
}
