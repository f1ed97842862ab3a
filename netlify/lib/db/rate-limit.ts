import { query } from './index';

export interface RateLimitResult {
  allowed: boolean;
  /** Seconds until the window ends when refused; 0 when allowed. */
  retryAfter: number;
}

/** One hit on `key` in a fixed window: counted and decided in one SQL statement (hit_rate_limit). */
export async function hitRateLimit(key: string, limit: number, windowSeconds: number): Promise<RateLimitResult> {
  const [row] = await query<{ allowed: boolean; retry_after: number }>(
    'select allowed, retry_after from hit_rate_limit($1, $2, $3)',
    [key.slice(0, 300), limit, windowSeconds],
  );
  return { allowed: row!.allowed, retryAfter: row!.retry_after };
}
