import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { query } from '../lib/db';
import { errorJson, json, parseWith, pathAfter, requireMethod, withErrors } from '../lib/http';
import { getOrder } from '../lib/orders/order';
import { checkoutSessionIdSchema } from '../lib/orders/schemas';
import { orderToken } from '../lib/orders/tokens';
import type { OrderAnswer } from '../../src/lib/orders-schema';

// GET /api/checkout/sessions/{sessionId} — the order behind a Stripe Checkout Session, for the success page
// Stripe returns the buyer to. Its status stays `pending` until the verified webhook completes it; only
// then are downloads listed. The session id is the buyer's proof, as the order token is after a demo checkout.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET');
  const sessionId = parseWith(checkoutSessionIdSchema, pathAfter(req, '/api/checkout/sessions/'));
  const [row] = await query<{ id: string }>('select id from payments where stripe_session_id = $1', [sessionId]);
  const order = row ? await getOrder(row.id) : null;
  if (!order) return errorJson(404, MSG.orderNotFound);
  const answer: OrderAnswer = { success: true, ...order, orderToken: orderToken(order.paymentId) };
  return json(answer);
});

export const config: Config = { path: '/api/checkout/sessions/:sessionId' };
