import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearedSessionCookie, readSession, sessionCookie } from '../../../netlify/lib/admin/session';
import { toCsv } from '../../../netlify/lib/admin/records';
import { confirmToken, readConfirmToken, readUnsubscribeToken, unsubscribeToken } from '../../../netlify/lib/newsletter-tokens';
import { leadSchema } from '../../../src/lib/forms';
import { pastGivingUp, retryDelaySeconds, RETRY } from '../../../netlify/lib/outbox/backoff';
import { readNotifyConfig } from '../../../netlify/lib/outbox/config';
import { slackEscape, webhookBody, webhookSignature, WEBHOOK_TEXT_MAX } from '../../../netlify/lib/delivery/webhook';
import { scheduleIntervalMs } from '../../../scripts/platform/server';
import { DEFAULT_GUIDE } from '../../../src/lib/guides';
import { site } from '../../../src/lib/site';

// The outbox's rules in isolation: the retry schedule, the webhook's signature (the Standard Webhooks test vector),
// its payload for Slack and Discord, the owner's settings, the newsletter's and the inbox's signed tokens, the CSV.
beforeEach(() => {
  vi.stubEnv('APP_SECRET', 'unit-test-secret-0123456789-0123456789');
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('retries', () => {
  it('wait 30 s, then twice as long each time, at most an hour, within ±20 %', () => {
    const middle = () => 0.5;
    expect([1, 2, 3, 4, 5, 6, 7, 8, 20].map((n) => retryDelaySeconds(n, 0, middle))).toEqual([30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
    expect(retryDelaySeconds(1, 0, () => 0)).toBe(24);
    expect(retryDelaySeconds(1, 0, () => 1)).toBe(36);
    expect(retryDelaySeconds(20, 0, () => 1)).toBe(RETRY.maxDelaySeconds);
  });

  it('honour a receiver’s Retry-After within the hour, and give up three days after the retry clock started', () => {
    expect(retryDelaySeconds(1, 600, () => 0.5)).toBe(600);
    expect(retryDelaySeconds(1, 86_400, () => 0.5)).toBe(RETRY.maxDelaySeconds);
    const start = new Date('2026-12-01T00:00:00Z');
    expect(pastGivingUp(start, new Date('2026-12-03T23:59:00Z'))).toBe(false);
    expect(pastGivingUp(start, new Date('2026-12-04T00:01:00Z'))).toBe(true);
  });
});

describe('the owner’s webhook', () => {
  it('signs as the Standard Webhooks specification’s test vector', () => {
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    expect(webhookSignature(key, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}')).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
  });

  it('gives Slack escaped text and Discord its content, both within Discord’s 2,000 characters, and mentions nobody', () => {
    const body = webhookBody('contact.message', new Date('2026-12-07T10:00:00Z'), `<!channel> & @everyone ${'x'.repeat(3000)}`, { id: 1 });
    expect(body.content.length).toBe(WEBHOOK_TEXT_MAX);
    expect(body.text.startsWith('&lt;!channel&gt; &amp; @everyone')).toBe(true);
    expect(body).toMatchObject({ type: 'contact.message', timestamp: '2026-12-07T10:00:00.000Z', data: { id: 1 }, allowed_mentions: { parse: [] } });
    expect(slackEscape('a<b>&c')).toBe('a&lt;b&gt;&amp;c');
  });

  it('reads its settings: the site’s address without NOTIFY_EMAIL, HTTPS only (plain HTTP on this machine), a whsec_ key of 24+ bytes', () => {
    expect(readNotifyConfig({})).toMatchObject({ ownerEmails: [site.email], ownerEmailSource: 'site', webhook: null, problems: [] });
    expect(readNotifyConfig({ NOTIFY_EMAIL: 'a@x.io, b@y.io' }).ownerEmails).toEqual(['a@x.io', 'b@y.io']);
    expect(readNotifyConfig({ NOTIFY_EMAIL: 'a@x.io, nope' })).toMatchObject({ ownerEmails: ['a@x.io'], problems: ['NOTIFY_EMAIL: "nope" is not an e-mail address'] });
    expect(readNotifyConfig({ NOTIFY_WEBHOOK_URL: 'http://hooks.example/x' })).toMatchObject({ webhook: null, problems: ['NOTIFY_WEBHOOK_URL must be an https:// address: no webhook is sent'] });
    expect(readNotifyConfig({ NOTIFY_WEBHOOK_URL: 'http://127.0.0.1:9/x' }).webhook?.url).toBe('http://127.0.0.1:9/x');
    const signed = readNotifyConfig({ NOTIFY_WEBHOOK_URL: 'https://hooks.example/x', NOTIFY_WEBHOOK_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' });
    expect(signed.webhook?.key?.length).toBe(24);
    expect(signed.problems).toEqual([]);
    const short = readNotifyConfig({ NOTIFY_WEBHOOK_URL: 'https://hooks.example/x', NOTIFY_WEBHOOK_SECRET: 'whsec_c2hvcnQ=' });
    expect(short.webhook?.key).toBeNull();
    expect(short.problems[0]).toMatch(/shorter than 24 bytes/);
  });
});

describe('signed links', () => {
  const id = '0eea34ab-ced8-45e5-915d-49c075e10432';

  it('a newsletter confirmation works until it expires, and only as what it was made for', () => {
    const token = confirmToken(id, new Date(Date.now() + 60_000));
    expect(readConfirmToken(token)).toEqual({ ok: true, subscriberId: id });
    expect(readConfirmToken(token, new Date(Date.now() + 120_000))).toEqual({ ok: false, reason: 'expired' });
    expect(readConfirmToken(token.replace(/\.(\d+)\./, (_, exp) => `.${Number(exp) + 3600}.`))).toEqual({ ok: false, reason: 'invalid' });
    expect(readConfirmToken(unsubscribeToken(id))).toEqual({ ok: false, reason: 'invalid' });
    expect(readUnsubscribeToken(unsubscribeToken(id))).toBe(id);
    expect(readUnsubscribeToken(token)).toBeNull();
    expect(readUnsubscribeToken(`${id}.forged`)).toBeNull();
  });

  it('the inbox session: HttpOnly and SameSite=Strict always, __Host- and Secure except on http://localhost; expired, forged or former members’ cookies read as none', () => {
    vi.stubEnv('OPERATOR_EMAILS', 'team@lumora.test');
    const https = new Request('https://shop.example/admin/inbox/sign-in', { method: 'POST' });
    const cookie = sessionCookie(https, 'team@lumora.test', new Date());
    expect(cookie).toMatch(/^__Host-inbox=\S+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/);
    expect(sessionCookie(new Request('http://127.0.0.1:8888/x'), 'team@lumora.test')).toMatch(/^inbox=\S+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/);
    expect(sessionCookie(new Request('http://shop.example/x'), 'team@lumora.test')).toMatch(/; Secure$/);
    expect(clearedSessionCookie(https)).toBe('__Host-inbox=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure');
    const value = cookie.split(';')[0]!;
    const asked = (c: string, url = 'https://shop.example/api/admin/session') => new Request(url, { headers: { cookie: `other=1; ${c}` } });
    expect(readSession(asked(value))?.email).toBe('team@lumora.test');
    expect(readSession(asked(value), new Date(Date.now() + 13 * 3_600_000))).toBeNull();
    expect(readSession(asked(value.replace('__Host-inbox=', 'inbox=')))).toBeNull();
    expect(readSession(asked(value), undefined)).not.toBeNull();
    const [who, exp, sig] = value.slice('__Host-inbox='.length).split('.');
    expect(readSession(asked(`__Host-inbox=${Buffer.from('boss@lumora.test').toString('base64url')}.${exp}.${sig}`))).toBeNull();
    expect(readSession(asked(`__Host-inbox=${who}.${Number(exp) + 3600}.${sig}`))).toBeNull();
    vi.stubEnv('OPERATOR_EMAILS', 'boss@lumora.test');
    expect(readSession(asked(value))).toBeNull();
  });
});

describe('the inbox’s CSV', () => {
  it('quotes every field (RFC 4180, CRLF) and defuses what a spreadsheet would run as a formula', () => {
    expect(toCsv(['a', 'b'], [['=1+1', 'say "hi"'], [null, '-2'], ['@x', 'plain, text']])).toBe(
      `"a","b"\r\n"'=1+1","say ""hi"""\r\n"","'-2"\r\n"'@x","plain, text"\r\n`,
    );
  });
});

describe('the lead form’s fields', () => {
  it('the newsletter box reads a plain form’s "on" or an island’s boolean; the guide is a file name, the default one when absent', () => {
    const base = { name: 'Lee', email: 'lee@example.com' };
    expect(leadSchema.parse(base).newsletter).toBe(false);
    expect(leadSchema.parse(base).guide).toBeUndefined();
    expect(leadSchema.parse({ ...base, newsletter: 'on', guide: 'missed-call-recovery' })).toMatchObject({ newsletter: true, guide: 'missed-call-recovery' });
    expect(leadSchema.parse({ ...base, newsletter: true }).newsletter).toBe(true);
    expect(leadSchema.parse({ ...base, newsletter: '', guide: '' }).newsletter).toBe(false);
    expect(leadSchema.parse({ ...base, newsletter: '', guide: '' }).guide).toBeUndefined();
    expect(leadSchema.safeParse({ ...base, guide: 'Bad Guide' }).success).toBe(false);
    expect(DEFAULT_GUIDE).toMatch(/^[a-z0-9-]+$/);
  });
});

describe('npm start’s schedule', () => {
  it('runs each scheduled function on the interval its cron names', () => {
    expect(scheduleIntervalMs('* * * * *')).toBe(60_000);
    expect(scheduleIntervalMs('*/5 * * * *')).toBe(300_000);
    expect(scheduleIntervalMs('0 * * * *')).toBe(3_600_000);
    expect(scheduleIntervalMs('@hourly')).toBe(3_600_000);
    expect(scheduleIntervalMs('30 2 * * 1')).toBe(300_000);
  });
});
