import { z } from 'zod';
import { currentDeployContext } from '../running-deploy';
import type { DeployContext } from '../../../src/lib/deploy-context';

/**
 * Which checkout the site runs: `demo` (a recorded demonstration payment, nothing charged; the default
 * everywhere but production) or `stripe` (Stripe Checkout; paid only on the verified webhook). A production
 * deploy must name its mode: there, PAYMENTS unset would give every buyer free downloads by mistake. Read from the environment on each
 * request, so a key added in the Netlify UI takes effect without a redeploy. A wrong setting never stops
 * the site: it becomes `misconfigured` with a message naming the variables, shown by /api/health and
 * answered as 503 by the checkout, so nothing is sold for free by mistake. Live keys work on the production
 * deploy only: a preview or branch deploy shares the site's variables unless the operator scopes them, and
 * must never charge a card.
 */
export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API host (the tests' local stand-in); unset = api.stripe.com. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
}

export type PaymentsConfig =
  | { mode: 'demo' }
  | { mode: 'stripe'; stripe: StripeSettings }
  | { mode: 'misconfigured'; problem: string; liveKeyOutsideProduction?: true };

// An empty variable (as .env.example leaves them) means unset.
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.trim() || undefined : v), schema.optional());

export const paymentsEnvSchema = z.object({
  PAYMENTS: optional(z.enum(['demo', 'stripe'], { error: 'PAYMENTS must be "demo" or "stripe"' })),
  STRIPE_SECRET_KEY: optional(
    z.string().regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]+$/, 'STRIPE_SECRET_KEY must be a secret key (sk_live_…, sk_test_…) or a restricted key (rk_…)'),
  ),
  STRIPE_WEBHOOK_SECRET: optional(
    z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/, 'STRIPE_WEBHOOK_SECRET must be the endpoint signing secret (whsec_…)'),
  ),
  STRIPE_API_BASE: optional(z.url({ protocol: /^https?$/, error: 'STRIPE_API_BASE must be an http(s) URL' })),
});

type Env = Record<string, string | undefined>;

export function readPaymentsConfig(env: Env = process.env, context: DeployContext = currentDeployContext(env)): PaymentsConfig {
  const parsed = paymentsEnvSchema.safeParse(env);
  if (!parsed.success) return { mode: 'misconfigured', problem: parsed.error.issues.map((i) => i.message).join('; ') };
  const { PAYMENTS, STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_API_BASE } = parsed.data;
  if (!PAYMENTS && context === 'production') {
    return {
      mode: 'misconfigured',
      problem: 'PAYMENTS is not set: a production deploy must say PAYMENTS=stripe (real payments, with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET) or PAYMENTS=demo (the demonstration checkout, nothing charged) in its environment variables',
    };
  }
  if (PAYMENTS !== 'stripe') return { mode: 'demo' };
  const missing = [!STRIPE_SECRET_KEY && 'STRIPE_SECRET_KEY', !STRIPE_WEBHOOK_SECRET && 'STRIPE_WEBHOOK_SECRET'].filter(Boolean);
  if (missing.length > 0) {
    return {
      mode: 'misconfigured',
      problem: `PAYMENTS=stripe needs ${missing.join(' and ')} (see .env.example); set ${missing.length > 1 ? 'them' : 'it'} or use PAYMENTS=demo`,
    };
  }
  if (context !== 'production' && /^(sk|rk)_live_/.test(STRIPE_SECRET_KEY!)) {
    return {
      mode: 'misconfigured',
      liveKeyOutsideProduction: true,
      problem: `Live Stripe keys are refused on a ${context} deploy (real cards must only be charged in production): give this context a test key (sk_test_…) and its webhook secret in Netlify's environment variables, or PAYMENTS=demo`,
    };
  }
  return { mode: 'stripe', stripe: { secretKey: STRIPE_SECRET_KEY!, webhookSecret: STRIPE_WEBHOOK_SECRET!, api: apiAddress(STRIPE_API_BASE) } };
}

function apiAddress(base: string | undefined): StripeSettings['api'] {
  if (!base) return undefined;
  const url = new URL(base);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: Number(url.port) || (protocol === 'http' ? 80 : 443), protocol };
}

/** What /api/health shows: the active mode, and what is wrong when Stripe is selected but not usable. */
export function paymentsHealth(config: PaymentsConfig = readPaymentsConfig()): { mode: PaymentsConfig['mode']; problem?: string } {
  return config.mode === 'misconfigured' ? { mode: config.mode, problem: config.problem } : { mode: config.mode };
}
