import { createHmac } from 'node:crypto';
import type { WebhookTarget } from '../outbox/config';

/**
 * The owner's webhook, as the Standard Webhooks specification (standardwebhooks.com, 1.0) asks a sender to sign:
 * `webhook-id` (the delivery's id, the same on every retry: the receiver's idempotency key), `webhook-timestamp`
 * (Unix seconds of this attempt: a receiver refuses one more than five minutes off, so a captured request cannot be
 * replayed later) and `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. The body is JSON
 * with the spec's `type`, `timestamp` and `data`, plus `text` (what a Slack incoming webhook, or Discord's
 * Slack-compatible `/slack` address, posts as it is) and `content` with `allowed_mentions` for Discord's own
 * webhook address, so a visitor's "@everyone" pings nobody.
 */
export interface WebhookBody {
  type: string;
  /** When the event happened (ISO 8601). */
  timestamp: string;
  data: Record<string, unknown>;
  text: string;
  content: string;
  allowed_mentions: { parse: never[] };
}

/** Discord takes at most 2,000 characters of `content`; Slack far more, but a notice is a summary. */
export const WEBHOOK_TEXT_MAX = 1900;
/** Within the spec's 15–30 s, and short enough for a scheduled function's 30 s. */
const TIMEOUT_MS = 15_000;

export function webhookSignature(key: Buffer, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/** Slack reads `&`, `<` and `>` as markup (links, mentions): a visitor's text shows them as written instead. */
export const slackEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function webhookBody(type: string, occurredAt: Date, text: string, data: Record<string, unknown>): WebhookBody {
  const short = text.length > WEBHOOK_TEXT_MAX ? `${text.slice(0, WEBHOOK_TEXT_MAX - 1)}…` : text;
  return { type, timestamp: occurredAt.toISOString(), data, text: slackEscape(short), content: short, allowed_mentions: { parse: [] } };
}

export type WebhookResult = { ok: true; status: number } | { ok: false; error: string; retryAfterSeconds?: number; gone?: boolean };

/**
 * One attempt. 2xx is delivered; anything else (a redirect is not followed), a timeout or a refused connection is
 * a failure the outbox retries, with the receiver's Retry-After; 410 Gone means the receiver wants no more.
 */
export async function postWebhook(target: WebhookTarget, id: string, body: WebhookBody, now: Date = new Date()): Promise<WebhookResult> {
  const text = JSON.stringify(body);
  const timestamp = Math.floor(now.getTime() / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'lumora-notify/1',
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
  };
  if (target.key) headers['webhook-signature'] = webhookSignature(target.key, id, timestamp, text);
  try {
    const res = await fetch(target.url, { method: 'POST', headers, body: text, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    const answer = (await res.text().catch(() => '')).slice(0, 200).replace(/\s+/g, ' ').trim();
    if (res.status >= 200 && res.status < 300) return { ok: true, status: res.status };
    const retryAfter = Number(res.headers.get('retry-after'));
    return {
      ok: false,
      error: `the webhook answered ${res.status}${answer ? `: ${answer}` : ''}`,
      ...(Number.isFinite(retryAfter) && retryAfter > 0 && { retryAfterSeconds: retryAfter }),
      ...(res.status === 410 && { gone: true }),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code;
    return { ok: false, error: `the webhook could not be reached: ${cause ?? (error as Error).message}` };
  }
}
