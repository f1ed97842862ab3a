import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import records from '../../../netlify/functions/admin-records.mts';
import retry from '../../../netlify/functions/admin-outbox-retry.mts';
import session from '../../../netlify/functions/admin-session.mts';
import signIn from '../../../netlify/functions/admin-sign-in.mts';
import signInLink from '../../../netlify/functions/admin-sign-in-link.mts';
import { query } from '../../../netlify/lib/db';
import { runOutbox } from '../../../netlify/lib/delivery/worker';
import { ADMIN_PATHS, INBOX_TABS } from '../../../src/lib/admin';
import { MSG } from '../../../src/lib/messages';
import { startSmtpSink } from '../../support/smtp-sink';
import { client, deliveries, parse, sendContact, sendLead, SITE, testClock, useOutboxPlatform } from '../outbox/helpers';

// The team's inbox: sign-in by a one-time e-mailed link (same answer for every address, no mail to strangers, used or
// expired links refused), a session cookie (HttpOnly, SameSite=Strict, Secure on HTTPS), and every /api/admin/*
// answer 401 without it, never cached or indexed.
const TEAM = 'team@lumora.test';
const HTTPS = 'https://shop.lumora.test';
const platform = useOutboxPlatform({ OPERATOR_EMAILS: `Boss@Lumora.test, ${TEAM}` });
// Each test asks for links afresh: the per-address limit (3 in 15 minutes) is the abuse corpus's business.
beforeEach(() => query(`delete from rate_limits where key like 'sign-in:%'`));

const askForLink = (email: string, ctx = client(), origin = HTTPS) =>
  signIn(new Request(`${origin}${ADMIN_PATHS.api.signIn}`, { method: 'POST', headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, body: JSON.stringify({ email }) }), ctx as never);

async function linkFor(email: string): Promise<string> {
  const mail = await parse(platform.sink().messages.filter((m) => m.to.includes(email)).at(-1)!);
  return /https?:\/\/\S+\/admin\/inbox\/sign-in\?token=\S+/.exec(mail.text!)![0];
}

/** The sign-in page's button: its form posts to the link's own address. */
const pressSignIn = (link: string, origin = HTTPS) =>
  signInLink(new Request(`${origin}${new URL(link).pathname}${new URL(link).search}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, body: '' }), {} as never);

const cookieOf = (res: Response) => res.headers.get('set-cookie')!.split(';')[0]!;

async function signedIn(email = TEAM): Promise<string> {
  await askForLink(email);
  return cookieOf(await pressSignIn(await linkFor(email)));
}

const get = (handler: typeof records, path: string, cookie?: string, ctx: object = {}) =>
  handler(new Request(`${HTTPS}${path}`, { headers: cookie ? { cookie } : {} }), ctx as never);

describe('signing in', () => {
  it('an address outside OPERATOR_EMAILS gets the same answer and no mail; a team address gets a one-time link', async () => {
    const before = platform.sink().messages.length;
    const stranger = await askForLink(`stranger.${randomUUID()}@example.com`);
    const member = await askForLink(TEAM);
    expect(stranger.status).toBe(200);
    expect(member.status).toBe(200);
    const [a, b] = [await stranger.json(), await member.json()];
    expect(a).toEqual({ success: true, message: MSG.signInLinkSent });
    expect(b).toEqual(a);
    expect(platform.sink().messages.slice(before).map((m) => m.to)).toEqual([[TEAM]]);
    for (const res of [stranger, member]) {
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(res.headers.get('set-cookie')).toBeNull();
    }
    // Any capitalisation of a team address is the team address; the link goes to the address as the team lists it.
    await askForLink('BOSS@lumora.TEST');
    expect(platform.sink().messages.at(-1)!.to).toEqual(['boss@lumora.test']);
  });

  it('the link signs in once: a session cookie (HttpOnly, SameSite=Strict, __Host- and Secure on HTTPS); used again, refused', async () => {
    await askForLink(TEAM);
    const link = await linkFor(TEAM);
    expect(new URL(link).origin).toBe(SITE);
    const first = await pressSignIn(link);
    expect(first.status).toBe(303);
    expect(first.headers.get('location')).toBe(ADMIN_PATHS.inbox);
    const cookie = first.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^__Host-inbox=[^;]+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict; Secure$/);
    const again = await pressSignIn(link);
    expect(again.headers.get('location')).toBe(`${ADMIN_PATHS.signIn}#refused`);
    expect(again.headers.get('set-cookie')).toBeNull();
    const who = await get(session, ADMIN_PATHS.api.session, cookieOf(first));
    expect(await who.json()).toMatchObject({ success: true, email: TEAM });
  });

  it('an expired link is refused', async () => {
    await askForLink(TEAM);
    const link = await linkFor(TEAM);
    await query(`update operator_sign_ins set expires_at = now() - interval '1 second' where used_at is null`);
    expect((await pressSignIn(link)).headers.get('location')).toBe(`${ADMIN_PATHS.signIn}#refused`);
  });

  it('on http://localhost (npm start) the cookie is not Secure, so the browser keeps it; elsewhere on plain HTTP it would be', async () => {
    await askForLink(TEAM, client(), 'http://localhost:8888');
    const res = await pressSignIn(await linkFor(TEAM), 'http://localhost:8888');
    expect(res.headers.get('set-cookie')).toMatch(/^inbox=[^;]+; Path=\/; Max-Age=43200; HttpOnly; SameSite=Strict$/);
  });

  it('sign-in requests are limited per client, with the same answer whatever the address', async () => {
    const ctx = client();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await askForLink(i % 2 ? TEAM : `x${i}@example.com`, ctx)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await askForLink(`someone.${randomUUID()}@example.com`, ctx)).status).toBe(429);
  });
});

describe('the inbox’s data', () => {
  it('every admin API answers 401 without the session, or with a forged or a former member’s cookie', async () => {
    const calls = (cookie?: string) => [
      get(session, ADMIN_PATHS.api.session, cookie),
      session(new Request(`${HTTPS}${ADMIN_PATHS.api.session}`, { method: 'DELETE', headers: cookie ? { cookie } : {} }), {} as never),
      ...INBOX_TABS.flatMap((tab) => [
        get(records, ADMIN_PATHS.api.records(tab), cookie, { params: { tab } }),
        get(records, ADMIN_PATHS.api.records(tab, 'csv'), cookie, { params: { tab } }),
      ]),
      retry(new Request(`${HTTPS}${ADMIN_PATHS.api.retry}`, { method: 'POST', headers: { 'content-type': 'application/json', ...(cookie && { cookie }) }, body: JSON.stringify({ id: randomUUID() }) }), {} as never),
    ];
    const good = await signedIn();
    const forged = good.replace(/\.[^.]+$/, '.forged-signature');
    for (const cookie of [undefined, forged, 'inbox=whatever', '__Host-inbox=a.b.c']) {
      for (const res of await Promise.all(calls(cookie))) {
        expect(res.status).toBe(401);
        expect(await res.json()).toEqual({ success: false, error: MSG.signInRequired });
        expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      }
    }
    // Removed from OPERATOR_EMAILS: signed out at once.
    process.env.OPERATOR_EMAILS = 'boss@lumora.test';
    try {
      expect((await get(session, ADMIN_PATHS.api.session, good)).status).toBe(401);
    } finally {
      process.env.OPERATOR_EMAILS = `Boss@Lumora.test, ${TEAM}`;
    }
    expect((await get(session, ADMIN_PATHS.api.session, good)).status).toBe(200);
  });

  it('a signed-in member sees the lead submitted a moment before, and downloads it as CSV (formulas defused)', async () => {
    const cookie = await signedIn();
    const email = `fresh.${randomUUID()}@example.com`;
    await sendLead({ name: '=HYPERLINK("http://evil.example")', email, source: 'image-restoration' });
    const res = await get(records, ADMIN_PATHS.api.records('leads'), cookie, { params: { tab: 'leads' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const table = await res.json();
    expect(table.columns).toEqual(['Received', 'Name', 'E-mail', 'Phone', 'Interest', 'Page', 'Guide', 'Newsletter box']);
    expect(table.rows[0]).toEqual([expect.any(String), '=HYPERLINK("http://evil.example")', email, null, null, 'image-restoration', 'prepare-old-photos-for-restoration', 'not ticked']);
    const csv = await get(records, ADMIN_PATHS.api.records('leads', 'csv'), cookie, { params: { tab: 'leads' } });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment; filename="leads-\d{4}-\d{2}-\d{2}\.csv"$/);
    const text = await csv.text();
    expect(text.split('\r\n')[0]).toBe('"Received","Name","E-mail","Phone","Interest","Page","Guide","Newsletter box"');
    expect(text).toContain(`"'=HYPERLINK(""http://evil.example"")","${email}"`);
  });

  it('orders list the package with its images used and left columns; the outbox tab lists each delivery, and a failing one can be sent again', async () => {
    const cookie = await signedIn();
    const orders = await (await get(records, ADMIN_PATHS.api.records('orders'), cookie, { params: { tab: 'orders' } })).json();
    expect(orders.columns.slice(-2)).toEqual(['Images used', 'Images left']);

    const dead = await startSmtpSink();
    await dead.stop();
    process.env.SMTP_URL = dead.url;
    const run = randomUUID().slice(0, 8);
    await sendContact({ name: 'Retry', email: `retry.${run}@example.com`, message: `retry ${run}` });
    const clock = testClock();
    await runOutbox({ now: clock.now() });
    const [failing] = await deliveries(`d.channel = 'owner-email' and e.ref in (select id::text from contact_messages where message = $1)`, [`retry ${run}`]);
    expect(failing).toMatchObject({ status: 'pending', attempts: 1 });
    const outbox = await (await get(records, ADMIN_PATHS.api.records('outbox'), cookie, { params: { tab: 'outbox' } })).json();
    const row = outbox.rows[outbox.ids.indexOf(failing!.id)];
    expect(row.slice(1, 5)).toEqual(['contact.message', 'owner-email', 'pending', '1']);
    expect(row[5]).toMatch(/ECONNREFUSED/);

    process.env.SMTP_URL = platform.sink().url;
    const send = (id: string) => retry(new Request(`${HTTPS}${ADMIN_PATHS.api.retry}`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ id }) }), {} as never);
    const res = await send(failing!.id);
    expect(await res.json()).toEqual({ success: true, message: MSG.outboxRetried });
    // Due now, on the real clock.
    await runOutbox();
    expect((await deliveries('d.id = $1', [failing!.id]))[0]).toMatchObject({ status: 'sent' });
    expect((await send(failing!.id)).status).toBe(409);
  });

  it('signing out clears the cookie', async () => {
    const cookie = await signedIn();
    const res = await session(new Request(`${HTTPS}${ADMIN_PATHS.api.session}`, { method: 'DELETE', headers: { cookie } }), {} as never);
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toBe('__Host-inbox=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict; Secure');
  });
});
