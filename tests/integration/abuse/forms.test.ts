import { describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import contact from '../../../netlify/functions/contact.mts';
import imageHeal from '../../../netlify/functions/image-heal.mts';
import imageHints from '../../../netlify/functions/image-hints.mts';
import imageReference from '../../../netlify/functions/image-reference.mts';
import processVideo from '../../../netlify/functions/process-video.mts';
import uploads from '../../../netlify/functions/uploads.mts';
import newsletter from '../../../netlify/functions/newsletter.mts';
import processImage from '../../../netlify/functions/process-image.mts';
import toolUploads from '../../../netlify/functions/tool-uploads.mts';
import { addressGroup, clientId } from '../../../netlify/lib/client-identity';
import { getStorage } from '../../../netlify/lib/storage';
import { MSG } from '../../../src/lib/messages';
import { newKey } from '../platform/helpers/seed';
import { BASE, client, count, useEmbeddedPlatform } from './helpers';

useEmbeddedPlatform();

describe('forms: no open redirect, nothing to learn, no evasion', () => {
  const formPost = (fields: Record<string, string>, ctx = client()) =>
    contact(new Request(`${BASE}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${BASE}/contact` },
      body: new URLSearchParams({ name: 'Ann', email: 'ann@example.com', message: 'Hello there', ...fields }).toString(),
    }), ctx as never);

  it.each(['/.//evil.example', '//evil.example', '/\\evil.example', 'https://evil.example/', '/%2F%2Fevil.example', '/./\\/evil.example', '/../..//evil.example'])(
    'redirect=%s goes back to the page it came from, never elsewhere',
    async (redirect) => {
      const res = await formPost({ redirect });
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/contact?sent=1');
    },
  );

  it('a site path with a fragment is honoured (control)', async () => {
    expect((await formPost({ redirect: '/services/ai-consulting#form' })).headers.get('location')).toBe('/services/ai-consulting?sent=1#form');
  });

  it('the newsletter answers a known address exactly like a new one', async () => {
    const sign = (email: string) => newsletter(new Request(`${BASE}/api/newsletter`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) }), client() as never);
    const email = `known.${Date.now()}@example.com`;
    const first = await (await sign(email)).json();
    const again = await (await sign(email)).json();
    expect(again).toEqual(first);
    expect(first).toEqual({ success: true, message: MSG.newsletterCheckInbox });
  });

  it('a forged X-Forwarded-For does not evade the form limit, and refused posts store nothing', async () => {
    const ctx = client();
    const post = (i: number) => contact(new Request(`${BASE}/api/contact`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i}` }, body: JSON.stringify({ name: 'R', email: 'r@example.com', message: `message ${i}` }) }), ctx as never);
    for (let i = 0; i < 10; i++) expect((await post(i)).status).toBe(200);
    const before = await count('contact_messages');
    expect((await post(99)).status).toBe(429);
    expect(await count('contact_messages')).toBe(before);
  });
});

describe('one client identity', () => {
  it('groups IPv6 by /64, maps IPv4-mapped addresses, and never reads headers', () => {
    expect(addressGroup('2001:db8:1:2:aaaa::1')).toBe(addressGroup('2001:db8:1:2:bbbb:cccc:dddd:eeee'));
    expect(addressGroup('2001:db8:1:3::1')).not.toBe(addressGroup('2001:db8:1:2::1'));
    expect(addressGroup('::ffff:192.0.2.1')).toBe('192.0.2.1');
    expect(addressGroup('forged, 10.0.0.1')).toBeNull();
    expect(clientId({ ip: '192.0.2.1' })).toBe(clientId({ ip: '::ffff:192.0.2.1' }));
    expect(clientId({ ip: '192.0.2.1' })).not.toContain('192.0.2.1');
    expect(clientId(undefined)).toBe(clientId({ ip: 'not an address' }));
  });
});

describe('one request guard: another site’s page cannot make a visitor’s browser act here', () => {
  const cross = { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' };
  /** Every state-changing endpoint, each with a body it would otherwise accept and the rows it would write. */
  const endpoints: [string, (headers: Record<string, string>) => Promise<Response>][] = [
    ['checkout', (headers) => checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers, body: JSON.stringify({ items: [{ packageId: 'basic-restoration' }], idempotencyKey: newKey() }) }), client() as never)],
    ['an upload grant', (headers) => toolUploads(new Request(`${BASE}/api/tool-uploads`, { method: 'POST', headers, body: JSON.stringify({ kind: 'image', contentType: 'image/jpeg', size: 1000 }) }), client() as never)],
    ['a restoration', (headers) => processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', headers, body: JSON.stringify({ uploadId: `${crypto.randomUUID()}.jpg`, model: 'sd-xl', prompt: 'colour it' }) }), client() as never)],
    ['a heal', (headers) => imageHeal(new Request(`${BASE}/api/transformations/${crypto.randomUUID()}/heal`, { method: 'POST', headers, body: JSON.stringify({ marks: [] }) }), client() as never)],
    ['colour hints', (headers) => imageHints(new Request(`${BASE}/api/transformations/${crypto.randomUUID()}/hints`, { method: 'POST', headers, body: JSON.stringify({ hints: [] }) }), client() as never)],
    ['a reference removal', (headers) => imageReference(new Request(`${BASE}/api/transformations/${crypto.randomUUID()}/reference`, { method: 'DELETE', headers }), client() as never)],
    ['a video job', (headers) => processVideo(new Request(`${BASE}/api/process-video`, { method: 'POST', headers, body: JSON.stringify({ uploadId: `${crypto.randomUUID()}.jpg`, prompt: 'gentle waves', mode: 'standard', duration: 5 }) }), client() as never)],
  ];
  const rows = async () => ({ payments: await count('payments'), grants: await count('upload_grants'), jobs: await count('media_transformations'), limits: await count('rate_limits') });

  it.each(endpoints)('%s posted as text/plain from another site: 403, nothing written', async (_, call) => {
    const before = await rows();
    const res = await call({ 'content-type': 'text/plain', ...cross });
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe(MSG.crossSite);
    expect(await rows()).toEqual(before);
  });

  it.each([
    ['Origin of another site', { 'content-type': 'application/json', origin: 'https://evil.example' }, 403],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'content-type': 'application/json', 'sec-fetch-site': 'same-site' }, 403],
    ['Origin: null (a sandboxed frame)', { 'content-type': 'application/json', origin: 'null' }, 403],
    ['text/plain from this site', { 'content-type': 'text/plain', 'sec-fetch-site': 'same-origin' }, 415],
    ['a form post from this site', { 'content-type': 'application/x-www-form-urlencoded', origin: BASE }, 415],
  ])('a checkout with %s is refused before anything is written', async (_, headers, status) => {
    const before = await rows();
    const res = await endpoints[0]![1](headers as Record<string, string>);
    expect(res.status).toBe(status);
    expect(await rows()).toEqual(before);
  });

  it('a photo PUT to an upload link from another site stores nothing', async () => {
    const grant = await (await toolUploads(new Request(`${BASE}/api/tool-uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'image', contentType: 'image/jpeg', size: 4 }) }), client() as never)).json();
    const res = await uploads(new Request(new URL(grant.upload.url, BASE), { method: 'PUT', headers: { ...grant.upload.headers, ...cross }, body: new Uint8Array([1, 2, 3, 4]) }), {});
    expect(res.status).toBe(403);
    expect(await getStorage().get(`uploads/${grant.uploadId}`)).toBeNull();
  });

  it('this site’s own pages pass: Origin and Sec-Fetch-Site of the site, JSON (control)', async () => {
    const before = await count('payments');
    const res = await endpoints[0]![1]({ 'content-type': 'application/json; charset=utf-8', origin: BASE, 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    expect(await count('payments')).toBe(before + 1);
  });
});
