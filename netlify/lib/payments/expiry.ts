import { query } from '../db';
import { readPaymentsConfig, type PaymentsConfig } from './config';
import { stripeClient, type Stripe } from './stripe';
import { settlePaid } from './webhook';

/**
 * Unpaid checkouts do not hold their items for ever, and no buyer is charged for nothing. A Checkout Session this
 * site opens lives CHECKOUT_SESSION_MINUTES; a payment still pending some minutes after that is looked at here, by
 * the scheduled maintenance, and Stripe is always asked first what became of its session:
 * - open → expired now, then failed; expired → failed;
 * - complete and paid (its webhook never arrived: an outage) → settled here as the webhook would have;
 * - complete but unpaid (an asynchronous method such as SEPA or ACH still processing, for days) → left pending:
 *   `async_payment_succeeded` or `async_payment_failed` settles it (failed here only once its PaymentIntent has);
 * - Stripe cannot be asked → left pending, asked again at the next run.
 * Only a pending payment without a session (its checkout never reached Stripe) is failed without asking, once no
 * session can still be alive (Stripe's longest is 24 h), and so is one recorded while Stripe was the mode when the
 * site no longer runs Stripe. A payment that still arrives for a failed order completes it or is refunded
 * (webhook.ts). A failed payment's items are free again: the retention deletes results nobody bought.
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

type Verdict = 'over' | 'paid' | 'processing' | 'unknown';

/** Returns how many pending payments were failed (a paid one settled here is not counted). */
export async function expireUnpaidCheckouts(config: PaymentsConfig = readPaymentsConfig()): Promise<number> {
  const rows = await query<PendingRow>(
    `select id, stripe_session_id, created_at < now() - make_interval(hours => $2::int) as abandoned
       from payments where status = 'pending' and payment_method = 'stripe' and created_at < now() - make_interval(mins => $1::int)`,
    [CHECK_AFTER_MINUTES, ABANDONED_AFTER_HOURS],
  );
  let failed = 0;
  for (const row of rows) {
    if (row.stripe_session_id && config.mode === 'stripe') {
      const { verdict, session } = await askStripe(row.stripe_session_id, config);
      if (verdict === 'paid' && session) {
        const outcome = await settlePaid(session, config.stripe, null);
        console.warn(`[payments] payment ${row.id}: its session was paid but no webhook had settled it; ${outcome.status ?? outcome.reason}`);
        continue;
      }
      if (verdict !== 'over') continue;
    } else if (!row.abandoned) {
      continue;
    }
    const done = await query(`update payments set status = 'failed' where id = $1 and status = 'pending' returning id`, [row.id]);
    failed += done.length;
  }
  return failed;
}

/** What Stripe says of the session: over (expired, or open and expired now), paid, processing, or unknown. */
async function askStripe(sessionId: string, config: Extract<PaymentsConfig, { mode: 'stripe' }>): Promise<{ verdict: Verdict; session?: Stripe.Checkout.Session }> {
  const sessions = stripeClient(config.stripe).checkout.sessions;
  try {
    const session = await sessions.retrieve(sessionId);
    if (session.status === 'open') {
      const expired = await sessions.expire(sessionId);
      return { verdict: expired.status === 'expired' ? 'over' : 'unknown', session: expired };
    }
    if (session.status === 'expired') return { verdict: 'over', session };
    if (session.payment_status !== 'unpaid') return { verdict: 'paid', session };
    // Complete but unpaid: an asynchronous payment, still processing unless its PaymentIntent says it failed
    // (and the `async_payment_failed` event was lost).
    const intentId = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
    const intent = intentId ? await stripeClient(config.stripe).paymentIntents.retrieve(intentId) : null;
    const failed = intent?.status === 'canceled' || intent?.status === 'requires_payment_method';
    return { verdict: failed ? 'over' : 'processing', session };
  } catch (error) {
    console.warn(`[payments] could not check Checkout Session ${sessionId}: ${(error as Error).message}`);
    return { verdict: 'unknown' };
  }
}
