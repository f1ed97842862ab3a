import { site } from '../../../src/lib/site';
import { query } from '../db';
import { withinMailLimits } from '../mail/limits';
import { deliver, readMailTarget, type MailTarget } from '../mail/transport';
import { deployOrigin } from '../running-deploy';
import { pastGivingUp, retryDelaySeconds } from '../outbox/backoff';
import { readNotifyConfig, type NotifyConfig } from '../outbox/config';
import type { Channel } from '../outbox/events';
import { composeDelivery } from './notices';
import { claimDue, claimEvent, recordFailed, recordSent, recordSkipped, type ClaimedDelivery } from '../outbox/store';
import { postWebhook } from './webhook';

/**
 * The outbox's worker: claims due deliveries, sends each (SMTP or the local outbox folder, or the webhook),
 * records the outcome, and schedules a failed one again with backoff (backoff.ts). Run by the scheduled function
 * `outbox` every minute (an interval under `npm start`, scripts/platform/server.ts), and right after an event by the
 * request that made it (`deliverSoon`), so a notice usually leaves within a second and at worst on the next pass.
 */
export type DeliveryOutcome = 'sent' | 'skipped' | 'failed' | 'dead' | 'lost-claim';

export interface OutboxDeps {
  /** The worker's clock for claims and retries (tests move it forward); links and signatures use the real time. */
  now?: Date;
  mailTarget?: MailTarget;
  config?: NotifyConfig;
}

interface Resolved {
  now: Date;
  mailTarget: MailTarget;
  config: NotifyConfig;
  origin: string;
}

const resolve = (deps: OutboxDeps): Resolved => ({
  now: deps.now ?? new Date(),
  mailTarget: deps.mailTarget ?? readMailTarget(),
  config: deps.config ?? readNotifyConfig(),
  origin: deployOrigin() ?? new URL(site.url).origin,
});

const describeError = (error: unknown) => {
  const e = error as { message?: string; code?: string; responseCode?: number };
  return [e.code, e.responseCode, e.message].filter(Boolean).join(' ') || String(error);
};

/** Sends one claimed delivery and records what happened; never throws. */
export async function performDelivery(d: ClaimedDelivery, r: Resolved): Promise<DeliveryOutcome> {
  const failed = async (error: string, retryAfterSeconds = 0, giveUp = false): Promise<DeliveryOutcome> => {
    const dead = giveUp || pastGivingUp(d.retrySince, r.now);
    const next = dead ? null : new Date(r.now.getTime() + retryDelaySeconds(d.attempt, retryAfterSeconds) * 1000);
    console.warn(`[outbox] ${d.kind} ${d.channel} (delivery ${d.id}, attempt ${d.attempt}) failed: ${error}${dead ? ' — given up' : ''}`);
    return (await recordFailed(d, error, next)) ? (dead ? 'dead' : 'failed') : 'lost-claim';
  };
  try {
    const composed = await composeDelivery(d, { config: r.config, origin: r.origin, now: new Date() });
    if (composed.kind === 'skip') return (await recordSkipped(d, composed.reason)) ? 'skipped' : 'lost-claim';
    if (composed.kind === 'webhook') {
      const result = await postWebhook(r.config.webhook!, d.id, composed.body);
      if (!result.ok) return failed(result.error, result.retryAfterSeconds, result.gone);
      return (await recordSent(d, `webhook answered ${result.status}`)) ? 'sent' : 'lost-claim';
    }
    // A visitor's address counts against the daily mail limits once per delivery, on its first attempt.
    if (composed.limit && d.attempt === 1 && !(await withinMailLimits(composed.limit.recipient, composed.limit.purpose))) {
      await composed.onResult?.('limited');
      return (await recordSkipped(d, 'limited: a daily mail limit is reached')) ? 'skipped' : 'lost-claim';
    }
    let delivery;
    try {
      delivery = await deliver(composed.message, r.mailTarget);
    } catch (error) {
      await composed.onResult?.('failed');
      return failed(describeError(error));
    }
    await composed.onResult?.(delivery.status);
    const detail = delivery.status === 'sent' ? `smtp ${delivery.messageId}` : `saved ${delivery.file}`;
    if (delivery.status === 'saved') console.log(`[outbox] ${d.kind} → ${d.channel}: no SMTP_URL/MAIL_FROM, saved to ${delivery.file}`);
    return (await recordSent(d, detail)) ? 'sent' : 'lost-claim';
  } catch (error) {
    return failed(describeError(error));
  }
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function pool<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  }));
  return results;
}

export interface OutboxPass {
  sent: number;
  skipped: number;
  failed: number;
  dead: number;
  digests: number;
  pruned: number;
}

export interface PassOptions extends OutboxDeps {
  /** Stop claiming after this long (a scheduled function has 30 s); what is claimed is still sent. */
  budgetMs?: number;
  batchSize?: number;
  concurrency?: number;
}

/** Finished events and used sign-in links are kept this long, for the inbox's history. */
export const OUTBOX_RETENTION_DAYS = 90;

/** One pass: the day's digest when due, then due deliveries until none is left or the budget is spent. */
export async function runOutbox(options: PassOptions = {}): Promise<OutboxPass> {
  const r = resolve(options);
  const { budgetMs = 20_000, batchSize = 20, concurrency = 4 } = options;
  const started = Date.now();
  const pass: OutboxPass = { sent: 0, skipped: 0, failed: 0, dead: 0, digests: 0, pruned: 0 };
  const [digest] = await query<{ id: string | null }>('select outbox_digest_doubts($1) as id', [r.now]);
  if (digest?.id) pass.digests++;
  pass.pruned = await prune(r.now);
  while (Date.now() - started < budgetMs) {
    const claimed = await claimDue(r.now, batchSize);
    if (!claimed.length) break;
    for (const outcome of await pool(claimed, concurrency, (d) => performDelivery(d, r))) {
      if (outcome !== 'lost-claim') pass[outcome]++;
    }
  }
  return pass;
}

async function prune(now: Date): Promise<number> {
  const events = await query(
    `delete from outbox_events e where e.created_at < $1::timestamptz - make_interval(days => $2)
        and not exists (select 1 from outbox_deliveries d where d.event_id = e.id and d.status in ('pending', 'sending'))
      returning e.id`,
    [now, OUTBOX_RETENTION_DAYS],
  );
  const signIns = await query(`delete from operator_sign_ins where created_at < $1::timestamptz - interval '1 day' returning token_hash`, [now]);
  return events.length + signIns.length;
}

/** Sends one event's due deliveries now (on `channels`), as far as nobody else holds them; their outcomes. */
export async function deliverEvent(eventId: string, channels: readonly Channel[] = ['owner-email', 'owner-webhook', 'visitor-email'], deps: OutboxDeps = {}): Promise<DeliveryOutcome[]> {
  const r = resolve(deps);
  const claimed = await claimEvent(eventId, channels, r.now);
  return Promise.all(claimed.map((d) => performDelivery(d, r)));
}

/**
 * After the request's answer, sends its events at once where the platform lets work outlive the answer
 * (Netlify's `context.waitUntil`, which `npm start` runs too); elsewhere the next worker pass sends them.
 */
export function deliverSoon(context: unknown, eventIds: readonly (string | null)[]): void {
  const waitUntil = (context as { waitUntil?: (p: Promise<unknown>) => void } | undefined)?.waitUntil;
  const ids = eventIds.filter((id): id is string => !!id);
  if (typeof waitUntil !== 'function' || !ids.length) return;
  waitUntil.call(context, Promise.all(ids.map((id) => deliverEvent(id))).catch((error: unknown) => console.error('[outbox] immediate delivery failed:', describeError(error))));
}
