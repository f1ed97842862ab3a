import { query } from '../db';
import { readPaymentsConfig, type PaymentsConfig } from './config';
import { stripeClient } from './stripe';

/**
 * Unpaid checkouts do not hold their items for ever. A Checkout Session this site opens lives
 * CHECKOUT_SESSION_MINUTES; a payment still pending some minutes after that is settled here, by the scheduled
 * maintenance: Stripe is asked what became of its session — still open (expired now, then failed), expired
 * (failed), or completed (left alone: its webhook, which Stripe retries for days, settles it, even an
 * asynchronous payment still under way). A pending payment without a session, or one Stripe cannot be
 * asked about, is failed once no session can still be alive (Stripe's longest is 24 h). A failed payment's
 * items are free again: the retention deletes results nobody bought (retention.ts).
 */
export const CHECKOUT_SESSION_MINUTES = 60;
const CHECK_AFTER_MINUTES = CHECKOUT_SESSION_MINUTES + 15;
const ABANDONED_AFTER_HOURS = 25;

interface PendingRow {
  id: string;
  stripe_session_id: string | null;
  abandoned: boolean;
  [key: string]: unknown;
}

export async function expireUnpaidCheckouts(config: PaymentsConfig = readPaymentsConfig()): Promise<number> {
  const rows = await query<PendingRow>(
    `select id, stripe_session_id, created_at < now() - make_interval(hours => $2::int) as abandoned
       from payments where status = 'pending' and created_at < now() - make_interval(mins => $1::int)`,
    [CHECK_AFTER_MINUTES, ABANDONED_AFTER_HOURS],
  );
  let failed = 0;
  for (const row of rows) {
    if (row.stripe_session_id && !(await sessionIsOver(row.stripe_session_id, config)) && !row.abandoned) continue;
    const done = await query(`update payments set status = 'failed' where id = $1 and status = 'pending' returning id`, [row.id]);
    failed += done.length;
  }
  return failed;
}

/** True when the session can no longer be paid (expired, or open and expired now); false when it completed or Stripe cannot say. */
async function sessionIsOver(sessionId: string, config: PaymentsConfig): Promise<boolean> {
  if (config.mode !== 'stripe') return false;
  const sessions = stripeClient(config.stripe).checkout.sessions;
  try {
    const session = await sessions.retrieve(sessionId);
    if (session.status === 'open') return (await sessions.expire(sessionId)).status === 'expired';
    return session.status === 'expired';
  } catch (error) {
    console.warn(`[payments] could not check Checkout Session ${sessionId}: ${(error as Error).message}`);
    return false;
  }
}
