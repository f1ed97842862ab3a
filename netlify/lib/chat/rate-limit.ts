/**
 * Per-client request limits. The SQL store (the `hit_rate_limit` function of supabase/migrations)
 * counts across all function instances; the in-memory store is for tests and for running without a
 * database. A broken store never blocks chat: it degrades to memory with a warning.
 */
export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the next request would be allowed; 0 when allowed. */
  retryAfter: number;
}

export interface RateLimiter {
  /** Counts `weight` (default 1) on `key` in a fixed window of `windowSeconds`; refused above `maxHits`. */
  hit(key: string, maxHits: number, windowSeconds: number, weight?: number): Promise<RateLimitResult>;
}

/** Fixed window per key, like the SQL function. */
export class MemoryRateLimiter implements RateLimiter {
  private windows = new Map<string, { start: number; hits: number }>();

  constructor(private now: () => number = Date.now) {}

  async hit(key: string, maxHits: number, windowSeconds: number, weight = 1): Promise<RateLimitResult> {
    const now = this.now();
    const windowMs = windowSeconds * 1000;
    let entry = this.windows.get(key);
    if (!entry || now - entry.start >= windowMs) {
      entry = { start: now, hits: 0 };
      this.windows.set(key, entry);
      this.sweep(now, windowMs);
    }
    entry.hits += weight;
    if (entry.hits > maxHits) {
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000)) };
    }
    return { allowed: true, retryAfter: 0 };
  }

  /** Drops expired windows so a long-lived instance does not grow without bound. */
  private sweep(now: number, windowMs: number) {
    if (this.windows.size < 10_000) return;
    for (const [key, entry] of this.windows) if (now - entry.start >= windowMs) this.windows.delete(key);
  }
}

/** Same shape as `query` of netlify/lib/db: rows of a parameterised statement. */
export type QueryFn = (text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;

export class SqlRateLimiter implements RateLimiter {
  constructor(private query: QueryFn) {}

  async hit(key: string, maxHits: number, windowSeconds: number, weight = 1): Promise<RateLimitResult> {
    const rows = await this.query('select allowed, retry_after from hit_rate_limit($1, $2, $3, $4)', [
      key,
      maxHits,
      windowSeconds,
      weight,
    ]);
    const row = rows[0];
    if (!row) throw new Error('hit_rate_limit returned no row');
    return { allowed: row.allowed === true, retryAfter: Math.max(0, Number(row.retry_after) || 0) };
  }
}

/** Uses `primary`; on any store error logs once and answers from `fallback` from then on. */
export class FallbackRateLimiter implements RateLimiter {
  private failed = false;

  constructor(
    private primary: RateLimiter,
    private fallback: RateLimiter,
    private warn: (message: string) => void = console.warn,
  ) {}

  async hit(key: string, maxHits: number, windowSeconds: number, weight = 1): Promise<RateLimitResult> {
    if (!this.failed) {
      try {
        return await this.primary.hit(key, maxHits, windowSeconds, weight);
      } catch (error) {
        this.failed = true;
        this.warn(`[chat] rate-limit store failed, using in-memory limits: ${(error as Error).message}`);
      }
    }
    return this.fallback.hit(key, maxHits, windowSeconds, weight);
  }
}

let shared: RateLimiter | null = null;

/** The limiter the deployed function uses: SQL when DATABASE_URL is set, memory otherwise. */
export function defaultRateLimiter(env: Record<string, string | undefined> = process.env): RateLimiter {
  if (shared) return shared;
  const memory = new MemoryRateLimiter();
  if (!env.DATABASE_URL) {
    console.warn('[chat] DATABASE_URL is not set: chat rate limits are kept in memory, per function instance.');
    shared = memory;
  } else {
    // Loaded lazily so the pg pool is only created when a database is configured.
    const query: QueryFn = async (text, params) => (await import('../db/index')).query(text, params);
    shared = new FallbackRateLimiter(new SqlRateLimiter(query), memory);
  }
  return shared;
}
