import { toCents } from '../../../src/lib/money';
import { MSG } from '../../../src/lib/messages';
import { query } from '../db';
import { HttpError } from '../http';
import { placeOrder, type CheckoutResult } from '../checkout/place-order';
import type { CheckoutRequest } from '../../../src/lib/orders-schema';
import type { StripeSettings } from './config';
import { Stripe, stripeClient } from './stripe';
import { CHECKOUT_SESSION_MINUTES } from './expiry';

export interface StripeCheckoutResult extends CheckoutResult {
  /** Stripe's hosted payment page for this order. */
  checkoutUrl: string;
  sessionId: string;
}

/**
 * Records the cart as a pending Stripe payment (same SQL prices and idempotency as the demo) and opens a
 * Checkout Session for exactly those prices. The payment id travels in the session's metadata; the
 * idempotency key is derived from it, so a retried checkout gets the same session, never a second one.
 */
export async function stripeCheckout(request: CheckoutRequest, settings: StripeSettings, origin: string, client?: string): Promise<StripeCheckoutResult> {
  const order = await placeOrder(request, 'stripe', client);
  if (order.status !== 'pending') throw new HttpError(409, MSG.checkoutNotPending);
  let session: Stripe.Checkout.Session;
  try {
    session = await stripeClient(settings).checkout.sessions.create(
      {
        mode: 'payment',
        line_items: order.items.map((item) => ({
          quantity: 1,
          price_data: { currency: order.currency.toLowerCase(), unit_amount: toCents(item.price), product_data: { name: item.name } },
        })),
        client_reference_id: order.paymentId,
        metadata: { payment_id: order.paymentId },
        payment_intent_data: { metadata: { payment_id: order.paymentId } },
        success_url: `${origin}/checkout/success?session_id={CHECKOUT_SESSION_ID}`,
        cancel_url: `${origin}/checkout/cancel`,
        // From the payment's own time, so a retried checkout sends the same parameters (Stripe's idempotency).
        expires_at: Math.floor(Date.parse(order.createdAt) / 1000) + CHECKOUT_SESSION_MINUTES * 60,
      },
      { idempotencyKey: `checkout-session:${order.paymentId}` },
    );
  } catch (error) {
    console.error('[payments] Stripe refused the Checkout Session:', (error as Error).message);
    throw new HttpError(502, MSG.paymentProviderError);
  }
  if (!session.url) throw new HttpError(502, MSG.paymentProviderError);
  // First session wins: a replay after Stripe forgot the key (24 h) must not re-point the payment.
  const saved = await query(
    `update payments set stripe_session_id = $2
      where id = $1 and (stripe_session_id is null or stripe_session_id = $2) returning id`,
    [order.paymentId, session.id],
  );
  if (saved.length === 0) throw new HttpError(409, MSG.checkoutNotPending);
  return { ...order, checkoutUrl: session.url, sessionId: session.id };
}
