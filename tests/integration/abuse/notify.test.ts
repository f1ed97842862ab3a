import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import contact from '../../../netlify/functions/contact.mts';
import signIn from '../../../netlify/functions/admin-sign-in.mts';
import { query } from '../../../netlify/lib/db';
import { DOUBT_LIMITS } from '../../../netlify/lib/forms/doubts';
import { MAIL_LIMITS } from '../../../netlify/lib/mail/limits';
import { runOutbox } from '../../../netlify/lib/delivery/worker';
import { SIGN_IN_LIMITS } from '../../../netlify/lib/admin/sign-in';
import { MSG } from '../../../src/lib/messages';
import { startSmtpSink } from '../../support/smtp-sink';
import { BASE, client, count, useEmbeddedPlatform } from './helpers';

// The abuse corpus, notifications and the team's inbox: the forms cannot make the site mail a stranger without
// bound (receipts count against the daily mail limits), a bot's doubtful submissions cannot fill the database, and
// the sign-in form tells nobody who is on the team, mails nobody else, and cannot be used to flood a member's inbox.
useEmbeddedPlatform();
let sink: Awaited<ReturnType<typeof startSmtpSink>>;
beforeAll(async () => {
  sink = await startSmtpSink();
  Object.assign(process.env, { SMTP_URL: sink.url, MAIL_FROM: 'Lumora AI <notify@lumora.test>', NOTIFY_EMAIL: 'owner@lumora.test', OPERATOR_EMAILS: 'team@lumora.test' });
});
afterAll(() => sink?.stop());

const send = (body: object, ctx = client()) =>
  contact(new Request(`${BASE}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), ctx as never);

describe('notices: no relay, no flood', () => {
  it('one stranger’s address gets at most its few receipts a day, however many clients write in its name; the owner still hears of each', async () => {
    const victim = `victim.${randomUUID()}@example.com`;
    const n = MAIL_LIMITS.perRecipient.max + 3;
    for (let i = 0; i < n; i++) expect((await send({ name: 'Spammer', email: victim, message: `Buy now ${i}` })).status).toBe(200);
    await runOutbox();
    expect(sink.messages.filter((m) => m.to.includes(victim))).toHaveLength(MAIL_LIMITS.perRecipient.max);
    expect(sink.messages.filter((m) => m.to.includes('owner@lumora.test') && m.raw.includes('Buy now'))).toHaveLength(n);
    const limited = await query(`select d.detail from outbox_deliveries d join outbox_events e on e.id = d.event_id
      where d.channel = 'visitor-email' and e.ref in (select id::text from contact_messages where email = $1) and d.status = 'skipped'`, [victim]);
    expect(limited).toHaveLength(n - MAIL_LIMITS.perRecipient.max);
    expect(limited.every((r) => r.detail === 'limited: a daily mail limit is reached')).toBe(true);
  });

  it('a bot filling the honeypot is answered as a success; what is kept is bounded per client and cut to size', async () => {
    const ctx = client();
    const before = await count('form_doubts');
    for (let i = 0; i < DOUBT_LIMITS.perClient.max + 5; i++) {
      const res = await send({ name: 'Bot', email: 'bot@example.com', message: 'x'.repeat(5000), company_website: 'http://spam.example', extra: 'y'.repeat(10_000) }, ctx);
      expect(await res.json()).toEqual({ success: true, message: MSG.contactSent });
    }
    expect(await count('form_doubts')).toBe(before + DOUBT_LIMITS.perClient.max);
    const [kept] = await query<{ fields: Record<string, string> }>('select fields from form_doubts order by created_at desc limit 1');
    expect(Object.keys(kept!.fields).sort()).toEqual(['company_website', 'email', 'message', 'name']);
    expect(kept!.fields.message!.length).toBe(2000);
    expect(await count('contact_messages where email = \'bot@example.com\'')).toBe(0);
  });
});

describe('the team’s sign-in', () => {
  const ask = (email: string, ctx = client(), headers: Record<string, string> = {}) =>
    signIn(new Request(`${BASE}/api/admin/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ email }) }), ctx as never);

  it('a member’s inbox gets at most a few links per quarter hour, the rest answered the same and sent nowhere', async () => {
    const before = sink.messages.filter((m) => m.to.includes('team@lumora.test')).length;
    for (let i = 0; i < SIGN_IN_LIMITS.perAddress.max + 2; i++) expect(await (await ask('team@lumora.test')).json()).toEqual({ success: true, message: MSG.signInLinkSent });
    expect(sink.messages.filter((m) => m.to.includes('team@lumora.test')).length - before).toBe(SIGN_IN_LIMITS.perAddress.max);
    expect(await count('operator_sign_ins')).toBe(SIGN_IN_LIMITS.perAddress.max);
  });

  it('another site’s page cannot ask for a link (403), a form post cannot either (415), and a malformed address is a 400 like any', async () => {
    const before = await count('operator_sign_ins');
    expect((await ask('team@lumora.test', client(), { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    const form = await signIn(new Request(`${BASE}/api/admin/sign-in`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=team%40lumora.test' }), client() as never);
    expect(form.status).toBe(415);
    const bad = await ask('not-an-address');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe(`email: ${MSG.invalidEmail}`);
    expect(await count('operator_sign_ins')).toBe(before);
  });

  it('without OPERATOR_EMAILS nobody can sign in, and the answer is the same', async () => {
    const saved = process.env.OPERATOR_EMAILS;
    delete process.env.OPERATOR_EMAILS;
    try {
      const before = sink.messages.length;
      expect(await (await ask('team@lumora.test')).json()).toEqual({ success: true, message: MSG.signInLinkSent });
      expect(sink.messages.length).toBe(before);
    } finally {
      process.env.OPERATOR_EMAILS = saved;
    }
  });
});
