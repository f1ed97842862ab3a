import { withTransaction } from '../db';
import { HttpError } from '../http';
import { MSG } from '../../../src/lib/messages';
import { sendOrderConfirmation } from '../delivery/order-confirmation';
import { getOrder, type Order } from '../orders/order';
import type { CheckoutRequest } from '../../../src/lib/orders-schema';
import { orderToken } from '../orders/tokens';
import { assertOwnsItems } from '../tool/ownership';

export interface CheckoutResult extends Order {
  orderToken: string;
  /** True when this idempotency key had already been used: nothing was written. */
  replayed: boolean;
}

export type PaymentMethod = 'demo' | 'stripe';

/**
 * New orders one client may place, in either payment mode: a buyer checks out a handful of times, while
 * each order can send an e-mail and, with Stripe, opens a Checkout Session. Replays of one checkout (the
 * cart retrying with its key) are not counted.
 */
export const CHECKOUT_LIMIT = { max: 10, windowSeconds: 3600 } as const;

/**
 * Records the cart as one payment priced from the database. Every rule (empty cart, unknown, duplicate,
 * unfinished or already purchased items, prices, idempotency) lives in the SQL function place_order, in
 * one transaction; before it, each result must come with its owner secret (tool/ownership.ts: an item's hash
 * never changes, so checking first leaves no window). A demo payment is completed at once, and its confirmation is mailed before answering so
 * the answer says what happened; a Stripe one stays pending until its webhook, which mails it. Both go through
 * the outbox (netlify/lib/outbox), whose worker retries a failed confirmation and tells the owner of the order. With a
 * `client` (clientId of the request), a new order counts against CHECKOUT_LIMIT in the same transaction
 * (place_order_limited): past it, a 429 and nothing written.
 */
export async function placeOrder(request: CheckoutRequest, method: PaymentMethod, client?: string): Promise<CheckoutResult> {
  // Nobody buys another browser's result from its id: each needs the owner secret the cart sent with it (403).
  await assertOwnsItems(request.items.flatMap((item) => ('transformationId' in item ? [item] : [])));
  // place_order reads ids only (exactly one key per item).
  const items = request.items.map((item) => ('transformationId' in item ? { transformationId: item.transformationId } : item));
  const params = [JSON.stringify(items), request.idempotencyKey, method];
  // One transaction with the address: the payment's outbox event (written by its trigger) must never be sent
  // before the buyer's address is on the payment.
  const row = await withTransaction(async (tx) => {
    const [placed] = await (client
      ? tx.query<{ payment_id: string; replayed: boolean }>('select payment_id, replayed from place_order_limited($1::jsonb, $2, $3, $4, $5, $6)', [...params, client, CHECKOUT_LIMIT.max, CHECKOUT_LIMIT.windowSeconds])
      : tx.query<{ payment_id: string; replayed: boolean }>('select payment_id, replayed from place_order($1::jsonb, $2, $3)', params));
    // Only the request that created the payment sets its address: a replayed key cannot redirect the links.
    if (request.email && !placed!.replayed) {
      await tx.query('update payments set email = $2 where id = $1 and email is null', [placed!.payment_id, request.email]);
    }
    return placed!;
  }).catch((error: { code?: string; detail?: string }) => {
    if (error?.code === 'LU429') throw new HttpError(429, MSG.tooManyCheckouts, { 'Retry-After': String(Number(error.detail) || 60) });
    throw error;
  });
  if (method === 'demo') await sendOrderConfirmation(row.payment_id);
  const order = await getOrder(row.payment_id);
  if (!order) throw new Error(`Payment ${row.payment_id} vanished right after checkout`);
  return { ...order, orderToken: orderToken(order.paymentId), replayed: row.replayed };
}

/** The demonstration checkout: method demo, status completed, the clean files released at once. */
export const demoCheckout = (request: CheckoutRequest, client?: string) => placeOrder(request, 'demo', client);
