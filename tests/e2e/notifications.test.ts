import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import pg from 'pg';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ADMIN_PATHS, INBOX_TABS } from '../../src/lib/admin';
import { MSG } from '../../src/lib/messages';
import { NEWSLETTER_PATHS } from '../../src/lib/newsletter';
import { seriousViolations } from '../support/axe';
import { E2E_OPERATOR } from './inbox-operator';
import { baseUrl, hydrated, newPage, useBrowser } from './harness';

// The visitor's and the team's side of the notifications in Chromium on `npm start`'s server: a lead's guide
// e-mail and its link, the newsletter's double opt-in (the link's GET confirms nothing, the button does) and the
// one-click unsubscribe, and the team's inbox behind its e-mailed one-time link. Mail lands in the server's local
// outbox folder (no SMTP in the browser run), where the tests read it.
const browser = useBrowser();
let db: pg.Client;
let outbox: string;

beforeAll(async () => {
  const env = inject('platformEnv');
  outbox = path.join(path.dirname(env.STORAGE_DIR!), 'outbox');
  db = new pg.Client({ connectionString: env.DATABASE_URL });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
});

/** The mail the server has written to `to` so far, oldest first. */
async function mailTo(to: string): Promise<ParsedMail[]> {
  const files = (await readdir(outbox).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const mails = await Promise.all(files.map(async (f) => simpleParser(await readFile(path.join(outbox, f)))));
  return mails.filter((m) => (Array.isArray(m.to) ? m.to : [m.to]).some((a) => a?.value.some((v) => v.address === to)));
}

const matching = async (to: string, subject: RegExp) => (await mailTo(to)).filter((m) => subject.test(m.subject ?? ''));

/** Waits for one more mail to `to` whose subject matches than `seen` (the outbox sends right after the answer). */
async function waitForMail(to: string, subject: RegExp, seen = 0): Promise<ParsedMail> {
  await expect.poll(async () => (await matching(to, subject)).length, { timeout: 30_000, interval: 250 }).toBeGreaterThan(seen);
  return (await matching(to, subject)).at(-1)!;
}

const linkIn = (mail: ParsedMail, pathname: string) => new RegExp(`https?://\\S+${pathname.replace(/\//g, '\\/')}(\\?\\S+)?`).exec(mail.text!)![0];
const status = async (email: string) => (await db.query('select status from newsletter_subscribers where lower(email) = lower($1)', [email])).rows[0]?.status as string | undefined;

async function submitLead(page: Page, pagePath: string, email: string) {
  await page.goto(`${baseUrl()}${pagePath}`);
  await page.locator('[data-lead-form]').first().scrollIntoViewIfNeeded();
  await hydrated(page, '[data-lead-form] button[type="submit"]');
  const form = page.locator('[data-lead-form]').first();
  await form.getByLabel('Name').fill('Grace Lead');
  await form.getByLabel('Email').fill(email);
  await form.locator('button[type="submit"]').click();
  await expect.poll(() => form.locator('[data-lead-confirmation]').textContent(), { timeout: 30_000, interval: 100 }).toBe(MSG.leadConfirmation);
}

describe('the visitor', () => {
  it('a lead on a landing page gets the guide’s e-mail, and its link opens the guide (noindex, not in the sitemap)', async () => {
    const { context, page } = await newPage(browser());
    const email = `grace.${Date.now()}@example.com`;
    await submitLead(page, '/image-restoration', email);
    const mail = await waitForMail(email, /^Your free guide/);
    const link = linkIn(mail, '/guides/prepare-old-photos-for-restoration');
    const guide = await page.goto(link);
    expect(guide?.status()).toBe(200);
    await expect(page.locator('h1').textContent()).resolves.toBe('How to prepare old photos for restoration');
    await expect(page.locator('meta[name="robots"]').getAttribute('content')).resolves.toBe('noindex');
    expect(await seriousViolations(page)).toEqual([]);
    const sitemap = await (await fetch(`${baseUrl()}/sitemap-0.xml`)).text();
    expect(sitemap).not.toMatch(/\/guides\/|\/newsletter\/|\/admin/);
    await context.close();
  });

  it('newsletter sign-up → confirmation e-mail; GET of its link confirms nothing, the button does; one-click POST removes the address', async () => {
    const { context, page } = await newPage(browser());
    const email = `reader.${Date.now()}@example.com`;
    await page.goto(`${baseUrl()}/`);
    const form = page.locator('[data-newsletter-form]');
    await form.getByLabel('Email address').fill(email);
    await form.getByRole('button', { name: 'Subscribe' }).click();
    await page.waitForURL(new RegExp(`${NEWSLETTER_PATHS.checkInbox}`));
    expect(await seriousViolations(page)).toEqual([]);

    const mail = await waitForMail(email, /confirm your subscription/i);
    const confirm = linkIn(mail, NEWSLETTER_PATHS.confirm);
    // A link scanner's GET, and the person opening the page: still pending.
    expect((await fetch(confirm)).status).toBe(200);
    await page.goto(confirm);
    await expect(page.getByRole('button', { name: 'Confirm my subscription' }).isVisible()).resolves.toBe(true);
    expect(await status(email)).toBe('pending');
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Confirm my subscription' }).click();
    await page.waitForURL(`${baseUrl()}${NEWSLETTER_PATHS.confirmed}`);
    expect(await status(email)).toBe('confirmed');

    // The mail provider's one-click unsubscribe (RFC 8058): a POST without cookies to the List-Unsubscribe address.
    const header = mail.headerLines.find((h) => h.key === 'list-unsubscribe')!.line;
    const unsubscribe = /<([^>]+)>/.exec(header.replace(/\r?\n\s+/g, ' '))![1]!;
    const oneClick = await fetch(unsubscribe, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click', redirect: 'manual' });
    expect(oneClick.status).toBe(200);
    expect(await status(email)).toBe('unsubscribed');
    await context.close();
  });
});

describe('the team’s inbox', () => {
  async function askForLink(page: Page, email: string) {
    await page.goto(`${baseUrl()}${ADMIN_PATHS.inbox}`);
    await hydrated(page, '[data-inbox-sign-in] button[type="submit"]');
    await page.locator('[data-inbox-sign-in]').getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send me a sign-in link' }).click();
    await expect.poll(() => page.locator('[data-inbox-sign-in-sent]').textContent(), { timeout: 30_000 }).toBe(MSG.signInLinkSent);
  }

  it('every admin API answers 401 without the session; the inbox page is never cached or indexed', async () => {
    const urls = [ADMIN_PATHS.api.session, ...INBOX_TABS.flatMap((tab) => [ADMIN_PATHS.api.records(tab), ADMIN_PATHS.api.records(tab, 'csv')])];
    for (const url of urls) expect((await fetch(`${baseUrl()}${url}`)).status, url).toBe(401);
    expect((await fetch(`${baseUrl()}${ADMIN_PATHS.api.retry}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"id":"00000000-0000-4000-8000-000000000000"}' })).status).toBe(401);
    for (const pagePath of [ADMIN_PATHS.inbox, ADMIN_PATHS.signIn]) {
      const res = await fetch(`${baseUrl()}${pagePath}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(await res.text()).toContain('<meta name="robots" content="noindex">');
    }
  });

  it('an address outside OPERATOR_EMAILS gets the same answer and no mail; a member signs in once by the link and sees the lead of a moment before', async () => {
    const { context, page } = await newPage(browser());
    const stranger = `stranger.${Date.now()}@example.com`;
    await askForLink(page, stranger);
    const before = (await mailTo(E2E_OPERATOR)).length;
    await askForLink(page, E2E_OPERATOR);
    const mail = await waitForMail(E2E_OPERATOR, /sign-in link/, before);
    expect((await mailTo(E2E_OPERATOR)).length).toBe(before + 1);
    expect(await mailTo(stranger)).toEqual([]);

    const email = `fresh.${Date.now()}@example.com`;
    const visitor = await newPage(browser());
    await submitLead(visitor.page, '/lead-connect', email);
    await visitor.context.close();

    const link = linkIn(mail, ADMIN_PATHS.signIn);
    await page.goto(link);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl()}${ADMIN_PATHS.inbox}`);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'inbox')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    await expect.poll(() => page.locator('[data-inbox-user]').textContent(), { timeout: 30_000 }).toBe(E2E_OPERATOR);
    await page.getByRole('link', { name: 'Leads' }).click();
    await expect.poll(() => page.locator('[data-inbox-tab="leads"] tbody tr').first().textContent(), { timeout: 30_000 }).toContain(email);
    expect(await seriousViolations(page)).toEqual([]);

    // The link again (another device, a forwarded mail): refused, and the page says so.
    const other = await newPage(browser());
    await other.page.goto(link);
    await other.page.getByRole('button', { name: 'Sign in' }).click();
    await other.page.waitForURL(`${baseUrl()}${ADMIN_PATHS.signIn}#refused`);
    await expect(other.page.locator('#refused').isVisible()).resolves.toBe(true);
    expect(await other.context.cookies()).toEqual([]);
    await other.context.close();
    await context.close();
  });

  it('an expired link is refused', async () => {
    const { context, page } = await newPage(browser());
    const seen = (await matching(E2E_OPERATOR, /sign-in link/)).length;
    await askForLink(page, E2E_OPERATOR);
    const mail = await waitForMail(E2E_OPERATOR, /sign-in link/, seen);
    await db.query(`update operator_sign_ins set expires_at = now() - interval '1 second' where used_at is null`);
    await page.goto(linkIn(mail, ADMIN_PATHS.signIn));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${baseUrl()}${ADMIN_PATHS.signIn}#refused`);
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });
});
