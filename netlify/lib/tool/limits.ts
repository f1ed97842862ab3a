import { HttpError } from '../http';
import { clientId } from '../client-identity';
import { hitRateLimit } from '../db/rate-limit';
import { MSG } from '../../../src/lib/messages';

/**
 * Per-client limits of the CPU-heavy tool endpoints (fixed windows in the database, shared by every
 * function instance). Counted after validation, so a typo does not use up a buyer's allowance.
 */
export const TOOL_LIMITS = {
  image: { limit: 40, windowSeconds: 600 },
  /** Re-renders of a finished image: colour hints and colour reference photos. */
  hints: { limit: 60, windowSeconds: 600 },
  /** Heal brush re-renders: one per mark, undo or clear, so more of them than hints. */
  heal: { limit: 120, windowSeconds: 600 },
  video: { limit: 12, windowSeconds: 600 },
  /** Signed upload grants (large files): each reserves a storage path, so a client cannot mint them in bulk. */
  upload: { limit: 20, windowSeconds: 600 },
} as const;

export async function enforceToolLimit(kind: keyof typeof TOOL_LIMITS, context: unknown): Promise<void> {
  const { limit, windowSeconds } = TOOL_LIMITS[kind];
  const result = await hitRateLimit(`tool:${kind}:${clientId(context)}`, limit, windowSeconds);
  if (!result.allowed) throw new HttpError(429, MSG.tooManyRequests, { 'Retry-After': String(result.retryAfter) });
}
