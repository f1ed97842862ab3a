import { query } from '../db';
import { sendOrderConfirmation } from '../mail/order-confirmation';
import { getOrder, type Order } from './order';
import type { CheckoutRequest } from '../../../src/lib/orders-schema';
import { orderToken } from './tokens';

export interface CheckoutResult extends Order {
  orderToken: string;
  /** True when this idempotency key had already been used: nothing was written. */
  replayed: boolean;
}

export type PaymentMethod = 'demo' | 'stripe';

/**
 * Records the cart as one payment priced from the database. Every rule (empty cart, unknown, duplicate,
 * unfinished or already purchased items, prices, idempotency) lives in the SQL function place_order, in
 * one transaction. A demo payment is completed at once, and its confirmation is mailed before answering so
 * the answer says what happened; a Stripe one stays pending until its webhook, which mails it.
 */
export async function placeOrder(request: CheckoutRequest, method: PaymentMethod): Promise<CheckoutResult> {
  const [row] = await query<{ payment_id: string; replayed: boolean }>(
    'select payment_id, replayed from place_order($1::jsonb, $2, $3)',
    [JSON.stringify(request.items), request.idempotencyKey, method],
  );
  // Only the request that created the payment sets its address: a replayed key cannot redirect the links.
  if (request.email && !row!.replayed) {
    await query('update payments set email = $2 where id = $1 and email is null', [row!.payment_id, request.email]);
  }
  if (method === 'demo') await sendOrderConfirmation(row!.payment_id);
  const order = await getOrder(row!.payment_id);
  if (!order) throw new Error(`Payment ${row!.payment_id} vanished right after checkout`);
  return { ...order, orderToken: orderToken(order.paymentId), replayed: row!.replayed };
}

/** The demonstration checkout: method demo, status completed, the clean files released at once. */
export const demoCheckout = (request: CheckoutRequest) => placeOrder(request, 'demo');
