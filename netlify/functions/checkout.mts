import type { Config } from '@netlify/functions';
import { demoCheckout } from '../lib/orders/checkout';
import { checkoutRequestSchema } from '../lib/orders/schemas';
import { json, parseWith, readJson, requireMethod, withErrors } from '../lib/http';

// POST /api/checkout { items: [{ transformationId } | { packageId }], idempotencyKey } — demonstration
// payment: recorded as method demo, status completed; prices come from the database only.
export default withErrors(async (req: Request) => {
  requireMethod(req, 'POST');
  const input = parseWith(checkoutRequestSchema, await readJson(req));
  const result = await demoCheckout(input);
  return json({
    success: true,
    paymentId: result.paymentId,
    amount: result.amount,
    currency: result.currency,
    items: result.items,
    downloads: result.downloads,
    orderToken: result.orderToken,
  });
});

export const config: Config = { path: '/api/checkout' };
