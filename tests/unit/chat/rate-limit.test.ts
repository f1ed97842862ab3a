import { describe, expect, it, vi } from 'vitest';
import { FallbackRateLimiter, MemoryRateLimiter } from '../../../netlify/lib/chat/rate-limit';
import { clientKey } from '../../../netlify/lib/chat/client-key';

describe('MemoryRateLimiter', () => {
  it('counts per key in a fixed window and reports the wait', async () => {
    let now = 1_000_000;
    const limiter = new MemoryRateLimiter(() => now);
    expect(await limiter.hit('a', 2, 60)).toEqual({ allowed: true, retryAfter: 0 });
    expect(await limiter.hit('a', 2, 60)).toEqual({ allowed: true, retryAfter: 0 });
    now += 15_000;
    expect(await limiter.hit('a', 2, 60)).toEqual({ allowed: false, retryAfter: 45 });
    expect(await limiter.hit('b', 2, 60)).toEqual({ allowed: true, retryAfter: 0 });
    now += 45_000;
    expect(await limiter.hit('a', 2, 60)).toEqual({ allowed: true, retryAfter: 0 });
  });
});

describe('FallbackRateLimiter', () => {
  it('warns once and uses the fallback after the primary store fails', async () => {
    const warn = vi.fn();
    const primary = { hit: vi.fn().mockRejectedValue(new Error('connection refused')) };
    const limiter = new FallbackRateLimiter(primary, new MemoryRateLimiter(), warn);
    expect((await limiter.hit('k', 1, 60)).allowed).toBe(true);
    expect((await limiter.hit('k', 1, 60)).allowed).toBe(false);
    expect(primary.hit).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledOnce();
  });
});

describe('clientKey', () => {
  it('uses only the platform address, hashed, and never a request header', () => {
    const fromContext = clientKey({ ip: '198.51.100.1' });
    expect(fromContext).toMatch(/^chat:[0-9a-f]{32}$/);
    expect(fromContext).not.toContain('198.51.100.1');
    expect(clientKey({ ip: '198.51.100.2' })).not.toBe(fromContext);
    expect(clientKey(undefined)).toBe(clientKey({}));
  });
});
