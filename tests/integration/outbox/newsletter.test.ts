import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import confirm from '../../../netlify/functions/newsletter-confirm.mts';
import unsubscribe from '../../../netlify/functions/newsletter-unsubscribe.mts';
import { query } from '../../../netlify/lib/db';
import { confirmToken, unsubscribeToken } from '../../../netlify/lib/newsletter-tokens';
import { inboxCsv } from '../../../netlify/lib/admin/records';
import { runOutbox } from '../../../netlify/lib/delivery/worker';
import { MSG } from '../../../src/lib/messages';
import { NEWSLETTER_CONSENT, NEWSLETTER_PATHS } from '../../../src/lib/newsletter';
import { BASE, client, OWNER, parse, rawHeader, sendNewsletter, SITE, useOutboxPlatform } from './helpers';

// The newsletter's double opt-in as a person and a mail provider meet it: the confirmation e-mail (its link, its
// List-Unsubscribe headers), the Confirm button's POST, consent kept, the one-click unsubscribe of RFC 8058, and the
// confirmed list's CSV.
const platform = useOutboxPlatform();

const subscriber = async (email: string) =>
  (await query<{ id: string; status: string; consent_text: string | null; consent_client: string | null; consent_at: Date | null; confirmed_at: Date | null; confirmed_client: string | null }>(
    'select * from newsletter_subscribers where lower(email) = lower($1)', [email],
  ))[0];

/** The Confirm button: the page's form posts to its own address (the e-mail's link), query included. */
const pressConfirm = (link: string, ctx = client()) =>
  confirm(new Request(`${BASE}${new URL(link).pathname}${new URL(link).search}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
    body: '',
  }), ctx as never);

async function signUp(email: string) {
  const res = await sendNewsletter({ email, source: 'footer' });
  expect(await res.json()).toEqual({ success: true, message: MSG.newsletterCheckInbox });
  await runOutbox();
  const mails = await Promise.all(platform.sink().messages.filter((m) => m.to.includes(email)).map(parse));
  return mails.at(-1)!;
}

describe('newsletter double opt-in', () => {
  it('sign-up → a confirmation e-mail with its link and one-click headers; only the Confirm POST subscribes, and consent is kept', async () => {
    const email = `reader.${randomUUID()}@example.com`;
    const mail = await signUp(email);
    expect(mail.subject).toBe('Please confirm your subscription to the Lumora AI newsletter');
    const link = /https:\/\/\S+\/newsletter\/confirm\?token=\S+/.exec(mail.text!)![0];
    expect(new URL(link).origin).toBe(SITE);
    // RFC 8058: one HTTPS List-Unsubscribe address, and the One-Click signal.
    const listUnsubscribe = rawHeader(mail, 'List-Unsubscribe');
    expect(rawHeader(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(listUnsubscribe).toMatch(new RegExp(`^<${SITE}${NEWSLETTER_PATHS.unsubscribe}\\?token=[^>]+>$`));
    expect(rawHeader(mail, 'List-Id')).toBe('Lumora AI newsletter <newsletter.shop.lumora.test>');
    expect(mail.text).toContain(listUnsubscribe.slice(1, -1));

    const pending = await subscriber(email);
    expect(pending).toMatchObject({ status: 'pending', consent_text: NEWSLETTER_CONSENT, confirmed_at: null });
    expect(pending!.consent_client).toMatch(/^[0-9a-f]{32}$/);
    expect(pending!.consent_at).toBeInstanceOf(Date);

    const res = await pressConfirm(link);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(NEWSLETTER_PATHS.confirmed);
    const confirmed = await subscriber(email);
    expect(confirmed).toMatchObject({ status: 'confirmed', consent_text: NEWSLETTER_CONSENT });
    expect(confirmed!.confirmed_client).toMatch(/^[0-9a-f]{32}$/);
    // Pressed again: still confirmed, no second owner notice.
    expect((await pressConfirm(link)).headers.get('location')).toBe(NEWSLETTER_PATHS.confirmed);
    await runOutbox();
    const notices = (await Promise.all(platform.sink().messages.filter((m) => m.to.includes(OWNER)).map(parse))).filter((m) => m.subject === `New newsletter subscriber: ${email}`);
    expect(notices).toHaveLength(1);

    // The confirmed list, for the owner's mailing tool: the address with its consent and its own unsubscribe link.
    const csv = (await inboxCsv('subscribers')).body;
    const line = csv.split('\r\n').find((l) => l.includes(email))!;
    expect(line).toContain(NEWSLETTER_CONSENT.replace(/"/g, '""'));
    expect(line).toContain(`${SITE}${NEWSLETTER_PATHS.unsubscribe}?token=`);
  });

  it('an expired, altered or cross-site confirmation confirms nothing', async () => {
    const email = `late.${randomUUID()}@example.com`;
    await signUp(email);
    const { id } = (await subscriber(email))!;
    const expired = await pressConfirm(`${SITE}${NEWSLETTER_PATHS.confirm}?token=${confirmToken(id, new Date(Date.now() - 1000))}`);
    expect(expired.headers.get('location')).toBe(`${NEWSLETTER_PATHS.confirm}#expired`);
    const token = confirmToken(id, new Date(Date.now() + 3_600_000));
    const altered = await pressConfirm(`${SITE}${NEWSLETTER_PATHS.confirm}?token=${token.slice(0, -2)}xx`);
    expect(altered.headers.get('location')).toBe(`${NEWSLETTER_PATHS.confirm}#invalid`);
    const crossSite = await confirm(new Request(`${BASE}${NEWSLETTER_PATHS.confirm}?token=${token}`, {
      method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'cross-site' }, body: '',
    }), client() as never);
    expect(crossSite.status).toBe(403);
    expect((await subscriber(email))!.status).toBe('pending');
  });

  it('one-click unsubscribe (RFC 8058): a cookieless POST with List-Unsubscribe=One-Click, either encoding, removes the address', async () => {
    for (const encoding of ['form', 'multipart'] as const) {
      const email = `leaver.${encoding}.${randomUUID()}@example.com`;
      const mail = await signUp(email);
      await pressConfirm(/https:\/\/\S+\/newsletter\/confirm\?token=\S+/.exec(mail.text!)![0]);
      const target = rawHeader(mail, 'List-Unsubscribe').slice(1, -1);
      const body = encoding === 'form' ? new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) : (() => {
        const form = new FormData();
        form.set('List-Unsubscribe', 'One-Click');
        return form;
      })();
      // As a mail provider sends it: no cookie, no Origin, no page.
      const res = await unsubscribe(new Request(`${BASE}${new URL(target).pathname}${new URL(target).search}`, { method: 'POST', body }), {} as never);
      expect(res.status).toBe(200);
      expect(res.headers.get('location')).toBeNull();
      expect(await subscriber(email)).toMatchObject({ status: 'unsubscribed' });
      // Already off the list: the same answer.
      expect((await unsubscribe(new Request(`${BASE}${new URL(target).pathname}${new URL(target).search}`, { method: 'POST', body: new URLSearchParams({ 'List-Unsubscribe': 'One-Click' }) }), {} as never)).status).toBe(200);
      expect((await inboxCsv('subscribers')).body).not.toContain(email);
    }
  });

  it('the unsubscribe page’s button leaves too; an unsigned token removes nobody', async () => {
    const email = `button.${randomUUID()}@example.com`;
    await signUp(email);
    const { id } = (await subscriber(email))!;
    const forged = await unsubscribe(new Request(`${BASE}${NEWSLETTER_PATHS.unsubscribe}?token=${id}.forged`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }), {} as never);
    expect(forged.headers.get('location')).toBe(`${NEWSLETTER_PATHS.unsubscribe}#invalid`);
    expect((await subscriber(email))!.status).toBe('pending');
    const res = await unsubscribe(new Request(`${BASE}${NEWSLETTER_PATHS.unsubscribe}?token=${unsubscribeToken(id)}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' }), {} as never);
    expect(res.headers.get('location')).toBe(NEWSLETTER_PATHS.unsubscribed);
    expect((await subscriber(email))!.status).toBe('unsubscribed');
    // An old confirmation link cannot bring the address back; a new sign-up can.
    expect((await confirm(new Request(`${BASE}${NEWSLETTER_PATHS.confirm}?token=${confirmToken(id, new Date(Date.now() + 60_000))}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' }, body: '' }), client() as never)).headers.get('location')).toBe(`${NEWSLETTER_PATHS.confirm}#invalid`);
    await signUp(email);
    expect((await subscriber(email))!.status).toBe('pending');
  });

  it('a repeated sign-up inside the hour sends no second confirmation; a confirmed address gets none', async () => {
    const email = `again.${randomUUID()}@example.com`;
    const mail = await signUp(email);
    await signUp(email);
    expect(platform.sink().messages.filter((m) => m.to.includes(email))).toHaveLength(1);
    await pressConfirm(/https:\/\/\S+\/newsletter\/confirm\?token=\S+/.exec(mail.text!)![0]);
    await signUp(email);
    expect(platform.sink().messages.filter((m) => m.to.includes(email))).toHaveLength(1);
    expect((await subscriber(email))!.status).toBe('confirmed');
  });
});
