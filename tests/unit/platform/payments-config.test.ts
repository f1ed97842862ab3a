import { describe, expect, it } from 'vitest';
import { paymentsHealth, readPaymentsConfig } from '../../../netlify/lib/payments/config';

const KEYS = { STRIPE_SECRET_KEY: 'sk_test_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };

describe('readPaymentsConfig', () => {
  it('is the demo checkout when nothing is set, or PAYMENTS is empty or demo', () => {
    expect(readPaymentsConfig({})).toEqual({ mode: 'demo' });
    expect(readPaymentsConfig({ PAYMENTS: '  ' })).toEqual({ mode: 'demo' });
    expect(readPaymentsConfig({ PAYMENTS: 'demo', ...KEYS })).toEqual({ mode: 'demo' });
  });

  it('must be named on a production deploy: PAYMENTS unset there is a misconfiguration, never free downloads', () => {
    expect(readPaymentsConfig({}, 'production')).toEqual({ mode: 'misconfigured', problem: expect.stringMatching(/^PAYMENTS is not set: a production deploy must say PAYMENTS=stripe .* or PAYMENTS=demo/) });
    expect(readPaymentsConfig({ PAYMENTS: ' ' }, 'production')).toMatchObject({ mode: 'misconfigured' });
    expect(readPaymentsConfig({ PAYMENTS: 'demo' }, 'production')).toEqual({ mode: 'demo' });
    expect(readPaymentsConfig({ PAYMENTS: 'stripe', ...KEYS }, 'production')).toMatchObject({ mode: 'stripe' });
    expect(readPaymentsConfig({}, 'deploy-preview')).toEqual({ mode: 'demo' });
  });

  it('is Stripe with both keys, on api.stripe.com unless STRIPE_API_BASE points elsewhere', () => {
    expect(readPaymentsConfig({ PAYMENTS: 'stripe', ...KEYS })).toEqual({
      mode: 'stripe',
      stripe: { secretKey: 'sk_test_abc123', webhookSecret: 'whsec_abc123', api: undefined },
    });
    const local = readPaymentsConfig({ PAYMENTS: 'stripe', ...KEYS, STRIPE_API_BASE: 'http://127.0.0.1:12111' });
    expect(local).toMatchObject({ stripe: { api: { host: '127.0.0.1', port: 12111, protocol: 'http' } } });
    const https = readPaymentsConfig({ PAYMENTS: 'stripe', ...KEYS, STRIPE_API_BASE: 'https://stripe.internal' });
    expect(https).toMatchObject({ stripe: { api: { host: 'stripe.internal', port: 443, protocol: 'https' } } });
  });

  it('names what is missing or wrong instead of throwing, and never echoes a key', () => {
    expect(readPaymentsConfig({ PAYMENTS: 'stripe' })).toEqual({
      mode: 'misconfigured',
      problem: 'PAYMENTS=stripe needs STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET (see .env.example); set them or use PAYMENTS=demo',
    });
    expect(readPaymentsConfig({ PAYMENTS: 'stripe', STRIPE_SECRET_KEY: KEYS.STRIPE_SECRET_KEY })).toMatchObject({
      problem: expect.stringMatching(/^PAYMENTS=stripe needs STRIPE_WEBHOOK_SECRET /),
    });
    const cases: [Record<string, string>, RegExp][] = [
      [{ PAYMENTS: 'paypal' }, /PAYMENTS must be "demo" or "stripe"/],
      [{ PAYMENTS: 'stripe', ...KEYS, STRIPE_SECRET_KEY: 'pk_live_publishable1' }, /STRIPE_SECRET_KEY must be a secret key/],
      [{ PAYMENTS: 'stripe', ...KEYS, STRIPE_WEBHOOK_SECRET: 'secret' }, /STRIPE_WEBHOOK_SECRET must be the endpoint signing secret/],
      [{ PAYMENTS: 'stripe', ...KEYS, STRIPE_API_BASE: 'ftp://x' }, /STRIPE_API_BASE must be an http\(s\) URL/],
    ];
    for (const [env, problem] of cases) {
      const config = readPaymentsConfig(env);
      expect(config).toMatchObject({ mode: 'misconfigured', problem: expect.stringMatching(problem) });
      expect(JSON.stringify(paymentsHealth(config))).not.toContain('pk_live_publishable1');
    }
  });

  it('takes live keys on the production deploy only; test keys and the demo everywhere', () => {
    const live = { PAYMENTS: 'stripe', STRIPE_SECRET_KEY: 'sk_live_abc123', STRIPE_WEBHOOK_SECRET: 'whsec_abc123' };
    expect(readPaymentsConfig(live, 'production')).toMatchObject({ mode: 'stripe', stripe: { secretKey: 'sk_live_abc123' } });
    for (const context of ['deploy-preview', 'branch-deploy', 'dev'] as const) {
      const refused = readPaymentsConfig(live, context);
      expect(refused).toMatchObject({ mode: 'misconfigured', liveKeyOutsideProduction: true, problem: expect.stringContaining(`refused on a ${context} deploy`) });
      expect(JSON.stringify(paymentsHealth(refused))).not.toContain('sk_live_abc123');
      expect(readPaymentsConfig({ ...live, STRIPE_SECRET_KEY: 'rk_live_abc123' }, context)).toMatchObject({ mode: 'misconfigured' });
      expect(readPaymentsConfig({ ...live, ...KEYS }, context)).toMatchObject({ mode: 'stripe' });
      expect(readPaymentsConfig({ ...live, PAYMENTS: 'demo' }, context)).toEqual({ mode: 'demo' });
    }
    // Without a context it is read from the deploy (CONTEXT here): not production.
    expect(readPaymentsConfig({ ...live, CONTEXT: 'deploy-preview' })).toMatchObject({ mode: 'misconfigured' });
    expect(readPaymentsConfig({ ...live, CONTEXT: 'production' })).toMatchObject({ mode: 'stripe' });
  });
});
