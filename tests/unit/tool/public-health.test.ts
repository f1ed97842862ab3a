import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicHealth } from '../../../src/lib/health';

// The tool page reads /api/health's public answer (no secret): whether videos can be made and the payment mode.
afterEach(() => {
  vi.unstubAllGlobals();
  vi.resetModules();
});

async function withHealth(answer: unknown, status = 200) {
  const fetchMock = vi.fn(async () => Response.json(answer, { status }));
  vi.stubGlobal('fetch', fetchMock);
  const api = await import('../../../src/lib/tool/api');
  return { api, fetchMock };
}

describe('the tool page and the public health answer', () => {
  it('reads video availability and the payment mode from one request', async () => {
    const { api, fetchMock } = await withHealth({ ok: true, status: 'ok', video: { available: false }, payments: { mode: 'stripe' } } satisfies PublicHealth);
    await expect(api.checkVideoAvailability()).resolves.toBe('unavailable');
    await expect(api.paymentMode()).resolves.toBe('stripe');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock).toHaveBeenCalledWith('/api/health', { cache: 'no-store' });
  });

  it('still reads them when the site answers 503 (unwell), and assumes videos work when nothing is known', async () => {
    const unwell = await withHealth({ ok: false, status: 'down', video: { available: true }, payments: { mode: 'misconfigured' } } satisfies PublicHealth, 503);
    await expect(unwell.api.paymentMode()).resolves.toBe('misconfigured');
    vi.resetModules();
    const broken = await withHealth('not json at all', 500);
    await expect(broken.api.checkVideoAvailability()).resolves.toBe('available');
    await expect(broken.api.paymentMode()).resolves.toBeNull();
  });

  it('a 200 answer of another shape than the public health schema counts as no answer', async () => {
    const odd = await withHealth({ ok: true, status: 'ok', video: { available: 'no' }, payments: { mode: 'paypal' } });
    await expect(odd.api.checkVideoAvailability()).resolves.toBe('available');
    await expect(odd.api.paymentMode()).resolves.toBeNull();
  });
});
