/**
 * How the outbox retries. A failed delivery waits 30 s, then twice as long after each further failure (1 min,
 * 2 min, … at most an hour), with ±20 % jitter so notices that failed together do not retry in step; a receiver's
 * Retry-After is honoured within the same hour. After five failed attempts (about a quarter of an hour) the delivery
 * raises the alert (`/api/health` says degraded); three days after its event it is given up (`dead`), still listed
 * in the inbox, where the team can send it again.
 */
export const RETRY = {
  firstDelaySeconds: 30,
  maxDelaySeconds: 3600,
  jitter: 0.2,
  alertAfterAttempts: 5,
  giveUpAfterHours: 72,
  /** A claimed delivery belongs to its worker this long: far beyond one send (SMTP ≤ 40 s, webhook ≤ 15 s). */
  leaseSeconds: 300,
  /** An alert clears this long after a given-up delivery's last attempt (or at once when it is sent again). */
  alertWindowHours: 24,
} as const;

/** Seconds to wait after failed attempt number `attempt` (1-based). */
export function retryDelaySeconds(attempt: number, retryAfterSeconds = 0, random: () => number = Math.random): number {
  const base = Math.min(RETRY.maxDelaySeconds, RETRY.firstDelaySeconds * 2 ** Math.max(0, attempt - 1));
  const jittered = base * (1 - RETRY.jitter + 2 * RETRY.jitter * random());
  return Math.round(Math.min(RETRY.maxDelaySeconds, Math.max(jittered, retryAfterSeconds)));
}

/** Whether a delivery retried since `retrySince` (its event, or the team's last "send again") is past retrying. */
export const pastGivingUp = (retrySince: Date, now: Date) => now.getTime() - retrySince.getTime() > RETRY.giveUpAfterHours * 3_600_000;
