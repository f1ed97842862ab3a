import Stripe from 'stripe';
import type { StripeSettings } from './config';

/**
 * The official Stripe client for these settings (one per key and host, reused across warm requests).
 * Retries are safe: every write passes an idempotency key.
 */
const clients = new Map<string, Stripe>();

export function stripeClient(settings: StripeSettings): Stripe {
  const key = `${settings.secretKey}@${settings.api ? `${settings.api.protocol}://${settings.api.host}:${settings.api.port}` : ''}`;
  let client = clients.get(key);
  if (!client) {
    client = new Stripe(settings.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'lumora-ai' },
      ...settings.api,
    });
    clients.set(key, client);
  }
  return client;
}

export { Stripe };
