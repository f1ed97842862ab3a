import { query } from '../db';
import { readMailTarget } from '../mail/transport';
import { RETRY } from '../outbox/backoff';
import { readNotifyConfig } from '../outbox/config';

/**
 * The outbox's state for /api/health. It raises the alert (`ok: false`: the public answer says "degraded") when a
 * delivery keeps failing (RETRY.alertAfterAttempts attempts and not sent), was given up within the last day, or
 * when due notices have waited a quarter of an hour (no worker is running: the scheduled function `outbox` runs only
 * on a published deploy). The operator's details say which, with the last error.
 */
export const STALLED_AFTER_MINUTES = 15;

export interface OutboxHealth {
  ok: boolean;
  problems: string[];
  pending: number;
  failing: number;
  dead: number;
  oldestDueAt: string | null;
  lastSentAt: string | null;
  /** The deliveries behind the alert (at most 10), newest attempt first. */
  alerts: { delivery: string; kind: string; channel: string; status: string; attempts: number; lastError: string | null; lastAttemptAt: string | null; nextAttemptAt: string | null }[];
  channels: { mail: 'smtp' | 'local-outbox'; ownerEmail: string[]; ownerEmailFrom: 'NOTIFY_EMAIL' | 'site'; webhook: 'off' | 'signed' | 'unsigned' };
}

interface Counts {
  pending: number;
  failing: number;
  dead: number;
  oldest_due: Date | null;
  last_sent: Date | null;
  stalled: boolean;
}

const ALERTING = `((d.status in ('pending', 'sending') and d.attempts >= $1) or (d.status = 'dead' and d.last_attempt_at > now() - make_interval(hours => $2)))`;

export async function outboxHealth(): Promise<OutboxHealth> {
  const config = readNotifyConfig();
  const [counts] = await query<Counts & Record<string, unknown>>(
    `select count(*) filter (where d.status in ('pending', 'sending'))::int as pending,
            count(*) filter (where d.status in ('pending', 'sending') and d.attempts >= $1)::int as failing,
            count(*) filter (where d.status = 'dead' and d.last_attempt_at > now() - make_interval(hours => $2))::int as dead,
            min(d.next_attempt_at) filter (where d.status = 'pending') as oldest_due,
            max(d.sent_at) as last_sent,
            coalesce(bool_or(d.status = 'pending' and d.next_attempt_at < now() - make_interval(mins => $3)), false) as stalled
       from outbox_deliveries d`,
    [RETRY.alertAfterAttempts, RETRY.alertWindowHours, STALLED_AFTER_MINUTES],
  );
  const alerts = await query<Record<string, unknown>>(
    `select d.id, e.kind, d.channel, d.status, d.attempts, d.last_error, d.last_attempt_at, d.next_attempt_at
       from outbox_deliveries d join outbox_events e on e.id = d.event_id
      where ${ALERTING} order by d.last_attempt_at desc nulls last limit 10`,
    [RETRY.alertAfterAttempts, RETRY.alertWindowHours],
  );
  const problems = [...config.problems];
  const c = counts!;
  if (c.failing) problems.push(`${c.failing} notice${c.failing === 1 ? ' keeps' : 's keep'} failing (${RETRY.alertAfterAttempts}+ attempts): see alerts and /admin/inbox#outbox`);
  if (c.dead) problems.push(`${c.dead} notice${c.dead === 1 ? ' was' : 's were'} given up after ${RETRY.giveUpAfterHours} h of retries in the last day: send again from /admin/inbox#outbox`);
  if (c.stalled) problems.push(`notices have waited over ${STALLED_AFTER_MINUTES} minutes: is the scheduled function "outbox" running (it runs on published deploys only)?`);
  const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : null);
  return {
    ok: !c.failing && !c.dead && !c.stalled,
    problems,
    pending: c.pending,
    failing: c.failing,
    dead: c.dead,
    oldestDueAt: iso(c.oldest_due),
    lastSentAt: iso(c.last_sent),
    alerts: alerts.map((a) => ({
      delivery: String(a.id), kind: String(a.kind), channel: String(a.channel), status: String(a.status), attempts: Number(a.attempts),
      lastError: (a.last_error as string | null) ?? null, lastAttemptAt: iso(a.last_attempt_at), nextAttemptAt: iso(a.next_attempt_at),
    })),
    channels: {
      mail: readMailTarget().kind === 'smtp' ? 'smtp' : 'local-outbox',
      ownerEmail: config.ownerEmails,
      ownerEmailFrom: config.ownerEmailSource,
      webhook: !config.webhook ? 'off' : config.webhook.key ? 'signed' : 'unsigned',
    },
  };
}
