import { clientId } from '../client-identity';
import { enforceRateLimit } from '../rate-limit';
import { MSG } from '../../../src/lib/messages';

/**
 * Per-client limits of the CPU-heavy tool endpoints (fixed windows in the database, shared by every
 * function instance). Counted before an upload is read, inspected or decoded (that is the work limited), after
 * only the cheap checks of a small JSON body (its schema, the owner secret, the heal budget); a request the limit
 * refuses uses up nothing.
 */
export const TOOL_LIMITS = {
  image: { max: 40, windowSeconds: 600 },
  /** Re-renders of a finished image: colour hints and colour reference photos. */
  hints: { max: 60, windowSeconds: 600 },
  /** Heal brush re-renders: one per mark, undo or clear, so more of them than hints. */
  heal: { max: 120, windowSeconds: 600 },
  video: { max: 12, windowSeconds: 600 },
  /** The video tab's defaults for a chosen photo (a small copy: tone and faces), once per photo chosen. */
  defaults: { max: 60, windowSeconds: 600 },
  /** Signed upload grants (large files): each reserves a storage path, so a client cannot mint them in bulk. */
  upload: { max: 20, windowSeconds: 600 },
} as const;

export async function enforceToolLimit(kind: keyof typeof TOOL_LIMITS, context: unknown): Promise<void> {
  await enforceRateLimit({ key: `tool:${kind}:${clientId(context)}`, ...TOOL_LIMITS[kind] }, { message: MSG.tooManyRequests });
}
