import { toCents } from '../../../src/lib/money';
import { query } from '../db';
import { readPaymentsConfig, type PaymentsConfig, type StripeSettings } from './config';
import { Stripe, stripeClient } from './stripe';

/**
 * Money this site took but cannot give goods for goes back through Stripe's API, without anyone having to
 * notice: the share of a payment for items another payment had already sold (the buyer paid twice, in two
 * tabs), and a whole second paid session for one order. Every refund has an idempotency key, so a retry
 * never refunds twice. A refund that fails is logged and tried again by the maintenance; meanwhile the
 * order shows the item as "refund pending".
 */

interface DuplicateRow {
  id: string;
  price: string;
  stripe_payment_intent: string | null;
  [key: string]: unknown;
}

/** Refunds the completed payment's unsold items not refunded yet; records the refund on their lines. Null when none (or it failed). */
export async function refundDuplicates(paymentId: string, settings: StripeSettings): Promise<string | null> {
  const rows = await query<DuplicateRow>(
    `select pi.id::text as id, pi.price, p.stripe_payment_intent from payment_items pi join payments p on p.id = pi.payment_id
      where pi.payment_id = $1 and p.status = 'completed' and p.payment_method = 'stripe'
        and pi.transformation_id is not null and not pi.sold and pi.refund_id is null`,
    [paymentId],
  );
  const intent = rows[0]?.stripe_payment_intent;
  if (!intent) return null;
  const amount = rows.reduce((sum, row) => sum + toCents(Number(row.price)), 0);
  try {
    const refund = await stripeClient(settings).refunds.create(
      { payment_intent: intent, amount, metadata: { payment_id: paymentId, reason: 'items already sold by another payment' } },
      { idempotencyKey: `duplicate-refund:${paymentId}:${rows.map((r) => r.id).join(',')}` },
    );
    await query(`update payment_items set refund_id = $2 where id = any($1::bigint[])`, [rows.map((r) => r.id), refund.id]);
    console.log(`[payments] payment ${paymentId}: refunded ${amount} cents for items another payment sold (${refund.id})`);
    return refund.id;
  } catch (error) {
    console.error(`[payments] payment ${paymentId}: the refund of items already sold failed, retried by the maintenance: ${(error as Error).message}`);
    return null;
  }
}

/**
 * Refunds a paid Checkout Session in full: a second session for an order that was paid through its own, or a
 * payment that arrived after its order had failed and whose items are no longer free. One refund per session
 * (the idempotency key), whoever asks again.
 */
export async function refundWholeSession(session: Stripe.Checkout.Session, settings: StripeSettings, reason = 'a second payment for one order'): Promise<string | null> {
  const intent = typeof session.payment_intent === 'string' ? session.payment_intent : session.payment_intent?.id;
  if (!intent) return null;
  try {
    const refund = await stripeClient(settings).refunds.create(
      { payment_intent: intent, metadata: { payment_id: session.metadata?.payment_id ?? '', reason } },
      { idempotencyKey: `session-refund:${session.id}` },
    );
    console.warn(`[payments] Checkout Session ${session.id} refunded in full (${reason}): ${refund.id}`);
    return refund.id;
  } catch (error) {
    console.error(`[payments] Checkout Session ${session.id} (${reason}): its refund failed: ${(error as Error).message}`);
    return null;
  }
}

/** The maintenance's retry: refunds still owed on completed Stripe payments. */
export async function retryOwedRefunds(config: PaymentsConfig = readPaymentsConfig()): Promise<number> {
  if (config.mode !== 'stripe') return 0;
  const owed = await query<{ payment_id: string }>(
    `select distinct pi.payment_id from payment_items pi join payments p on p.id = pi.payment_id
      where p.status = 'completed' and p.payment_method = 'stripe' and pi.transformation_id is not null
        and not pi.sold and pi.refund_id is null`,
  );
  let refunded = 0;
  for (const { payment_id } of owed) if (await refundDuplicates(payment_id, config.stripe)) refunded++;
  return refunded;
}
