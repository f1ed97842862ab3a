import { simpleParser, type ParsedMail } from 'mailparser';
import getPort from 'get-port';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import contact from '../../../netlify/functions/contact.mts';
import leads from '../../../netlify/functions/leads.mts';
import newsletter from '../../../netlify/functions/newsletter.mts';
import { query } from '../../../netlify/lib/db';
import { startSmtpSink, type ReceivedMail } from '../../support/smtp-sink';
import { startEmbedded } from '../platform/helpers/backends';

/** The outbox's tests: the site's address, a fresh client per request, form posts, parsed mail, a test clock. */
export const BASE = 'http://localhost:8888';
export const SITE = 'https://shop.lumora.test';
export const OWNER = 'owner@lumora.test';

let nextClient = Math.floor(Math.random() * 2 ** 20);
/** A fresh client address per call (each its own rate-limit identity). */
export const client = () => {
  const n = nextClient++;
  return { ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
};

type Handler = typeof contact;
const post = (handler: Handler, path: string, body: unknown, ctx: object = client()) =>
  handler(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), ctx as never);

export const sendContact = (body: object, ctx?: object) => post(contact, '/api/contact', body, ctx);
export const sendLead = (body: object, ctx?: object) => post(leads, '/api/leads', body, ctx);
export const sendNewsletter = (body: object, ctx?: object) => post(newsletter, '/api/newsletter', body, ctx);

/** The environment the outbox reads, set for a test file and put back after it. */
export function outboxEnv(extra: Record<string, string> = {}): { apply(): void; restore(): void } {
  const names = ['URL', 'DEPLOY_URL', 'SMTP_URL', 'MAIL_FROM', 'NOTIFY_EMAIL', 'NOTIFY_WEBHOOK_URL', 'NOTIFY_WEBHOOK_SECRET', 'MAIL_DAILY_LIMIT', ...Object.keys(extra)];
  const saved = Object.fromEntries(names.map((n) => [n, process.env[n]]));
  return {
    apply() {
      for (const n of names) delete process.env[n];
      Object.assign(process.env, { URL: SITE, MAIL_FROM: 'Lumora AI <notify@lumora.test>', NOTIFY_EMAIL: OWNER, MAIL_DAILY_LIMIT: '1000', ...extra });
    },
    restore() {
      for (const [n, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[n];
        else process.env[n] = v;
      }
    },
  };
}

/**
 * The test file's platform: its own embedded database, a real SMTP server on loopback that the site sends to, the
 * outbox's environment (plus `extra`), and no delivery of an earlier test left waiting before each test.
 */
export function useOutboxPlatform(extra: Record<string, string> = {}): { sink: () => Awaited<ReturnType<typeof startSmtpSink>> } {
  const env = outboxEnv(extra);
  let platform: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  let sink: Awaited<ReturnType<typeof startSmtpSink>> | undefined;
  beforeAll(async () => {
    platform = await startEmbedded();
    sink = await startSmtpSink();
    env.apply();
  });
  afterAll(async () => {
    env.restore();
    await sink?.stop();
    await platform?.stop();
  });
  beforeEach(async () => {
    process.env.SMTP_URL = sink!.url;
    await clearOutbox();
  });
  return { sink: () => sink! };
}

/** Leaves no delivery of an earlier test waiting, so each test counts only its own. */
export async function clearOutbox(): Promise<void> {
  await query(`update outbox_deliveries set status = 'skipped', detail = 'cleared by a test', locked_until = null where status in ('pending', 'sending')`);
}

/** A clock for the worker that only moves forward, an hour at a time by default: every retry is due. */
export function testClock(start = Date.now()) {
  let now = start;
  return { now: () => new Date(now), later: (ms = 3_600_000) => new Date((now += ms)) };
}

export const parse = (mail: ReceivedMail): Promise<ParsedMail> => simpleParser(mail.raw);

/** The address a parsed mail's header names (the first one). */
export const addressOf = (field: ParsedMail['replyTo'] | ParsedMail['to']) => (Array.isArray(field) ? field[0] : field)?.value[0]?.address ?? '';

/** A port where nothing listens yet: the mail server, down. */
export const freePort = () => getPort({ host: '127.0.0.1' });

export const deliveries = (where = 'true', params: unknown[] = []) =>
  query<{ id: string; kind: string; channel: string; status: string; attempts: number; last_error: string | null; detail: string | null }>(
    `select d.id, e.kind, d.channel, d.status, d.attempts, d.last_error, d.detail from outbox_deliveries d join outbox_events e on e.id = d.event_id where ${where} order by e.created_at, d.channel`,
    params,
  );

/** A header field of a parsed mail as it was written, unfolded (mailparser turns List-* fields into objects). */
export const rawHeader = (mail: ParsedMail, name: string) => {
  const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line ?? '';
  return line.slice(line.indexOf(':') + 1).replace(/\r?\n[ \t]+/g, ' ').trim();
};
