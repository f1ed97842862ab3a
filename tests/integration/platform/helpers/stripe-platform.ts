import { afterAll, beforeAll, beforeEach } from 'vitest';
import { FakeStripe } from '../../../support/fake-stripe';
import { startEmbedded } from './backends';

/** The deploy's own address, as `npm start` sets it: Stripe's return pages point there. */
export const STRIPE_BASE = 'http://localhost:8888';
const STRIPE_ENV = ['PAYMENTS', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE', 'DEPLOY_URL'];

/**
 * PAYMENTS=stripe on the test file's own embedded platform: the official stripe library pointed at the local
 * stand-in (`FakeStripe`), its variables and the deploy's address set before each test and removed after the file.
 */
export function useStripePlatform(): FakeStripe {
  const stripe = new FakeStripe();
  let platform: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  beforeAll(async () => {
    platform = await startEmbedded();
    await stripe.start();
  });
  afterAll(async () => {
    for (const name of STRIPE_ENV) delete process.env[name];
    await stripe.stop();
    await platform?.stop();
  });
  beforeEach(() => {
    Object.assign(process.env, stripe.env(), { DEPLOY_URL: STRIPE_BASE });
  });
  return stripe;
}
