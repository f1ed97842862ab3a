import { toCents } from '../../../src/lib/money';
import { query, withTransaction, type Queryable } from '../db';
import { HttpError } from '../http';
import { sendOrderConfirmation } from '../delivery/order-confirmation';
import type { StripeSettings } from './config';
import { refundDuplicates, refundWholeSession } from './refunds';
import { Stripe, stripeClient } from './stripe';

/**
 * What a verified Stripe event does to the order it names. Each change runs in one transaction that
 * locks the payment row and records the event id, so a redelivered or replayed event changes nothing,
 * and only forward moves are made (pending → completed | failed, completed → refunded | disputed): events
 * arriving twice or out of order cannot reopen a refunded order or fail a paid one. An event about a session
 * or charge this site did not make (another integration on the same Stripe account) is acknowledged and
 * ignored, so Stripe does not retry it for days.
 */
export interface EventOutcome {
  applied: boolean;
  /** The payment's status after the event (absent for events this site does not act on). */
  status?: string;
  reason?: string;
  /** The order the event moved (set when a payment was completed). */
  paymentId?: string;
  /** A refund this event caused (a duplicate payment). */
  refundId?: string;
}

interface PaymentRow {
  id: string;
  amount: string;
  currency: string;
  status: string;
  payment_method: string;
  stripe_session_id: string | null;
  [key: string]: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notOurs = (what: string): EventOutcome => ({ applied: false, reason: `${what} was not made by this site: ignored` });

/** Verifies the signature over the raw body with the library; anything else is a 400 and changes nothing. */
export function verifyEvent(raw: Buffer, signature: string | null, settings: StripeSettings): Stripe.Event {
  if (!signature) throw new HttpError(400, 'Missing Stripe-Signature header');
  try {
    return stripeClient(settings).webhooks.constructEvent(raw, signature, settings.webhookSecret);
  } catch (error) {
    console.warn('[payments] webhook refused:', (error as Error).message);
    throw new HttpError(400, 'Invalid Stripe signature');
  }
}

export async function applyStripeEvent(event: Stripe.Event, settings: StripeSettings): Promise<EventOutcome> {
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
      return settlePaid(await readSession(event, settings), settings, event);
    case 'checkout.session.expired':
    case 'checkout.session.async_payment_failed':
      return settleSession(event, await readSession(event, settings), settings, 'failed');
    case 'charge.refunded': {
      const charge = event.data.object;
      return revokeSale(event, settings, intentOf(charge.payment_intent), 'refunded', charge.refunded ? null : 'partial refund: downloads kept');
    }
    case 'charge.dispute.created':
      return revokeSale(event, settings, intentOf(event.data.object.payment_intent), 'disputed', null);
    default:
      return { applied: false, reason: `event type ${event.type} is not used` };
  }
}

const intentOf = (intent: string | { id: string } | null | undefined) => (typeof intent === 'string' ? intent : (intent?.id ?? null));

/**
 * The session is read back from Stripe rather than trusted from the event body: the current state
 * decides (a late `completed` after an expiry, an async payment still unpaid), and the amount Stripe
 * charged must equal the price this server recorded, or nothing is released.
 */
const readSession = (event: Stripe.Event, settings: StripeSettings) =>
  stripeClient(settings).checkout.sessions.retrieve((event.data.object as Stripe.Checkout.Session).id);

/**
 * A paid session, from its webhook or from the maintenance that found it paid without one (an outage): settles
 * it, then — after the commit — refunds what it paid for but could not sell and mails the confirmation.
 */
export async function settlePaid(session: Stripe.Checkout.Session, settings: StripeSettings, event: Stripe.Event | null): Promise<EventOutcome> {
  const outcome = await settleSession(event, session, settings, 'paid');
  // The mail goes out only for a payment that is really completed.
  if (outcome.applied && outcome.status === 'completed' && outcome.paymentId) {
    const refundId = await refundDuplicates(outcome.paymentId, settings);
    await sendOrderConfirmation(outcome.paymentId);
    return refundId ? { ...outcome, refundId } : outcome;
  }
  return outcome;
}

type Settled = EventOutcome | 'another-session';

/**
 * Moves the payment the session names. A payment that arrives for an order already failed (an asynchronous
 * method settling days later, a webhook outage past the expiry) is not kept without goods: the order completes
 * when every item it lists is still there and unsold, else the whole session is refunded at once.
 */
async function settleSession(event: Stripe.Event | null, session: Stripe.Checkout.Session, settings: StripeSettings, outcome: 'paid' | 'failed'): Promise<EventOutcome> {
  const paymentId = session.metadata?.payment_id ?? '';
  const result = await withTransaction(async (tx): Promise<Settled> => {
    const payment = await lockPayment(tx, 'id = $1', UUID.test(paymentId) ? paymentId : null);
    if (!payment || payment.payment_method !== 'stripe') return notOurs(`Checkout Session ${session.id}`);
    // Another session for an order that has its own: paid too, it is a second payment for the same order.
    if (payment.stripe_session_id && payment.stripe_session_id !== session.id) return 'another-session';
    if (event && !(await recordEvent(tx, event, payment.id))) return { applied: false, status: payment.status, reason: 'duplicate event' };
    if (outcome === 'failed') {
      if (payment.status !== 'pending') return { applied: false, status: payment.status, reason: `payment already ${payment.status}` };
      await tx.query(`update payments set status = 'failed', stripe_session_id = $2 where id = $1`, [payment.id, session.id]);
      return { applied: true, status: 'failed' };
    }
    const expected = toCents(Number(payment.amount));
    if (session.amount_total !== expected || session.currency !== payment.currency.toLowerCase()) {
      console.error(`[payments] payment ${payment.id}: Stripe charged ${session.amount_total} ${session.currency}, the order costs ${expected} ${payment.currency}; nothing released`);
      throw new HttpError(409, 'The amount paid does not match the order');
    }
    if (session.payment_status !== 'paid') return { applied: false, status: payment.status, reason: 'payment not settled yet' };
    if (payment.status === 'failed') {
      if (!(await itemsStillFree(tx, payment))) {
        // Refunded before the commit: a refund Stripe refuses rolls the event back (502), and Stripe's retry
        // (or the next maintenance) asks again under the same idempotency key, so the money is never kept.
        const refundId = await refundWholeSession(session, settings, 'paid after the order had failed, its items no longer free');
        if (!refundId) throw new HttpError(502, 'The refund of a late payment failed; retry');
        await tx.query(`update payments set status = 'refunded', stripe_session_id = $2, stripe_payment_intent = $3 where id = $1`, [payment.id, session.id, intentOf(session.payment_intent)]);
        return { applied: true, status: 'refunded', reason: 'paid after the order had failed, its items no longer free: refunded', paymentId: payment.id, refundId };
      }
      console.warn(`[payments] payment ${payment.id} was paid after it had failed; its items are still free: completed`);
    } else if (payment.status !== 'pending') {
      return { applied: false, status: payment.status, reason: `payment already ${payment.status}` };
    }
    await tx.query(
      `update payments set status = 'completed', stripe_session_id = $2, stripe_payment_intent = $3 where id = $1`,
      [payment.id, session.id, intentOf(session.payment_intent)],
    );
    await releaseItems(tx, payment.id);
    return { applied: true, status: 'completed', paymentId: payment.id };
  });
  if (result !== 'another-session') return result;
  if (outcome !== 'paid' || session.payment_status !== 'paid') return { applied: false, reason: `Checkout Session ${session.id} is not the one recorded for payment ${paymentId}: ignored` };
  const refundId = await refundWholeSession(session, settings);
  return { applied: false, reason: `a second paid session for payment ${paymentId}: refunded`, ...(refundId && { refundId }) };
}

/**
 * Whether a failed order can still be delivered as bought: every line it was priced with is still there (the
 * retention deletes the lines of results nobody bought) and no other payment sold its item. Rows locked in id
 * order like the checkout.
 */
async function itemsStillFree(tx: Queryable, payment: PaymentRow): Promise<boolean> {
  await tx.query(
    `select m.id from media_transformations m join payment_items pi on pi.transformation_id = m.id
      where pi.payment_id = $1 order by m.id for update of m`,
    [payment.id],
  );
  const [row] = await tx.query<{ lines: string; taken: boolean }>(
    `select coalesce(sum(pi.price), 0)::text as lines,
            bool_or(pi.transformation_id is not null and (
              m.id is null or m.result_path is null
              or exists (select 1 from payment_items o where o.transformation_id = pi.transformation_id and o.sold))) as taken
       from payment_items pi left join media_transformations m on m.id = pi.transformation_id
      where pi.payment_id = $1`,
    [payment.id],
  );
  return !!row && row.taken !== true && toCents(Number(row.lines)) === toCents(Number(payment.amount));
}

/**
 * A full refund or a dispute takes the files back: the payment leaves `completed`, its items are unsold and
 * their downloads refused. `keep` names why nothing changes (a partial refund is left to the operator).
 * A charge this site does not know yet, but whose PaymentIntent names one of its payments, is answered 404
 * so Stripe delivers it again after the completion has landed; any other is acknowledged and ignored.
 */
async function revokeSale(event: Stripe.Event, settings: StripeSettings, paymentIntent: string | null, status: 'refunded' | 'disputed', keep: string | null): Promise<EventOutcome> {
  const outcome = await withTransaction(async (tx): Promise<EventOutcome | null> => {
    const payment = await lockPayment(tx, 'stripe_payment_intent = $1', paymentIntent);
    if (!payment) return null;
    if (!(await recordEvent(tx, event, payment.id))) return { applied: false, status: payment.status, reason: 'duplicate event' };
    if (keep) return { applied: false, status: payment.status, reason: keep };
    if (payment.status !== 'completed') return { applied: false, status: payment.status, reason: `payment already ${payment.status}` };
    const sold = await tx.query<{ transformation_id: string | null }>(
      `update payment_items set sold = false where payment_id = $1 and sold returning transformation_id`,
      [payment.id],
    );
    const ids = sold.map((r) => r.transformation_id).filter((id): id is string => !!id);
    await tx.query(`update media_transformations set purchased = false where id = any($1::uuid[])`, [ids]);
    await tx.query(`update payments set status = $2 where id = $1`, [payment.id, status]);
    if (status === 'disputed') console.warn(`[payments] payment ${payment.id}: a dispute was opened; its downloads are revoked`);
    return { applied: true, status };
  });
  if (outcome) return outcome;
  if (paymentIntent && (await intentNamesOurPayment(paymentIntent, settings))) {
    throw new HttpError(404, `No completed payment for PaymentIntent ${paymentIntent} yet`);
  }
  return notOurs(`PaymentIntent ${paymentIntent ?? '(none)'}`);
}

/** Whether Stripe's PaymentIntent carries the payment id this site gives its sessions (and that payment exists). */
async function intentNamesOurPayment(paymentIntent: string, settings: StripeSettings): Promise<boolean> {
  const intent = await stripeClient(settings).paymentIntents.retrieve(paymentIntent);
  const paymentId = intent.metadata?.payment_id ?? '';
  if (!UUID.test(paymentId)) return false;
  return (await query(`select 1 from payments where id = $1 and payment_method = 'stripe'`, [paymentId])).length > 0;
}

async function lockPayment(tx: Queryable, where: string, value: string | null): Promise<PaymentRow | null> {
  if (!value) return null;
  const [row] = await tx.query<PaymentRow>(
    `select id, amount, currency, status, payment_method, stripe_session_id from payments where ${where} for update`,
    [value],
  );
  return row ?? null;
}

/** False when this event id was already applied (Stripe retries, or someone replays a captured event). */
async function recordEvent(tx: Queryable, event: Stripe.Event, paymentId: string): Promise<boolean> {
  const inserted = await tx.query(
    `insert into stripe_events (id, type, payment_id) values ($1, $2, $3) on conflict (id) do nothing returning id`,
    [event.id, event.type, paymentId],
  );
  return inserted.length > 0;
}

/**
 * Sells the order's items, rows locked in id order like the checkout. An item another payment sold in
 * the meantime (the buyer paid in two tabs) stays unsold here: the buyer keeps the download through the
 * other payment, and this payment's share for it is refunded after the commit (refunds.ts).
 */
async function releaseItems(tx: Queryable, paymentId: string): Promise<void> {
  await tx.query(
    `select m.id from media_transformations m join payment_items pi on pi.transformation_id = m.id
      where pi.payment_id = $1 order by m.id for update of m`,
    [paymentId],
  );
  const taken = await tx.query<{ id: string }>(
    `select pi.transformation_id as id from payment_items pi
      where pi.payment_id = $1 and exists (
        select 1 from payment_items other where other.transformation_id = pi.transformation_id and other.sold)`,
    [paymentId],
  );
  if (taken.length > 0) console.warn(`[payments] payment ${paymentId} paid for items already sold (${taken.map((t) => t.id).join(', ')}); refunding them`);
  await tx.query(
    `update payment_items set sold = true where payment_id = $1 and (transformation_id is null or not (transformation_id = any($2::uuid[])))`,
    [paymentId, taken.map((t) => t.id)],
  );
  await tx.query(
    `update media_transformations set purchased = true
      where id in (select transformation_id from payment_items where payment_id = $1 and sold)`,
    [paymentId],
  );
}
