import { describe, expect, it, vi } from 'vitest';
import { HttpError } from '../../../netlify/lib/http';
import { enforceRateLimit, FallbackRateLimiter, firstRefusal, MemoryRateLimiter } from '../../../netlify/lib/rate-limit';

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

  it('counts a hit by its weight', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    expect((await limiter.hit('t', 100, 60, 60)).allowed).toBe(true);
    expect((await limiter.hit('t', 100, 60, 60)).allowed).toBe(false);
  });
});

describe('FallbackRateLimiter', () => {
  it('warns once and uses the fallback during the cool-down after the primary store fails', async () => {
    const warn = vi.fn();
    const primary = { hit: vi.fn().mockRejectedValue(new Error('connection refused')) };
    const limiter = new FallbackRateLimiter(primary, new MemoryRateLimiter(), warn, () => 0);
    expect((await limiter.hit('k', 1, 60)).allowed).toBe(true);
    expect((await limiter.hit('k', 1, 60)).allowed).toBe(false);
    expect(primary.hit).toHaveBeenCalledOnce();
    expect(warn).toHaveBeenCalledOnce();
  });

  it('asks the primary store again after the cool-down, and stays with it once it answers', async () => {
    let now = 0;
    const warn = vi.fn();
    const primary = { hit: vi.fn().mockRejectedValueOnce(new Error('connection refused')).mockRejectedValueOnce(new Error('still down')) };
    primary.hit.mockResolvedValue({ allowed: true, retryAfter: 0 });
    const limiter = new FallbackRateLimiter(primary, new MemoryRateLimiter(() => now), warn, () => now, 30_000);
    await limiter.hit('k', 5, 60);
    now = 29_999;
    await limiter.hit('k', 5, 60);
    expect(primary.hit).toHaveBeenCalledTimes(1);
    now = 30_000;
    await limiter.hit('k', 5, 60); // still down: a fresh cool-down
    now = 59_999;
    await limiter.hit('k', 5, 60);
    expect(primary.hit).toHaveBeenCalledTimes(2);
    now = 60_000;
    expect(await limiter.hit('k', 5, 60)).toEqual({ allowed: true, retryAfter: 0 });
    await limiter.hit('k', 5, 60);
    expect(primary.hit).toHaveBeenCalledTimes(4);
    expect(warn.mock.calls.map(([line]) => String(line))).toEqual([expect.stringMatching(/store failed/), expect.stringMatching(/reachable again/)]);
  });
});

describe('firstRefusal', () => {
  it('stops at the first spent rule, so later budgets are not charged', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    const rules = [
      { key: 'requests', max: 1, windowSeconds: 60 },
      { key: 'tokens', max: 10, windowSeconds: 60, weight: 4 },
    ];
    expect(await firstRefusal(limiter, rules)).toBeNull();
    expect(await firstRefusal(limiter, rules)).toEqual({ allowed: false, retryAfter: 60 });
    // Only the first request's 4 tokens were counted: 6 more still fit.
    expect((await limiter.hit('tokens', 10, 60, 6)).allowed).toBe(true);
  });
});

describe('enforceRateLimit', () => {
  const rule = { key: 'k', max: 1, windowSeconds: 90 };

  it('lets the request through, then throws 429 with Retry-After and the given text', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    await expect(enforceRateLimit(rule, { message: 'Slow down' }, limiter)).resolves.toBeUndefined();
    const error = await enforceRateLimit(rule, { message: 'Slow down' }, limiter).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 429, message: 'Slow down', headers: { 'Retry-After': '90' } });
  });

  it('takes a status and a message built from the wait', async () => {
    const limiter = new MemoryRateLimiter(() => 0);
    await enforceRateLimit(rule, { message: 'x' }, limiter);
    const error = await enforceRateLimit(rule, { message: (s) => `wait ${s}s`, status: 503 }, limiter).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, message: 'wait 90s' });
  });
});
