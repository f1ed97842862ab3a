import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import contact from '../../../netlify/functions/contact.mts';
import newsletter from '../../../netlify/functions/newsletter.mts';
import leads from '../../../netlify/functions/leads.mts';
import { query } from '../../../netlify/lib/db';
import { MSG } from '../../../src/lib/messages';
import { startEmbedded } from './helpers/backends';

// The first-party forms: JSON from islands, urlencoded posts from plain HTML forms, honeypot, rate limit.
const BASE = 'http://localhost:8888';
type Handler = typeof contact;
/** A fresh client address per call (valid IPv4, so each is its own rate-limit identity). */
let nextClient = Math.floor(Math.random() * 2 ** 20);
const ip = () => { const n = nextClient++; return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`; };
const sendJson = (handler: Handler, body: unknown, from = ip()) =>
  handler(
    new Request(`${BASE}/api/x`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    { ip: from } as never,
  );
const sendForm = (handler: Handler, fields: Record<string, string>, referer?: string) =>
  handler(
    new Request(`${BASE}/api/x`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...(referer ? { referer } : {}) },
      body: new URLSearchParams(fields).toString(),
    }),
    { ip: ip() } as never,
  );
const count = async (table: string) => (await query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;

let platform: Awaited<ReturnType<typeof startEmbedded>>;
beforeAll(async () => {
  platform = await startEmbedded();
});
afterAll(async () => {
  await platform?.stop();
});

describe('POST /api/contact', () => {
  it('stores a valid message sent as JSON', async () => {
    const email = `${randomUUID()}@example.com`;
    const res = await sendJson(contact, { name: 'Ada', email, message: 'Hello there', phone: '', company_website: '' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, message: MSG.contactSent });
    const rows = await query('select name, phone, message from contact_messages where email = $1', [email]);
    expect(rows).toEqual([{ name: 'Ada', phone: null, message: 'Hello there' }]);
  });

  it('answers a plain HTML form post with a redirect back to the page', async () => {
    const before = await count('contact_messages');
    const res = await sendForm(contact, { name: 'Bo', email: 'bo@example.com', message: 'Hi' }, `${BASE}/contact?x=1`);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/contact?x=1&sent=1');
    expect(await count('contact_messages')).toBe(before + 1);
  });

  it('honours the form own local redirect field and keeps its #fragment, never a foreign one', async () => {
    const ok = await sendForm(contact, { name: 'Cy', email: 'cy@example.com', message: 'Hi', redirect: '/contact#message-sent' });
    expect(ok.headers.get('location')).toBe('/contact?sent=1#message-sent');
    for (const redirect of ['//evil.example/x', 'https://evil.example/x', '/\\evil.example']) {
      const res = await sendForm(contact, { name: 'Cy', email: 'cy@example.com', message: 'Hi', redirect });
      expect(res.headers.get('location')).toBe('/contact?sent=1');
    }
  });

  it('sends a form post with invalid fields back with the error, storing nothing', async () => {
    const before = await count('contact_messages');
    const res = await sendForm(contact, { name: 'Bo', email: 'not-an-email', message: 'Hi' }, 'https://evil.example/x');
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, BASE);
    expect(location.pathname).toBe('/contact'); // a foreign Referer is ignored
    expect(location.searchParams.get('error')).toMatch(/valid email/);
    expect(await count('contact_messages')).toBe(before);
  });

  it('answers a filled honeypot like a success and stores nothing', async () => {
    const before = await count('contact_messages');
    const res = await sendJson(contact, { name: 'Bot', email: 'bot@example.com', message: 'spam', company_website: 'http://spam' });
    expect(res.status).toBe(200);
    expect((await res.json()).success).toBe(true);
    expect(await count('contact_messages')).toBe(before);
  });

  it.each([
    ['malformed JSON', '{"name":', 400, /^Invalid JSON body$/],
    ['a missing message', JSON.stringify({ name: 'A', email: 'a@example.com' }), 400, /^message: /],
    ['a body over 64 KB', JSON.stringify({ name: 'A', email: 'a@example.com', message: 'x'.repeat(70_000) }), 413, /too large/],
  ])('refuses %s without storing', async (_label, body, status, message) => {
    const before = await count('contact_messages');
    const res = await contact(
      new Request(`${BASE}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
      { ip: ip() } as never,
    );
    expect(res.status).toBe(status);
    expect((await res.json()).error).toMatch(message);
    expect(await count('contact_messages')).toBe(before);
  });

  it('rate limits one address', async () => {
    const from = ip();
    const statuses = [];
    for (let i = 0; i < 12; i++) {
      statuses.push((await sendJson(contact, { name: 'R', email: 'r@example.com', message: `m${i}` }, from)).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    const refused = await sendJson(contact, { name: 'R', email: 'r@example.com', message: 'again' }, from);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('POST /api/newsletter', () => {
  it('subscribes once per address, whatever the case; a repeat is a friendly success', async () => {
    const email = `News.${randomUUID()}@Example.com`;
    const first = await sendJson(newsletter, { email });
    expect(await first.json()).toEqual({ success: true, message: MSG.newsletterCheckInbox });
    const again = await sendJson(newsletter, { email: email.toLowerCase() });
    expect(again.status).toBe(200);
    expect(await again.json()).toEqual({ success: true, message: MSG.newsletterCheckInbox }); // the same answer: nothing to learn
    const rows = await query('select email from newsletter_subscribers where lower(email) = lower($1)', [email]);
    expect(rows).toHaveLength(1);
  });

  it('accepts the HTML form and returns to the home page without a Referer', async () => {
    const res = await sendForm(newsletter, { email: `${randomUUID()}@example.com` });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe('/?sent=1');
  });
});

describe('POST /api/leads', () => {
  it('stores a lead and confirms with the guide message', async () => {
    const email = `${randomUUID()}@example.com`;
    const res = await sendJson(leads, { name: 'Lee', email, source: '/lead-connect' });
    expect(await res.json()).toEqual({ success: true, message: MSG.leadConfirmation });
    expect(await query('select name, source from leads where email = $1', [email])).toEqual([{ name: 'Lee', source: '/lead-connect' }]);
  });

  it('requires name and e-mail', async () => {
    const res = await sendJson(leads, { email: 'x@example.com' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/^name: /);
  });
});
