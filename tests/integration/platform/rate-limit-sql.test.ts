import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations } from '../../../netlify/lib/db/migrations';
import { SqlRateLimiter } from '../../../netlify/lib/rate-limit';

/** The SQL limiter against the real migrations, on an embedded Postgres. */
let db: PGlite;

beforeAll(async () => {
  db = new PGlite();
  await applyMigrations({
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: (text, params) => db.query(text, params) as Promise<{ rows: Record<string, unknown>[] }>,
  });
});
afterAll(async () => {
  await db.close();
});

describe('SqlRateLimiter', () => {
  it('allows max hits per window per key, then refuses with a retry time', async () => {
    const limiter = new SqlRateLimiter(async (text, params) => (await db.query(text, params as unknown[])).rows as Record<string, unknown>[]);
    const key = `chat:test-${Math.random()}`;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit(key, 3, 600));
    expect(results.slice(0, 3)).toEqual([
      { allowed: true, retryAfter: 0 },
      { allowed: true, retryAfter: 0 },
      { allowed: true, retryAfter: 0 },
    ]);
    expect(results[3]!.allowed).toBe(false);
    expect(results[3]!.retryAfter).toBeGreaterThan(0);
    expect(results[3]!.retryAfter).toBeLessThanOrEqual(600);
    expect(await limiter.hit(`${key}-other`, 3, 600)).toEqual({ allowed: true, retryAfter: 0 });
  });

  it('counts a hit by its weight (the chat token budget)', async () => {
    const limiter = new SqlRateLimiter(async (text, params) => (await db.query(text, params as unknown[])).rows as Record<string, unknown>[]);
    const key = `budget:test-${Math.random()}`;
    expect((await limiter.hit(key, 100, 600, 60)).allowed).toBe(true);
    expect((await limiter.hit(key, 100, 600, 40)).allowed).toBe(true);
    expect((await limiter.hit(key, 100, 600, 1)).allowed).toBe(false);
  });
});
