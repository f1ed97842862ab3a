import { query, withTransaction } from '../db';
import { emitEvent } from '../outbox/events';
import { readConfirmToken, readUnsubscribeToken } from '../newsletter-tokens';

/**
 * The newsletter's double opt-in after the sign-up (store.ts): the confirmation, which only the POST behind the
 * e-mail's link makes (a link scanner's GET confirms nothing), and the unsubscribe, by the page's button or the mail
 * provider's one-click POST. Both are idempotent.
 */
export type ConfirmOutcome = 'confirmed' | 'already' | 'expired' | 'invalid';

/** Confirms the subscription the token names, recording when and from where (`client`, a hash). */
export async function confirmSubscription(token: string | null, client: string, now: Date = new Date()): Promise<{ outcome: ConfirmOutcome; eventId?: string | null }> {
  const check = readConfirmToken(token, now);
  if (!check.ok) return { outcome: check.reason };
  return withTransaction(async (tx) => {
    const [row] = await tx.query<{ status: string }>('select status from newsletter_subscribers where id = $1 for update', [check.subscriberId]);
    // An address that left after this link was sent needs a new sign-up: an old link does not bring it back.
    if (!row || row.status === 'unsubscribed') return { outcome: 'invalid' as const };
    if (row.status === 'confirmed') return { outcome: 'already' as const };
    const [done] = await tx.query<{ confirmed_at: Date }>(
      `update newsletter_subscribers set status = 'confirmed', confirmed_at = now(), confirmed_client = $2 where id = $1 returning confirmed_at`,
      [check.subscriberId, client],
    );
    const eventId = await emitEvent(tx, 'newsletter.confirmed', check.subscriberId, `newsletter.confirmed:${check.subscriberId}:${done!.confirmed_at.toISOString()}`);
    return { outcome: 'confirmed' as const, eventId };
  });
}

/** Removes the address the token names from the list; false for a token that names nobody. */
export async function unsubscribe(token: string | null): Promise<boolean> {
  const id = readUnsubscribeToken(token);
  if (!id) return false;
  await query(`update newsletter_subscribers set status = 'unsubscribed', unsubscribed_at = now() where id = $1 and status <> 'unsubscribed'`, [id]);
  return true;
}
