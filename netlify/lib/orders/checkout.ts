import { query } from '../db';
import { getOrder, type Order } from './order';
import type { CheckoutRequest } from './schemas';
import { orderToken } from './tokens';

export interface CheckoutResult extends Order {
  orderToken: string;
  /** True when this idempotency key had already been used: nothing was written. */
  replayed: boolean;
}

/**
 * Runs the demonstration checkout. Every rule (empty cart, unknown, duplicate, unfinished or already
 * purchased items, prices, idempotency) lives in the SQL function demo_checkout, in one transaction.
 */
export async function demoCheckout(request: CheckoutRequest): Promise<CheckoutResult> {
  const [row] = await query<{ payment_id: string; replayed: boolean }>(
    'select payment_id, replayed from demo_checkout($1::jsonb, $2)',
    [JSON.stringify(request.items), request.idempotencyKey],
  );
  const order = await getOrder(row!.payment_id);
  if (!order) throw new Error(`Payment ${row!.payment_id} vanished right after checkout`);
  return { ...order, orderToken: orderToken(order.paymentId), replayed: row!.replayed };
}
