import { DatabaseNotConfiguredError } from './index';

/**
 * SQL functions raise their business errors with SQLSTATEs of class LU (see supabase/migrations): the
 * last three digits are the HTTP status, the message is safe to show.
 */
const STATUS_BY_SQLSTATE: Record<string, number> = { LU400: 400, LU404: 404, LU409: 409 };

export interface DbErrorAnswer {
  status: number;
  message: string;
}

export function dbErrorAnswer(error: unknown): DbErrorAnswer | null {
  if (error instanceof DatabaseNotConfiguredError) return { status: 503, message: error.message };
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code in STATUS_BY_SQLSTATE) {
    return { status: STATUS_BY_SQLSTATE[code]!, message: (error as Error).message };
  }
  // A unique index beat a concurrent request (e.g. one item sold once): a conflict, not a server fault.
  if (code === '23505') return { status: 409, message: 'This request conflicts with another one that just completed. Please refresh and try again.' };
  return null;
}
