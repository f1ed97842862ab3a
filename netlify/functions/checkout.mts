import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { demoCheckout } from '../lib/checkout/place-order';
import { checkoutRequestSchema, type CheckoutAnswer } from '../../src/lib/orders-schema';
import { errorJson, HttpError, json, parseWith, readJson, requireMethod, withErrors } from '../lib/http';
import { readPaymentsConfig } from '../lib/payments/config';
import { deployOrigin } from '../lib/running-deploy';
import { stripeCheckout } from '../lib/payments/stripe-checkout';
import { sellingCheck } from '../lib/payments/selling';
import { clientId } from '../lib/client-identity';

// POST /api/checkout { items: [{ transformationId } | { packageId }], idempotencyKey, email? } — prices come
// from the database only; `confirmation` says what happened to the e-mailed confirmation (address masked).
// PAYMENTS=demo: a completed demonstration payment with its downloads. PAYMENTS=stripe: a pending payment
// and the Stripe Checkout URL to send the browser to; the webhook completes it. New orders per client are
// limited (CHECKOUT_LIMIT) in both modes.
export default withErrors(async (req: Request, context: unknown) => {
  requireMethod(req, 'POST');
  const input = parseWith(checkoutRequestSchema, await readJson(req));
  const payments = readPaymentsConfig();
  if (payments.mode === 'misconfigured') {
    console.error(`[payments] checkout refused: ${payments.problem}`);
    return errorJson(503, payments.liveKeyOutsideProduction ? MSG.paymentsLiveOnPreview : MSG.paymentsUnavailable);
  }
  const selling = await sellingCheck();
  if (!selling.allowed) {
    console.error(`[payments] checkout refused: ${selling.problem}`);
    return errorJson(503, MSG.checkoutOffOnPreview);
  }
  const client = clientId(context);
  const result = payments.mode === 'stripe' ? await stripeCheckout(input, payments.stripe, stripeReturnOrigin(), client) : await demoCheckout(input, client);
  const answer: CheckoutAnswer = {
    success: true,
    paymentId: result.paymentId,
    amount: result.amount,
    currency: result.currency,
    items: result.items,
    downloads: result.downloads,
    allowances: result.allowances,
    orderToken: result.orderToken,
    confirmation: result.confirmation,
    ...('checkoutUrl' in result && typeof result.checkoutUrl === 'string' && { checkoutUrl: result.checkoutUrl }),
  };
  return json(answer);
});

/** Stripe sends the buyer back to the deploy that opened the session, never to an address a request named. */
function stripeReturnOrigin(): string {
  const origin = deployOrigin();
  if (!origin) throw new HttpError(503, MSG.paymentsUnavailable);
  return origin;
}

export const config: Config = { path: '/api/checkout' };
