import { describe, expect, it, vi } from 'vitest';
import { actualTokens, dayLimits, FallbackSpendStore, MemorySpendStore, type DayLimits, type SpendStore } from '../../../netlify/lib/chat/spend';

// The chat's day (netlify/lib/chat/spend.ts): dollars, tokens and requests per site and per client, all or
// nothing; and the store's fall-back when the database cannot be reached.
const limits: DayLimits = { site: { micros: 1_000, tokens: 1_000, requests: 10 }, client: { micros: 500, tokens: 500, requests: 5 } };

describe('MemorySpendStore', () => {
  it('refuses a request past any budget of the site or of the client, and books nothing for it', async () => {
    const store = new MemorySpendStore(() => 0);
    expect(await store.reserve('a', { micros: 0, tokens: 600 }, limits)).toEqual({ ok: false, refusedBy: 'client' });
    expect(await store.reserve('a', { micros: 0, tokens: 1_001 }, limits)).toEqual({ ok: false, refusedBy: 'site' });
    expect(await store.today()).toMatchObject({ tokens: 0, requests: 0, reservedMicros: 0 });
    const ok = await store.reserve('a', { micros: 100, tokens: 400 }, limits);
    expect(ok.ok).toBe(true);
    expect(await store.reserve('a', { micros: 0, tokens: 200 }, limits)).toEqual({ ok: false, refusedBy: 'client' });
    expect(await store.today()).toMatchObject({ tokens: 400, requests: 1, reservedMicros: 100 });
  });

  it('replaces the estimate by what the provider reported', async () => {
    const store = new MemorySpendStore(() => 0);
    const booked = await store.reserve('a', { micros: 300, tokens: 450 }, limits);
    if (!booked.ok) throw new Error('refused');
    await store.settle(booked.reservation, { micros: 20, tokens: 30 }, true);
    expect(await store.today()).toMatchObject({ spentMicros: 20, reservedMicros: 0, tokens: 30, requests: 1, replies: 1 });
    // The client's room came back with it.
    expect((await store.reserve('a', { micros: 300, tokens: 450 }, limits)).ok).toBe(true);
  });

  it('shares each budget by CHAT_CLIENT_SHARE, at least one request', () => {
    expect(dayLimits({ usd: 5, tokens: 4_000_000, requests: 5, clientShare: 0.1 })).toEqual({
      site: { micros: 5_000_000, tokens: 4_000_000, requests: 5 },
      client: { micros: 500_000, tokens: 400_000, requests: 1 },
    });
  });

  it('reads the reported tokens only when both counts are there', () => {
    expect(actualTokens({ prompt_tokens: 12, completion_tokens: 3 })).toBe(15);
    expect(actualTokens({ prompt_tokens: 12 })).toBeNull();
    expect(actualTokens(null)).toBeNull();
  });
});

describe('FallbackSpendStore', () => {
  function stores() {
    let now = 0;
    const database = new MemorySpendStore(() => now);
    let down = true;
    const primary: SpendStore = {
      reserve: vi.fn((...args: Parameters<SpendStore['reserve']>) => (down ? Promise.reject(new Error('connect ETIMEDOUT')) : database.reserve(...args))),
      settle: vi.fn((...args: Parameters<SpendStore['settle']>) => database.settle(...args)),
      today: vi.fn(() => (down ? Promise.reject(new Error('connect ETIMEDOUT')) : database.today())),
    };
    const memory = new MemorySpendStore(() => now);
    const warn = vi.fn();
    const store = new FallbackSpendStore(primary, memory, warn, () => now, 30_000);
    return { store, primary, database, memory, warn, tick: (ms: number) => (now += ms), up: () => (down = false) };
  }

  it('refuses a request that costs money while the database cannot be reached, and books a free one in memory', async () => {
    const { store, memory } = stores();
    expect(await store.reserve('a', { micros: 1, tokens: 10 }, limits)).toEqual({ ok: false, refusedBy: 'unavailable' });
    const free = await store.reserve('a', { micros: 0, tokens: 10 }, limits);
    expect(free).toMatchObject({ ok: true, reservation: { local: true } });
    if (!free.ok) throw new Error('refused');
    await store.settle(free.reservation, { micros: 0, tokens: 7 }, true);
    expect(await memory.today()).toMatchObject({ tokens: 7, replies: 1 });
    // Free requests are still held to the day, in memory.
    expect(await store.reserve('a', { micros: 0, tokens: 600 }, limits)).toEqual({ ok: false, refusedBy: 'client' });
  });

  it('asks the database again after the cool-down and counts there once it answers', async () => {
    const { store, primary, database, tick, up, warn } = stores();
    await store.reserve('a', { micros: 1, tokens: 10 }, limits);
    up();
    tick(29_999);
    expect(await store.reserve('a', { micros: 1, tokens: 10 }, limits)).toEqual({ ok: false, refusedBy: 'unavailable' });
    expect(primary.reserve).toHaveBeenCalledTimes(1);
    tick(1);
    const back = await store.reserve('a', { micros: 1, tokens: 10 }, limits);
    expect(back).toMatchObject({ ok: true });
    expect(back.ok && back.reservation.local).toBeFalsy();
    expect(await database.today()).toMatchObject({ requests: 1, reservedMicros: 1 });
    expect(warn.mock.calls.map(([line]) => String(line))).toEqual([expect.stringMatching(/spend store failed/), expect.stringMatching(/reachable again/)]);
  });
});
