import { HttpError } from './http';

/**
 * The one rate limiter of every function (tool, forms, chat): fixed windows per key, counted and decided
 * in one SQL statement (`hit_rate_limit`, shared by every function instance). A hit may weigh more than
 * one (the chat's daily token budget). The in-memory store is for tests and for chat without a database.
 */
export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window ends when refused; 0 when allowed. */
  retryAfter: number;
}

export interface RateLimiter {
  /** Counts `weight` (default 1) on `key` in a fixed window of `windowSeconds`; refused above `max`. */
  hit(key: string, max: number, windowSeconds: number, weight?: number): Promise<RateLimitResult>;
  /** Gives back `weight` hits counted in the current window for work that never happened (best effort). */
  refund?(key: string, windowSeconds: number, weight?: number): Promise<void>;
}

/** One limit: `max` per `windowSeconds` on `key`; this request counts `weight` (default 1). */
export interface RateRule {
  key: string;
  max: number;
  windowSeconds: number;
  weight?: number;
}

/** Same shape as `query` of netlify/lib/db: rows of a parameterised statement. */
export type QueryFn = (text: string, params?: readonly unknown[]) => Promise<Record<string, unknown>[]>;

// Loaded lazily so a function that never limits (or chat without DATABASE_URL) does not load the pg pool.
const dbQuery: QueryFn = async (text, params) => (await import('./db/index')).query(text, params);

export class SqlRateLimiter implements RateLimiter {
  constructor(private query: QueryFn = dbQuery) {}

  async hit(key: string, max: number, windowSeconds: number, weight = 1): Promise<RateLimitResult> {
    const rows = await this.query('select allowed, retry_after from hit_rate_limit($1, $2, $3, $4)', [
      key.slice(0, 300),
      max,
      windowSeconds,
      weight,
    ]);
    const row = rows[0];
    if (!row) throw new Error('hit_rate_limit returned no row');
    return { allowed: row.allowed === true, retryAfter: Math.max(0, Number(row.retry_after) || 0) };
  }

  async refund(key: string, windowSeconds: number, weight = 1): Promise<void> {
    await this.query('select refund_rate_limit($1, $2, $3)', [key.slice(0, 300), windowSeconds, weight]);
  }
}

/** Fixed window per key, like the SQL function. */
export class MemoryRateLimiter implements RateLimiter {
  private windows = new Map<string, { start: number; hits: number }>();

  constructor(private now: () => number = Date.now) {}

  async hit(key: string, max: number, windowSeconds: number, weight = 1): Promise<RateLimitResult> {
    const now = this.now();
    const windowMs = windowSeconds * 1000;
    let entry = this.windows.get(key);
    if (!entry || now - entry.start >= windowMs) {
      entry = { start: now, hits: 0 };
      this.windows.set(key, entry);
      this.sweep(now, windowMs);
    }
    entry.hits += weight;
    if (entry.hits > max) {
      return { allowed: false, retryAfter: Math.max(1, Math.ceil((entry.start + windowMs - now) / 1000)) };
    }
    return { allowed: true, retryAfter: 0 };
  }

  async refund(key: string, windowSeconds: number, weight = 1): Promise<void> {
    const entry = this.windows.get(key);
    if (entry && this.now() - entry.start < windowSeconds * 1000) entry.hits = Math.max(0, entry.hits - weight);
  }

  /** Drops expired windows so a long-lived instance does not grow without bound. */
  private sweep(now: number, windowMs: number) {
    if (this.windows.size < 10_000) return;
    for (const [key, entry] of this.windows) if (now - entry.start >= windowMs) this.windows.delete(key);
  }
}

/** How long a limiter stays in memory after a database error before asking the database again. */
export const LIMITER_COOL_DOWN_MS = 30_000;

/**
 * Uses `primary`; after a store error, answers from `fallback` for a cool-down (LIMITER_COOL_DOWN_MS), then
 * asks `primary` again and goes back to it as soon as it answers: a database that was unreachable for a
 * moment does not leave each instance counting alone for good.
 */
export class FallbackRateLimiter implements RateLimiter {
  private failedAt: number | null = null;

  constructor(
    private primary: RateLimiter,
    private fallback: RateLimiter,
    private warn: (message: string) => void = console.warn,
    private now: () => number = Date.now,
    private coolDownMs: number = LIMITER_COOL_DOWN_MS,
  ) {}

  async hit(key: string, max: number, windowSeconds: number, weight = 1): Promise<RateLimitResult> {
    if (this.failedAt === null || this.now() - this.failedAt >= this.coolDownMs) {
      try {
        const result = await this.primary.hit(key, max, windowSeconds, weight);
        if (this.failedAt !== null) this.warn('[rate-limit] store reachable again: counting in the database');
        this.failedAt = null;
        return result;
      } catch (error) {
        if (this.failedAt === null) this.warn(`[rate-limit] store failed, using in-memory limits; the database is asked again every ${this.coolDownMs / 1000} s: ${(error as Error).message}`);
        this.failedAt = this.now();
      }
    }
    return this.fallback.hit(key, max, windowSeconds, weight);
  }

  async refund(key: string, windowSeconds: number, weight = 1): Promise<void> {
    // Given back where it was counted: in memory during a cool-down, else in the database.
    const store = this.failedAt !== null && this.now() - this.failedAt < this.coolDownMs ? this.fallback : this.primary;
    await store.refund?.(key, windowSeconds, weight).catch(() => {});
  }
}

/** The database store, for functions that need the database anyway (tool, forms): a store error is theirs. */
export const databaseRateLimiter: RateLimiter = new SqlRateLimiter();

let lenient: RateLimiter | null = null;

/**
 * The store of a function that must keep working without a database (chat): SQL when DATABASE_URL is
 * set, falling back to memory for a cool-down whenever that store fails; memory alone (per instance) without
 * DATABASE_URL.
 */
export function lenientRateLimiter(env: Record<string, string | undefined> = process.env): RateLimiter {
  if (lenient) return lenient;
  const memory = new MemoryRateLimiter();
  if (!env.DATABASE_URL) {
    console.warn('[rate-limit] DATABASE_URL is not set: rate limits are kept in memory, per function instance.');
    lenient = memory;
  } else {
    lenient = new FallbackRateLimiter(new SqlRateLimiter(), memory);
  }
  return lenient;
}

/**
 * Counts the rules in order and stops at the first one spent, so a refused request does not use up the
 * later ones. Null when every rule allowed it, else the refusal.
 */
export async function firstRefusal(limiter: RateLimiter, rules: readonly RateRule[]): Promise<RateLimitResult | null> {
  for (const { key, max, windowSeconds, weight } of rules) {
    const result = await limiter.hit(key, max, windowSeconds, weight);
    if (!result.allowed) return result;
  }
  return null;
}

export interface LimitRefusal {
  /** The text the client sees (from src/lib/messages.ts or a domain's table), given the wait in seconds. */
  message: string | ((retryAfterSeconds: number) => string);
  /** 429 for a client over its own limit (default); 503 for a site-wide budget spent. */
  status?: number;
}

/** Counts `rules` (see firstRefusal); throws an HttpError with Retry-After when one is spent. */
export async function enforceRateLimit(
  rules: RateRule | readonly RateRule[],
  refusal: LimitRefusal,
  limiter: RateLimiter = databaseRateLimiter,
): Promise<void> {
  const refused = await firstRefusal(limiter, Array.isArray(rules) ? rules : [rules as RateRule]);
  if (!refused) return;
  const { message, status = 429 } = refusal;
  const text = typeof message === 'function' ? message(refused.retryAfter) : message;
  throw new HttpError(status, text, { 'Retry-After': String(refused.retryAfter) });
}

/** The longest window any rule uses (the daily budgets). */
export const LONGEST_WINDOW_SECONDS = 86_400;

/**
 * Deletes the rows of windows that ended long ago (started before twice the longest window), so the table
 * holds about one row per active key instead of one per key ever seen. Run by the scheduled maintenance.
 */
export async function pruneRateLimits(query: QueryFn = dbQuery): Promise<number> {
  const rows = await query(
    `with gone as (delete from rate_limits where window_start < now() - make_interval(secs => $1::int) returning 1)
     select count(*)::int as n from gone`,
    [2 * LONGEST_WINDOW_SECONDS],
  );
  return Number(rows[0]?.n ?? 0);
}
