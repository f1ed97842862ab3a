import { query } from '../db';
import { deliverEvent, type OutboxDeps } from './worker';

/**
 * The buyer's order confirmation, sent now from the outbox: the demo checkout calls it before answering (so its
 * answer says what happened to the mail), the Stripe webhook right after the payment completes. The event itself
 * was written by the payment's own transaction (the `payments_outbox` trigger), so a confirmation that fails here
 * is retried by the worker, and a replayed checkout or redelivered webhook finds it claimed or sent: one mail per
 * payment. Never throws: a mail problem never fails or undoes a payment.
 */
export async function sendOrderConfirmation(paymentId: string, deps: OutboxDeps = {}): Promise<void> {
  try {
    const [event] = await query<{ id: string }>(`select id from outbox_events where dedupe_key = $1`, [`order.paid:${paymentId}`]);
    if (event) await deliverEvent(event.id, ['visitor-email'], deps);
  } catch (error) {
    console.error(`[mail] order ${paymentId}: confirmation not sent now (the outbox retries it): ${(error as Error).message}`);
  }
}
