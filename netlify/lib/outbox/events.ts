import type { Queryable } from '../db';

/**
 * What the outbox carries: one event per thing that happened (its kind, the row it is about), each with a delivery
 * per channel. The channels of each kind are decided in SQL (`outbox_emit`, supabase/migrations/*_outbox_and_consent.sql),
 * where the payment triggers emit too; the server emits the forms' events in the transaction that stores the row.
 */
export const EVENT_KINDS = [
  'contact.message', 'lead.created', 'newsletter.confirm', 'newsletter.confirmed',
  'order.paid', 'order.refunded', 'order.disputed', 'order.item_refunded', 'job.failed_after_payment',
  'doubts.digest', 'package.link',
] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

/** The owner by e-mail, the owner's webhook, and the visitor or buyer the event is about. */
export const CHANNELS = ['owner-email', 'owner-webhook', 'visitor-email'] as const;
export type Channel = (typeof CHANNELS)[number];

/**
 * Writes an event and its deliveries in `tx`, once per `dedupeKey`: the event's id, or null when that key was
 * already emitted (a replayed request).
 */
export async function emitEvent(tx: Queryable, kind: EventKind, ref: string, dedupeKey: string, payload: Record<string, unknown> = {}): Promise<string | null> {
  const [row] = await tx.query<{ id: string | null }>('select outbox_emit($1, $2, $3, $4::jsonb) as id', [kind, ref, dedupeKey, JSON.stringify(payload)]);
  return row?.id ?? null;
}
