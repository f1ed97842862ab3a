import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { errorJson, json, pathAfter, requireMethod, withErrors } from '../lib/http';
import { getOrder } from '../lib/orders/order';
import { isValidOrderToken } from '../lib/orders/tokens';
import type { OrderAnswer } from '../../src/lib/orders-schema';

// GET /api/orders/{paymentId}?token=… — the order behind the success page. The token is the signed value
// issued at checkout; a wrong token and an unknown order get the same 404, so ids cannot be probed.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET');
  const paymentId = pathAfter(req, '/api/orders/');
  const token = new URL(req.url).searchParams.get('token');
  const order = token && isValidOrderToken(paymentId, token) ? await getOrder(paymentId) : null;
  if (!order || !token) return errorJson(404, MSG.orderNotFound);
  const answer: OrderAnswer = { success: true, ...order, orderToken: token };
  return json(answer);
});

export const config: Config = { path: '/api/orders/:paymentId' };
