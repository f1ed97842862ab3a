import { query } from '../db';
import { RETRY } from './backoff';
import type { Channel, EventKind } from './events';

/**
 * The outbox's rows in SQL: claiming due deliveries (FOR UPDATE SKIP LOCKED, then a lease), and recording an
 * outcome only under the claim that made it (its attempt number), so a worker whose lease ran out can never
 * overwrite the outcome of the one that took the delivery over. `now` is the worker's clock (tests move it).
 */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  channel: Channel;
  /** This attempt's number (1 for the first): the claim's fencing token. */
  attempt: number;
  retrySince: Date;
  kind: EventKind;
  ref: string;
  payload: Record<string, unknown>;
  eventCreatedAt: Date;
}

interface ClaimRow {
  id: string;
  event_id: string;
  channel: Channel;
  attempts: number;
  retry_since: Date;
  kind: EventKind;
  ref: string;
  payload: Record<string, unknown>;
  created_at: Date;
}

const toClaimed = (r: ClaimRow): ClaimedDelivery => ({
  id: r.id,
  eventId: r.event_id,
  channel: r.channel,
  attempt: r.attempts,
  retrySince: r.retry_since,
  kind: r.kind,
  ref: r.ref,
  payload: r.payload,
  eventCreatedAt: r.created_at,
});

/** Due: pending and its time has come, or `sending` under a lease that ran out (its worker died). */
const DUE = `((d.status = 'pending' and d.next_attempt_at <= $1) or (d.status = 'sending' and d.locked_until < $1))`;

function claimSql(where: string): string {
  return `with due as (
      select d.id from outbox_deliveries d where ${DUE} and ${where}
       order by d.next_attempt_at, d.created_at limit $2 for update skip locked
    ), claimed as (
      update outbox_deliveries d
         set status = 'sending', attempts = d.attempts + 1, last_attempt_at = $1,
             locked_until = $1::timestamptz + make_interval(secs => ${RETRY.leaseSeconds})
        from due where d.id = due.id
      returning d.id, d.event_id, d.channel, d.attempts, d.retry_since
    )
    select c.*, e.kind, e.ref, e.payload, e.created_at from claimed c join outbox_events e on e.id = c.event_id`;
}

/** Up to `limit` due deliveries, oldest first, now this worker's. */
export async function claimDue(now: Date, limit: number): Promise<ClaimedDelivery[]> {
  return (await query<ClaimRow & Record<string, unknown>>(claimSql('true'), [now, limit])).map(toClaimed);
}

/** The due deliveries of one event (on the given channels), for a delivery attempt right after the event. */
export async function claimEvent(eventId: string, channels: readonly Channel[], now: Date): Promise<ClaimedDelivery[]> {
  return (await query<ClaimRow & Record<string, unknown>>(claimSql('d.event_id = $3 and d.channel = any($4::text[])'), [now, channels.length, eventId, channels])).map(toClaimed);
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Sent (or written to the local outbox folder): `detail` says where. False when the claim was no longer ours. */
export async function recordSent(d: ClaimedDelivery, detail: string): Promise<boolean> {
  const rows = await query(
    `update outbox_deliveries set status = 'sent', sent_at = now(), locked_until = null, last_error = null, detail = $3
      where id = $1 and status = 'sending' and attempts = $2 returning id`,
    [d.id, d.attempt, clip(detail, 500)],
  );
  return rows.length > 0;
}

/** Nothing to send on this channel (not configured, no address, a daily limit): final, not an error. */
export async function recordSkipped(d: ClaimedDelivery, reason: string): Promise<boolean> {
  const rows = await query(
    `update outbox_deliveries set status = 'skipped', locked_until = null, detail = $3
      where id = $1 and status = 'sending' and attempts = $2 returning id`,
    [d.id, d.attempt, clip(reason, 500)],
  );
  return rows.length > 0;
}

/** A failed attempt: pending again at `next`, or `dead` when given up. */
export async function recordFailed(d: ClaimedDelivery, error: string, next: Date | null): Promise<boolean> {
  const rows = await query(
    `update outbox_deliveries
        set status = case when $4::timestamptz is null then 'dead' else 'pending' end,
            next_attempt_at = coalesce($4::timestamptz, next_attempt_at), locked_until = null, last_error = $3
      where id = $1 and status = 'sending' and attempts = $2 returning id`,
    [d.id, d.attempt, clip(error, 1000), next],
  );
  return rows.length > 0;
}

/** The team's "send again" (inbox): a failing or given-up delivery is due now, its retry clock restarted. */
export async function retryNow(deliveryId: string): Promise<boolean> {
  const rows = await query(
    `update outbox_deliveries set status = 'pending', attempts = 0, retry_since = now(), next_attempt_at = now(), locked_until = null
      where id = $1 and status in ('pending', 'dead') returning id`,
    [deliveryId],
  );
  return rows.length > 0;
}
