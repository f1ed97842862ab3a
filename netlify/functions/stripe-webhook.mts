import type { Config } from '@netlify/functions';
import { MSG } from '../../src/lib/messages';
import { errorJson, json, readBytes, requireMethod, withErrors } from '../lib/http';
import { readPaymentsConfig } from '../lib/payments/config';
import { applyStripeEvent, verifyEvent } from '../lib/payments/webhook';

// Stripe events are small; the cap only keeps a flood from being buffered.
const WEBHOOK_BODY_LIMIT = 512 * 1024;

// POST /api/stripe-webhook — Stripe's signed events (PAYMENTS=stripe). The signature is checked over the
// raw body before anything is read from it; only then does an order move (see lib/payments/webhook.ts).
export default withErrors(async (req: Request) => {
  requireMethod(req, 'POST');
  const payments = readPaymentsConfig();
  if (payments.mode === 'demo') return errorJson(404, 'Stripe payments are not enabled on this site');
  if (payments.mode === 'misconfigured') {
    console.error(`[payments] webhook refused: ${payments.problem}`);
    return errorJson(503, MSG.paymentsUnavailable);
  }
  const event = verifyEvent(await readBytes(req, WEBHOOK_BODY_LIMIT), req.headers.get('stripe-signature'), payments.stripe);
  const outcome = await applyStripeEvent(event, payments.stripe);
  return json({ received: true, ...outcome });
}, { accepts: false }); // Stripe's servers post here: the signature, not the origin, proves the sender.

export const config: Config = { path: '/api/stripe-webhook' };
