import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import chatFunction from '../../netlify/functions/chat.mts';
import checkout from '../../netlify/functions/checkout.mts';
import contact from '../../netlify/functions/contact.mts';
import downloads from '../../netlify/functions/downloads.mts';
import files from '../../netlify/functions/files.mts';
import health from '../../netlify/functions/health.mts';
import checkoutSession from '../../netlify/functions/checkout-session.mts';
import stripeWebhook from '../../netlify/functions/stripe-webhook.mts';
import imageHeal from '../../netlify/functions/image-heal.mts';
import imageHints from '../../netlify/functions/image-hints.mts';
import imageReference from '../../netlify/functions/image-reference.mts';
import processVideo from '../../netlify/functions/process-video.mts';
import uploads from '../../netlify/functions/uploads.mts';
import newsletter from '../../netlify/functions/newsletter.mts';
import orders from '../../netlify/functions/orders.mts';
import processImage from '../../netlify/functions/process-image.mts';
import toolUploads from '../../netlify/functions/tool-uploads.mts';
import transformations from '../../netlify/functions/transformations.mts';
import { addressGroup, clientId } from '../../netlify/lib/client-identity';
import { closePool, query } from '../../netlify/lib/db';
import { HttpError } from '../../netlify/lib/http';
import { runMaintenance } from '../../netlify/lib/tool/maintenance';
import { UPLOAD_TTL_SECONDS } from '../../netlify/lib/tool/retention';
import { UPLOAD_URL_TTL_SECONDS } from '../../netlify/lib/storage/bucket';
import { RENDER_SLOTS, withRenderSlot } from '../../netlify/lib/tool/render-slots';
import { MAX_ACTIVE_VIDEO_JOBS } from '../../netlify/lib/tool/video';
import { HEAL_BUDGET } from '../../src/lib/tool/heal-budget';
import { MAX_HEAL_MARKS, MAX_HEAL_POINTS } from '../../src/lib/tool/image-schema';
import { deployOrigin, queueVideo } from '../../netlify/lib/tool/video';
import { videoEngineStatus } from '../../netlify/lib/video';
import { apiUrl, isAllowedOutputUrl, OutputTooLargeError, readOutput } from '../../netlify/lib/providers/replicate-urls';
import { getStorage } from '../../netlify/lib/storage';
import { createTransformation, getTransformation } from '../../netlify/lib/transformations';
import { CHAT_ERRORS } from '../../src/lib/chat/errors';
import { MAX_OUTPUT_TOKENS, maxOutputTokens } from '../../src/lib/chat/models';
import { IMAGE_PART_TOKENS } from '../../src/lib/chat/request-limits';
import { FakeReplicate } from '../support/fake-replicate';
import { replicateConnection, replicateRun } from '../../netlify/lib/providers/replicate-client';
import { databaseRateLimiter } from '../../netlify/lib/rate-limit';
import { TEST_HEALTH_SECRET, operatorHealthRequest } from '../support/operator-health';
import { invertWhiteOverlay, overlayAlpha, photoLike, psnr, rawOf } from '../support/watermark-attack';
import { watermarkOverlay, watermarkSeed } from '../../netlify/lib/media/watermark';
import { WATERMARK } from '../../src/lib/watermark-spec';
import { MSG } from '../../src/lib/messages';
import { ITEM_PRICES } from '../../src/lib/catalog';
import { toCents } from '../../src/lib/money';
import { confirmationSentence } from '../../src/lib/checkout-status';
import { CHECKOUT_LIMIT } from '../../netlify/lib/orders/place-order';
import { MAIL_LIMITS } from '../../netlify/lib/mail/order-confirmation';
import { startFakeOpenAI, type FakeOpenAI } from '../support/fake-openai';
import { FakeStripe } from '../support/fake-stripe';
import { downloadToken } from '../../netlify/lib/orders/tokens';
import { stripeClient } from '../../netlify/lib/payments/stripe';
import type { StripeSettings } from '../../netlify/lib/payments/config';
import { TEST_KEY, validBody } from './chat/helpers';
import { startEmbedded } from './platform/helpers/backends';
import { countRows, newKey, seedCompleted } from './platform/helpers/seed';

// The abuse corpus: each case drives the real functions (real Requests, the embedded database and storage)
// the way an attacker or a failing network would, and checks the answer and that nothing was written or lost.
const BASE = 'http://localhost:8888';
let platform: Awaited<ReturnType<typeof startEmbedded>>;
let fake: FakeOpenAI;
const savedEnv = { ...process.env };

beforeAll(async () => {
  platform = await startEmbedded();
  fake = await startFakeOpenAI();
});
afterAll(async () => {
  await fake?.close();
  await platform?.stop();
  process.env = { ...savedEnv };
});

/** A fresh, valid client address per call: each is its own rate-limit identity. */
let nextClient = 1 + Math.floor(Math.random() * 2 ** 20);
const client = () => { const n = nextClient++; return { ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` }; };
const count = async (table: string) => Number((await query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n);

describe('chat: the operator key cannot be run up', () => {
  beforeEach(async () => {
    fake.reset();
    Object.assign(process.env, { CHAT_API_KEY: TEST_KEY, CHAT_API_BASE_URL: fake.baseUrl, PUBLIC_SITE_URL: 'https://lumora.test' });
    for (const k of ['CHAT_DAILY_REQUESTS', 'CHAT_DAILY_TOKENS', 'CHAT_RATE_LIMIT_MAX']) delete process.env[k];
    await query(`delete from rate_limits where key like 'chat:%'`);
  });
  const send = (body: unknown, headers: Record<string, string> = {}, ctx = client()) =>
    chatFunction(new Request(`${BASE}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) }), ctx as never);
  const refused = async (res: Response, status: number, message: string) => {
    expect(res.status).toBe(status);
    expect((await res.json()).error).toBe(message);
    expect(fake.requests).toHaveLength(0);
  };

  it.each([
    ['text/plain (no CORS preflight)', { 'content-type': 'text/plain' }, 415, CHAT_ERRORS.jsonOnly],
    ['a form post', { 'content-type': 'application/x-www-form-urlencoded' }, 415, CHAT_ERRORS.jsonOnly],
    ['another site’s Origin', { origin: 'https://evil.example' }, 403, CHAT_ERRORS.crossSite],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }, 403, CHAT_ERRORS.crossSite],
    ['Sec-Fetch-Site: same-site (a sibling subdomain)', { 'sec-fetch-site': 'same-site' }, 403, CHAT_ERRORS.crossSite],
  ])('refuses %s before anything goes upstream', async (_, headers, status, message) => {
    await refused(await send(validBody(), headers), status, message);
  });

  it('accepts this site’s own Origin (control)', async () => {
    const res = await send(validBody(), { origin: 'https://lumora.test', 'sec-fetch-site': 'same-origin' });
    expect(res.status).toBe(200);
    await res.text();
  });

  it('counts a text attachment toward the 120k-character cap', async () => {
    const big = Buffer.from('x'.repeat(130_000)).toString('base64');
    const body = validBody({ messages: [{ role: 'user', content: [{ type: 'text', text: 'Summarise' }, { type: 'file', file: { filename: 'notes.txt', file_data: `data:text/plain;base64,${big}` } }] }] });
    const res = await send(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/too long/);
    expect(fake.requests).toHaveLength(0);
  });

  it('caps the reply length per model from one table', async () => {
    const res = await send(validBody({ model: 'anthropic/claude-3-opus' }));
    await res.text();
    expect((fake.requests[0]!.body as { max_tokens: number }).max_tokens).toBe(MAX_OUTPUT_TOKENS.$$$$);
  });

  it('a forged X-Forwarded-For or a rotating IPv6 address in one /64 buys no fresh limit', async () => {
    process.env.CHAT_RATE_LIMIT_MAX = '2';
    for (let i = 0; i < 2; i++) await (await send(validBody(), { 'x-forwarded-for': `198.51.100.${i}` }, { ip: `2001:db8:7:7::${i + 1}` })).text();
    await refused2(await send(validBody(), { 'x-forwarded-for': '198.51.100.99' }, { ip: '2001:db8:7:7:ffff::9' }));
    async function refused2(res: Response) {
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(fake.requests).toHaveLength(2);
  });

  it('stops every client once the site’s daily request budget is spent (in SQL, across instances)', async () => {
    process.env.CHAT_DAILY_REQUESTS = '2';
    for (let i = 0; i < 2; i++) expect((await send(validBody())).status).toBe(200);
    const res = await send(validBody());
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe(CHAT_ERRORS.budgetSpent);
    expect(fake.requests).toHaveLength(2);
  });

  it('stops once the day’s estimated tokens are spent', async () => {
    process.env.CHAT_DAILY_TOKENS = String(MAX_OUTPUT_TOKENS.$$$$ + 200);
    expect((await send(validBody({ model: 'anthropic/claude-3-opus' }))).status).toBe(200);
    const res = await send(validBody({ model: 'anthropic/claude-3-opus' }));
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe(CHAT_ERRORS.budgetSpent);
    expect(fake.requests).toHaveLength(1);
  });
});

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
    expect(first).toEqual({ success: true, message: MSG.newsletterSubscribed });
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

describe('uploads and renders cannot exhaust the server', () => {
  const grant = (body: unknown, ctx = client()) =>
    toolUploads(new Request(`${BASE}/api/tool-uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), ctx as never);

  it('30 parallel upload grants from one client: 20 granted, 10 refused with Retry-After', async () => {
    const ctx = client();
    const answers = await Promise.all(Array.from({ length: 30 }, () => grant({ kind: 'image', contentType: 'image/jpeg', size: 1000 }, ctx)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(20);
    expect(statuses.filter((s) => s === 429)).toHaveLength(10);
    const refused = answers.find((r) => r.status === 429)!;
    expect((await refused.json()).error).toBe(MSG.tooManyRequests);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it.each([
    ['a type it cannot render', { kind: 'image', contentType: 'image/gif', size: 1000 }, MSG.imageInvalidType],
    ['over 15 MB', { kind: 'image', contentType: 'image/jpeg', size: 16 * 1024 * 1024 }, MSG.uploadTooLarge],
  ])('refuses a grant for %s', async (_, body, message) => {
    const res = await grant(body);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(message);
  });

  it('processing an upload id that was never uploaded is a 400 and creates no job', async () => {
    const before = await count('media_transformations');
    const res = await processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uploadId: `${'a'.repeat(32)}.jpg`, model: 'sd-xl', prompt: 'colour' }) }), client() as never);
    expect(res.status).toBe(400);
    expect(await count('media_transformations')).toBe(before);
  });

  const slots = () => count(`work_slots where kind = 'render' and expires_at > now()`);
  const otherInstances = async (n: number, seconds = 60) => {
    for (let i = 0; i < n; i++) await query(`insert into work_slots (kind, expires_at) values ('render', now() + make_interval(secs => $1::int))`, [seconds]);
  };

  it('a render when every site-wide slot is taken (by other instances) waits, then is refused 503 without running', async () => {
    await query(`delete from work_slots`);
    await otherInstances(RENDER_SLOTS.running);
    let ran = false;
    const refused = withRenderSlot(async () => { ran = true; }, { waitMs: 600 });
    await expect(refused).rejects.toMatchObject({ status: 503, message: MSG.renderBusy });
    expect(ran).toBe(false);
    expect(await slots()).toBe(RENDER_SLOTS.running);
  });

  it('a slot another instance left behind (its lease ran out) is taken back; a finished render frees its own', async () => {
    await query(`delete from work_slots`);
    await otherInstances(RENDER_SLOTS.running - 1);
    await otherInstances(1, -1); // a dead instance's expired lease
    let during = 0;
    await withRenderSlot(async () => { during = await slots(); }, { waitMs: 0 });
    expect(during).toBe(RENDER_SLOTS.running);
    expect(await slots()).toBe(RENDER_SLOTS.running - 1);
    await query(`delete from work_slots`);
  });

  it('a video job past the site-wide number of live jobs is refused 503 before anything is stored', async () => {
    process.env.VIDEO_ENGINE = process.env.VIDEO_ENGINE ?? 'local';
    const live = await Promise.all(Array.from({ length: MAX_ACTIVE_VIDEO_JOBS }, () => createTransformation({ kind: 'video', status: 'processing' })));
    const before = await count('media_transformations');
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } }).jpeg().toBuffer();
    try {
      const error = await queueVideo({ imageData: `data:image/jpeg;base64,${photo.toString('base64')}`, prompt: 'gentle waves', mode: 'standard' } as never).then(() => null, (e: HttpError) => e);
      // Without ffmpeg the engine is unavailable: refused for that reason instead, equally before anything is stored.
      expect(error).toMatchObject({ status: 503, message: (await videoEngineStatus()).available ? MSG.videoBusy : MSG.videoUnavailable });
      expect(await count('media_transformations')).toBe(before);
    } finally {
      for (const t of live) await query(`update media_transformations set status = 'failed' where id = $1`, [t.id]);
    }
  });
});

describe('tool: bad addresses, dead jobs, private metadata', () => {
  it.each([
    ['a status read', () => transformations(new Request(`${BASE}/api/transformations/%E0%A4%A`), {})],
    ['colour hints', () => imageHints(new Request(`${BASE}/api/transformations/%E0%A4%A/hints`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hints":[]}' }), client())],
    ['an order', () => orders(new Request(`${BASE}/api/orders/%E0%A4%A?token=x`), {})],
    ['a download', () => downloads(new Request(`${BASE}/api/downloads/%E0%A4%A?token=x`), {})],
  ])('a broken percent-encoding in %s is a 400, not a 500', async (_, call) => {
    const res = await call();
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(MSG.badPathEncoding);
  });

  it('a status read changes nothing; the scheduled sweep fails only jobs past their own kind’s deadline', async () => {
    const slowImage = await createTransformation({ kind: 'image', status: 'processing' });
    const deadVideo = await createTransformation({ kind: 'video', status: 'processing' });
    const deadImage = await createTransformation({ kind: 'image', status: 'processing' });
    const age = async (id: string, seconds: number) => {
      await query(`alter table media_transformations disable trigger media_transformations_updated_at`);
      await query(`update media_transformations set updated_at = now() - make_interval(secs => $2::int) where id = $1`, [id, seconds]);
      await query(`alter table media_transformations enable trigger media_transformations_updated_at`);
    };
    await age(slowImage.id, 150); // slower than the old 120 s sweep, still inside the image deadline
    await age(deadVideo.id, 150);
    await age(deadImage.id, 3600);
    const read = await transformations(new Request(`${BASE}/api/transformations/${deadVideo.id}`), {});
    expect((await read.json()).status).toBe('processing');
    await runMaintenance();
    expect((await getTransformation(slowImage.id))!.status).toBe('processing');
    expect((await getTransformation(deadVideo.id))).toMatchObject({ status: 'failed', error: 'Video generation stopped responding. Please try again.' });
    expect((await getTransformation(deadImage.id))).toMatchObject({ status: 'failed', error: 'Processing stopped responding. Please try again.' });
  });

  it('a photo for a video is stored, and shown back, without its EXIF (no GPS)', async () => {
    const withGps = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#808080' } })
      .withExif({ IFD0: { Make: 'PhoneCo', Model: 'Snap 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .jpeg().toBuffer();
    expect((await sharp(withGps).metadata()).exif).toBeDefined();
    process.env.VIDEO_ENGINE = process.env.VIDEO_ENGINE ?? 'local';
    let t;
    try {
      t = await queueVideo({ imageData: `data:image/jpeg;base64,${withGps.toString('base64')}`, prompt: 'gentle waves', mode: 'standard' } as never);
    } catch (error) {
      // Without ffmpeg the video engine is unavailable and nothing is queued: nothing to check here.
      expect((error as HttpError).status).toBe(503);
      return;
    }
    const stored = (await getStorage().get(t.originalPath!))!;
    expect((await sharp(stored).metadata()).exif).toBeUndefined();
  });

  it('the video job is triggered on the deploy’s configured address, never a request’s Host', () => {
    expect(deployOrigin({})).toBeNull();
    expect(deployOrigin({ URL: 'https://lumora.example', DEPLOY_URL: 'https://abc--lumora.netlify.app' })).toBe('https://abc--lumora.netlify.app');
    expect(deployOrigin({ URL: 'https://lumora.example/' })).toBe('https://lumora.example');
  });
});

describe('checkout: retries never lose an order or pay twice', () => {
  const pay = (body: unknown) =>
    checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), {});

  it('20 parallel retries of one cart make one payment, and every retry gets the same order back', async () => {
    const item = await seedCompleted();
    const before = await countRows();
    const request = { items: [{ transformationId: item.id }], idempotencyKey: newKey() };
    const answers = await Promise.all(Array.from({ length: 20 }, async () => { const r = await pay(request); return { status: r.status, body: await r.json() }; }));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.body.paymentId)).size).toBe(1);
    expect(new Set(answers.map((a) => a.body.orderToken)).size).toBe(1);
    expect(new Set(answers.map((a) => JSON.stringify(a.body.downloads))).size).toBe(1);
    const after = await countRows();
    expect(after.payments - before.payments).toBe(1);
    expect(after.items - before.items).toBe(1);
  });

  it('the same key with another cart is refused and writes nothing', async () => {
    const [a, b] = [await seedCompleted(), await seedCompleted()];
    const key = newKey();
    expect((await pay({ items: [{ transformationId: a.id }], idempotencyKey: key })).status).toBe(200);
    const before = await countRows();
    const res = await pay({ items: [{ transformationId: b.id }], idempotencyKey: key });
    expect(res.status).toBe(409);
    expect(await countRows()).toEqual(before);
    expect((await getTransformation(b.id))!.purchased).toBe(false);
  });

  it('a price sent by the client is refused; the server prices the cart', async () => {
    const item = await seedCompleted();
    const before = await countRows();
    const res = await pay({ items: [{ transformationId: item.id, price: 0 }], idempotencyKey: newKey() });
    if (res.status === 200) expect((await res.json()).amount).toBe(ITEM_PRICES.image);
    else {
      expect(res.status).toBe(400);
      expect(await countRows()).toEqual(before);
    }
  });

  it('an unfinished result cannot be bought', async () => {
    const t = await createTransformation({ kind: 'image', status: 'processing' });
    const before = await countRows();
    const res = await pay({ items: [{ transformationId: t.id }], idempotencyKey: newKey() });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(await countRows()).toEqual(before);
  });
});

describe('downloads: only with the order’s token, only when paid', () => {
  it('a forged token gets nothing', async () => {
    const item = await seedCompleted();
    const res = await downloads(new Request(`${BASE}/api/downloads/${item.id}?token=${'A'.repeat(43)}`), {});
    expect([403, 404]).toContain(res.status);
    expect(res.headers.get('content-type')).toMatch(/json/);
  });

  it('an order read with another order’s token gets nothing', async () => {
    const [a, b] = [await seedCompleted(), await seedCompleted()];
    const pay = async (id: string) => (await (await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: id }], idempotencyKey: newKey() }) }), {})).json());
    const [first, second] = [await pay(a.id), await pay(b.id)];
    const res = await orders(new Request(`${BASE}/api/orders/${first.paymentId}?token=${second.orderToken}`), {});
    expect([403, 404]).toContain(res.status);
  });
});

describe('providers: the token stays home, downloads are bounded', () => {
  const base = 'https://api.replicate.com';
  it('follows a prediction’s URLs only on the API’s own origin', () => {
    expect(apiUrl('https://api.replicate.com/v1/predictions/x', base, 'fallback')).toBe('https://api.replicate.com/v1/predictions/x');
    expect(apiUrl('https://evil.example/steal', base, 'fallback')).toBe('fallback');
    expect(apiUrl('not a url', base, 'fallback')).toBe('fallback');
  });
  it.each([
    ['http://169.254.169.254/latest/meta-data', false],
    ['http://replicate.delivery/x.png', false],
    ['https://evilreplicate.delivery/x.png', false],
    ['https://replicate.delivery/pbxt/x.png', true],
    ['https://api.replicate.com/files/x.png', true],
  ])('output %s allowed: %s', (url, allowed) => {
    expect(isAllowedOutputUrl(url, base)).toBe(allowed);
  });
  it('an output over the cap is refused while streaming, undeclared or not', async () => {
    const body = new ReadableStream<Uint8Array>({ pull(c) { c.enqueue(new Uint8Array(1024)); } });
    await expect(readOutput(new Response(body), 10_000)).rejects.toBeInstanceOf(OutputTooLargeError);
    await expect(readOutput(new Response('x'.repeat(100), { headers: { 'content-length': '100' } }), 50)).rejects.toBeInstanceOf(OutputTooLargeError);
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

describe('retention: what nobody processed or bought does not pile up', () => {
  const backdate = async (sql: string, params: unknown[]) => {
    await query(`alter table media_transformations disable trigger media_transformations_updated_at`);
    await query(sql, params);
    await query(`alter table media_transformations enable trigger media_transformations_updated_at`);
  };

  it('an upload granted but never processed is deleted with its file once its link has expired, not before', async () => {
    const res = await toolUploads(new Request(`${BASE}/api/tool-uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'image', contentType: 'image/jpeg', size: 5 }) }), client() as never);
    const { uploadId } = await res.json();
    await getStorage().put(`uploads/${uploadId}`, Buffer.from('bytes'), 'image/jpeg');
    const age = (seconds: number) => query(`update upload_grants set created_at = now() - make_interval(secs => $2::int) where upload_id = $1`, [uploadId, seconds]);
    await age(UPLOAD_URL_TTL_SECONDS - 60); // its link still works: the file stays
    expect((await runMaintenance()).uploadsExpired).toBe(0);
    expect(await getStorage().get(`uploads/${uploadId}`)).not.toBeNull();
    await age(UPLOAD_TTL_SECONDS + 60);
    expect((await runMaintenance()).uploadsExpired).toBeGreaterThanOrEqual(1);
    expect(await getStorage().get(`uploads/${uploadId}`)).toBeNull();
    expect(await count('upload_grants where upload_id = ' + `'${uploadId}'`)).toBe(0);
  });

  it('an unbought result past the retention is deleted with its files; bought, recent and listed ones stay', async () => {
    const [old, recent, bought] = [await seedCompleted(), await seedCompleted(), await seedCompleted()];
    const paid = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: bought.id }], idempotencyKey: newKey() }) }), {});
    expect(paid.status).toBe(200);
    for (const t of [old, bought]) await backdate(`update media_transformations set created_at = now() - interval '90 days' where id = $1`, [t.id]);
    await runMaintenance();
    expect(await getTransformation(old.id)).toBeNull();
    expect(await getStorage().get(old.resultPath!)).toBeNull();
    expect(await getStorage().get(old.previewPath!)).toBeNull();
    expect(await getTransformation(recent.id)).not.toBeNull();
    expect(await getStorage().get(bought.resultPath!)).not.toBeNull();
    expect((await getTransformation(bought.id))!.purchased).toBe(true);
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

describe('heal work is bounded by the area marked', () => {
  /** A finished 1 MP image (sizes as the engine records them), with a clean result that must stay as it is. */
  const megapixelItem = async () => {
    const t = await seedCompleted();
    await query(`update media_transformations set hints = hints || '{"width": 1155, "height": 866}'::jsonb where id = $1`, [t.id]);
    return t;
  };
  const heal = (id: string, body: string, ctx = client()) =>
    imageHeal(new Request(`${BASE}/api/transformations/${id}/heal`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }), ctx as never);

  it('the 59 KB body of corner-to-corner strokes at the largest brush is refused with a clear 400: nothing rendered, counted or stored', async () => {
    const item = await megapixelItem();
    const marks = Array.from({ length: MAX_HEAL_MARKS }, () => ({ radius: 0.05, points: Array.from({ length: MAX_HEAL_POINTS }, (_, k) => ({ x: k % 2, y: k % 2 })) }));
    const body = JSON.stringify({ marks });
    expect(body.length).toBeGreaterThan(55_000);
    const ctx = client();
    const res = await heal(item.id, body, ctx);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/heal marks cover \d+ % of the picture/);
    expect(await count(`rate_limits where key like 'tool:heal:%'`)).toBe(0);
    expect(await count('work_slots')).toBe(0);
    expect((await getStorage().get(item.resultPath!))!.equals(item.clean)).toBe(true);
    expect((await getTransformation(item.id))!.meta.healMarks).toEqual([]);
  });

  it('thin strokes add up: many of them past the budget are refused the same way', async () => {
    const item = await megapixelItem();
    const marks = Array.from({ length: 40 }, (_, i) => ({ radius: 0.004, points: [{ x: 0, y: i / 40 }, { x: 1, y: 1 - i / 40 }] }));
    const res = await heal(item.id, JSON.stringify({ marks }));
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(new RegExp(`cover \\d+ % of the picture.*at most ${HEAL_BUDGET.maxShare * 100} %`));
  });
});

describe('checkout and mail: no relay, no flood, nothing pinned', () => {
  const outbox = () => path.join(path.dirname(process.env.STORAGE_DIR!), 'outbox');
  const mails = () => { try { return readdirSync(outbox()).filter((f) => f.endsWith('.eml')).length; } catch { return 0; } };
  const order = (email: string, ctx: object) =>
    checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'basic-restoration' }], idempotencyKey: newKey(), email }) }), ctx as never);

  beforeEach(async () => {
    for (const k of ['PAYMENTS', 'CONTEXT', 'MAIL_DAILY_LIMIT', 'SMTP_URL', 'MAIL_FROM']) delete process.env[k];
    await query(`delete from rate_limits where key like 'mail:%' or key like 'checkout:%'`);
  });

  it('40 checkouts from one client, each to another recipient: 429 after the limit, no further order or mail', async () => {
    const ctx = client();
    const [payments, sent] = [await count('payments'), mails()];
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await order(`victim${i}.${Date.now()}@example.com`, ctx)).status);
    const allowed = statuses.filter((s) => s === 200).length;
    expect(allowed).toBe(CHECKOUT_LIMIT.max);
    expect(statuses.slice(allowed)).toEqual(Array(40 - allowed).fill(429));
    expect(await count('payments')).toBe(payments + allowed);
    expect(mails()).toBe(sent + allowed);
    const refused = await order('one.more@example.com', ctx);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await refused.json()).error).toBe(MSG.tooManyCheckouts);
  });

  it('a retried checkout (same key) is not counted again: the cart’s own retries never hit the limit', async () => {
    const ctx = client();
    const body = JSON.stringify({ items: [{ packageId: 'ai-creation' }], idempotencyKey: newKey() });
    for (let i = 0; i < CHECKOUT_LIMIT.max + 5; i++) {
      expect((await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body }), ctx as never)).status).toBe(200);
    }
  });

  it('one recipient gets at most its daily confirmations; the order still succeeds and says the e-mail was not sent', async () => {
    const to = `often.${Date.now()}@example.com`;
    for (let i = 0; i < MAIL_LIMITS.perRecipient.max; i++) expect((await (await order(to, client())).json()).confirmation.status).toBe('saved');
    const sent = mails();
    const res = await order(to, client());
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.confirmation).toEqual({ status: 'limited', to: expect.stringMatching(/^o…@example\.com$/) });
    expect(confirmationSentence(body.confirmation)).toBe(MSG.confirmationLimited(body.confirmation.to));
    expect(mails()).toBe(sent);
  });

  it('the site sends at most its daily number of e-mails in all', async () => {
    process.env.MAIL_DAILY_LIMIT = '2';
    for (let i = 0; i < 2; i++) expect((await (await order(`first${i}.${Date.now()}@example.com`, client())).json()).confirmation.status).toBe('saved');
    const sent = mails();
    const body = await (await order(`third.${Date.now()}@example.com`, client())).json();
    expect(body).toMatchObject({ success: true, confirmation: { status: 'limited' } });
    expect(mails()).toBe(sent);
  });

  it('a production deploy without PAYMENTS refuses checkout (503) and says why in health; nothing written', async () => {
    process.env.CONTEXT = 'production';
    try {
      const before = await count('payments');
      const res = await order(`prod.${Date.now()}@example.com`, client());
      expect(res.status).toBe(503);
      expect((await res.json()).error).toBe(MSG.paymentsUnavailable);
      expect(await count('payments')).toBe(before);
      const status = await health(new Request(`${BASE}/api/health`));
      expect((await status.json()).payments).toEqual({ mode: 'misconfigured' });
      process.env.PAYMENTS = 'demo';
      expect((await order(`prod2.${Date.now()}@example.com`, client())).status).toBe(200);
    } finally {
      delete process.env.CONTEXT;
    }
  });

  it('an unpaid checkout expires and releases its item: the result nobody bought is cleaned up as usual', async () => {
    const item = await seedCompleted();
    const [pending] = await query<{ payment_id: string }>(`select payment_id from place_order($1::jsonb, $2, 'stripe')`, [JSON.stringify([{ transformationId: item.id }]), newKey()]);
    await query(`update payments set created_at = now() - interval '2 days' where id = $1`, [pending!.payment_id]);
    await query(`alter table media_transformations disable trigger media_transformations_updated_at`);
    await query(`update media_transformations set created_at = now() - interval '90 days' where id = $1`, [item.id]);
    await query(`alter table media_transformations enable trigger media_transformations_updated_at`);
    const done = await runMaintenance();
    expect(done.checkoutsExpired).toBeGreaterThanOrEqual(1);
    expect((await query<{ status: string }>(`select status from payments where id = $1`, [pending!.payment_id]))[0]!.status).toBe('failed');
    expect(await getTransformation(item.id)).toBeNull();
    expect(await getStorage().get(item.resultPath!)).toBeNull();
  });
});

describe('downloads are bound to the sale that made them', () => {
  const stripe = new FakeStripe();
  beforeAll(async () => { await stripe.start(); });
  afterAll(async () => { await stripe.stop(); });
  beforeEach(() => { Object.assign(process.env, stripe.env(), { DEPLOY_URL: BASE }); });
  afterEach(() => { for (const k of ['PAYMENTS', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE', 'DEPLOY_URL']) delete process.env[k]; });

  const send = async (event: ReturnType<FakeStripe['event']>) => {
    const { payload, signature } = stripe.sign(event);
    return stripeWebhook(new Request(`${BASE}/api/stripe-webhook`, { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload }), {});
  };
  const open = async (itemId: string) => {
    const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: itemId }], idempotencyKey: newKey() }) }), client() as never);
    const body = await res.json();
    return { paymentId: body.paymentId as string, sessionId: new URL(body.checkoutUrl).pathname.split('/').pop()! };
  };
  const orderOf = async (sessionId: string) => (await checkoutSession(new Request(`${BASE}/api/checkout/sessions/${sessionId}`), {})).json();
  const fetchFile = (url: string) => downloads(new Request(`${BASE}${url}`), {});
  const rows = async () => ({
    payments: await query('select id, status from payments order by id'),
    items: await query('select payment_id, sold, refund_id from payment_items order by id'),
    events: await count('stripe_events'),
  });

  it('paid twice in two tabs: the second payment sells nothing, is refunded through the API, and its link is refused', async () => {
    const item = await seedCompleted();
    const [first, second] = [await open(item.id), await open(item.id)];
    expect((await send(stripe.event('checkout.session.completed', stripe.pay(first.sessionId)))).status).toBe(200);
    const duplicate = await send(stripe.event('checkout.session.completed', stripe.pay(second.sessionId)));
    expect(await duplicate.json()).toMatchObject({ applied: true, status: 'completed', refundId: expect.stringMatching(/^re_/) });
    const order = await orderOf(second.sessionId);
    expect(order.downloads).toEqual([]);
    expect(order.items).toEqual([expect.objectContaining({ transformationId: item.id, duplicate: 'refunded' })]);
    expect(stripe.refunds).toEqual([expect.objectContaining({ payment_intent: stripe.sessions.get(second.sessionId)!.payment_intent, amount: toCents(ITEM_PRICES.image) })]);
    // A link bound to the duplicate payment opens nothing; the sale's own link works.
    const refused = await fetchFile(`/api/downloads/${item.id}?token=${downloadToken(second.paymentId, item.id)}`);
    expect(refused.status).toBe(403);
    const sale = await orderOf(first.sessionId);
    expect((await fetchFile(sale.downloads[0].url)).status).toBe(200);
    // Stripe then reports the duplicate payment refunded in full: it ends refunded; the sale is untouched.
    const refundedEvent = await send(stripe.event('charge.refunded', stripe.refundedCharge(second.sessionId, toCents(ITEM_PRICES.image))));
    expect(await refundedEvent.json()).toMatchObject({ applied: true, status: 'refunded' });
    expect((await fetchFile(sale.downloads[0].url)).status).toBe(200);
    expect((await getTransformation(item.id))!.purchased).toBe(true);
  });

  it('a dispute (chargeback) revokes the download at once', async () => {
    const item = await seedCompleted();
    const { sessionId } = await open(item.id);
    await send(stripe.event('checkout.session.completed', stripe.pay(sessionId)));
    const link = (await orderOf(sessionId)).downloads[0].url;
    expect((await fetchFile(link)).status).toBe(200);
    const disputed = await send(stripe.event('charge.dispute.created', stripe.dispute(sessionId)));
    expect(await disputed.json()).toMatchObject({ applied: true, status: 'disputed' });
    expect((await fetchFile(link)).status).toBe(403);
    expect(await orderOf(sessionId)).toMatchObject({ status: 'disputed', downloads: [] });
    expect((await getTransformation(item.id))!.purchased).toBe(false);
  });

  it('a session, refund or dispute this site did not make is acknowledged (200) and ignored: nothing changes', async () => {
    const settings = stripe.env();
    const api = stripeClient({ secretKey: settings.STRIPE_SECRET_KEY!, webhookSecret: settings.STRIPE_WEBHOOK_SECRET!, api: { host: '127.0.0.1', port: Number(new URL(stripe.base).port), protocol: 'http' } } satisfies StripeSettings);
    const foreign = await api.checkout.sessions.create({ mode: 'payment', line_items: [{ quantity: 1, price_data: { currency: 'usd', unit_amount: 500, product_data: { name: 'Another shop' } } }], success_url: 'https://other.example/done' });
    const before = await rows();
    for (const event of [
      stripe.event('checkout.session.completed', stripe.pay(foreign.id)),
      stripe.event('charge.refunded', stripe.refundedCharge(foreign.id)),
      stripe.event('charge.dispute.created', stripe.dispute(foreign.id)),
    ]) {
      const res = await send(event);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ received: true, applied: false, reason: expect.stringMatching(/not made by this site/) });
    }
    expect(await rows()).toEqual(before);
    expect(stripe.refunds.filter((r) => r.payment_intent === stripe.sessions.get(foreign.id)!.payment_intent)).toEqual([]);
  });

  it('a refund of this site’s charge that arrives before its completion is answered 404, so Stripe delivers it again later', async () => {
    const item = await seedCompleted();
    const { sessionId } = await open(item.id);
    stripe.pay(sessionId); // paid at Stripe; the completion event has not landed here yet
    const before = await rows();
    expect((await send(stripe.event('charge.refunded', stripe.refundedCharge(sessionId)))).status).toBe(404);
    expect(await rows()).toEqual(before);
  });
});

describe('uploads keep no location data', () => {
  /** A phone photo: camera make and model, GPS, and (optionally) an orientation tag. */
  const phonePhoto = (width: number, height: number, orientation?: number) => {
    const raw = Buffer.alloc(width * height * 3);
    for (let i = 0; i < width * height; i++) raw.set(i % width < width / 2 ? [200, 60, 40] : [40, 90, 200], i * 3);
    return sharp(raw, { raw: { width, height, channels: 3 } })
      .withMetadata(orientation ? { orientation } : {})
      .withExifMerge({ IFD0: { Make: 'PhoneCo', Model: 'Snap 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' } })
      .jpeg({ quality: 95 })
      .toBuffer();
  };
  const restore = async (bytes: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), 'phone.jpg');
    form.append('model', 'sd-v1.5');
    form.append('prompt', 'Restore and colour this photo');
    const res = await processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', body: form }), client() as never);
    expect(res.status).toBe(200);
    return (await res.json()).transformationId as string;
  };
  const served = async (url: string) => Buffer.from(await (await files(new Request(new URL(url, BASE)), {})).arrayBuffer());
  const noMetadata = async (bytes: Buffer) => {
    const meta = await sharp(bytes).metadata();
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes('PhoneCo')).toBe(false);
    return meta;
  };

  it('the original the status answer serves back (originalImageUrl), the display copy and the preview carry no EXIF, GPS or camera', async () => {
    const photo = await phonePhoto(96, 64);
    expect(photo.includes('PhoneCo')).toBe(true);
    expect((await sharp(photo).metadata()).exif).toBeDefined();
    const id = await restore(photo);
    const status = await (await transformations(new Request(`${BASE}/api/transformations/${id}`), {})).json();
    for (const url of [status.originalImageUrl, status.originalUrl, status.processedUrl]) await noMetadata(await served(url));
    // And what is kept in storage: nothing there to leak later either.
    await noMetadata((await getStorage().get((await getTransformation(id))!.originalPath!))!);
  });

  it('the orientation is applied before the metadata goes: a sideways phone photo is stored upright', async () => {
    const id = await restore(await phonePhoto(96, 64, 6));
    const stored = await noMetadata((await getStorage().get((await getTransformation(id))!.originalPath!))!);
    expect([stored.width, stored.height, stored.orientation]).toEqual([64, 96, undefined]);
  });

  it('a colour reference photo is stored without its metadata', async () => {
    const grey = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#777' } }).jpeg().toBuffer();
    const id = await restore(grey);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await phonePhoto(96, 64))], { type: 'image/jpeg' }), 'reference.jpg');
    const res = await imageReference(new Request(`${BASE}/api/transformations/${id}/reference`, { method: 'POST', body: form }), client() as never);
    expect(res.status).toBe(200);
    await noMetadata((await getStorage().get((await getTransformation(id))!.meta.referencePath!))!);
  });
});

describe('the smaller findings', () => {
  const grantUpload = async () => (await toolUploads(new Request(`${BASE}/api/tool-uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'image', contentType: 'image/png', size: 1000 }) }), client() as never)).json();
  const put = (url: string, bytes: Buffer) => uploads(new Request(new URL(url, BASE), { method: 'PUT', headers: { 'content-type': 'image/png' }, body: new Uint8Array(bytes) }), {});
  const processUpload = (uploadId: string) => processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ uploadId, model: 'sd-v1.5', prompt: 'colour it please' }) }), client() as never);

  it('an upload link cannot be used again once its upload is processed: a second PUT is refused and stores nothing', async () => {
    const grant = await grantUpload();
    const photo = await sharp({ create: { width: 48, height: 32, channels: 3, background: '#888' } }).png().toBuffer();
    expect((await put(grant.upload.url, photo)).status).toBe(200);
    expect((await processUpload(grant.uploadId)).status).toBe(200);
    expect(await getStorage().get(`uploads/${grant.uploadId}`)).toBeNull();
    const again = await put(grant.upload.url, photo);
    expect(again.status).toBe(403);
    expect((await again.json()).error).toBe(MSG.uploadLinkUsed);
    expect(await getStorage().get(`uploads/${grant.uploadId}`)).toBeNull();
    // Nor is the same upload processed twice (on Supabase the PUT cannot be refused; its file is swept).
    await getStorage().put(`uploads/${grant.uploadId}`, photo, 'image/png');
    const jobs = await count('media_transformations');
    expect((await processUpload(grant.uploadId)).status).toBe(400);
    expect(await count('media_transformations')).toBe(jobs);
    await query(`update upload_grants set created_at = now() - make_interval(secs => $2::int) where upload_id = $1`, [grant.uploadId, UPLOAD_TTL_SECONDS + 60]);
    await runMaintenance();
    expect(await getStorage().get(`uploads/${grant.uploadId}`)).toBeNull();
  });

  it('the chat’s daily token budget counts images: a conversation of images is stopped once it is spent, before the model is called', async () => {
    Object.assign(process.env, { CHAT_API_KEY: TEST_KEY, CHAT_API_BASE_URL: fake.baseUrl, PUBLIC_SITE_URL: 'https://lumora.test' });
    await query(`delete from rate_limits where key like 'chat:%'`);
    fake.reset();
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${(await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer()).toString('base64')}` } };
    const body = validBody({ model: 'openai/gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image, image, image] }] });
    process.env.CHAT_DAILY_TOKENS = String(maxOutputTokens('openai/gpt-4o') + 3 * IMAGE_PART_TOKENS + 10);
    try {
      const send = () => chatFunction(new Request(`${BASE}/api/chat`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }), client() as never);
      expect((await send()).status).toBe(200);
      const refused = await send();
      expect(refused.status).toBe(503);
      expect((await refused.json()).error).toBe(CHAT_ERRORS.budgetSpent);
      expect(fake.requests).toHaveLength(1);
    } finally {
      delete process.env.CHAT_DAILY_TOKENS;
    }
  });

  it('the hosted AI provider is called at most its daily number of times for the whole site', async () => {
    const replicate = await new FakeReplicate(() => ({ script: [{ status: 'succeeded', output: 'data:text/plain;base64,b2s=' }] })).start();
    try {
      await query(`delete from rate_limits where key like 'provider:%'`);
      process.env.REPLICATE_DAILY_PREDICTIONS = '2';
      const conn = replicateConnection({ REPLICATE_API_TOKEN: replicate.token, REPLICATE_API_URL: replicate.base, REPLICATE_POLL_MS: '10' }, 10_000)!;
      const run = () => replicateRun(conn, undefined, databaseRateLimiter).predict({ model: 'owner/model' }, { image: 'x' });
      await run();
      await run();
      await expect(run()).rejects.toMatchObject({ kind: 'http', status: 429 });
      expect(replicate.requests.filter((r) => r.method === 'POST')).toHaveLength(2);
    } finally {
      delete process.env.REPLICATE_DAILY_PREDICTIONS;
      await replicate.stop();
    }
  });

  it('/api/health tells the public only yes or no, video and the payment mode; the details need the operator’s secret', async () => {
    process.env.HEALTH_SECRET = TEST_HEALTH_SECRET;
    const open = await health(new Request(`${BASE}/api/health`));
    expect(open.status).toBe(200);
    const publicBody = await open.json();
    expect(Object.keys(publicBody).sort()).toEqual(['ok', 'payments', 'video']);
    expect(publicBody).toEqual({ ok: true, video: { available: expect.any(Boolean) }, payments: { mode: 'demo' } });
    for (const authorization of ['Bearer wrong-secret-0123456789', 'Basic xyz', `Bearer ${TEST_HEALTH_SECRET}x`]) {
      expect(Object.keys(await (await health(new Request(`${BASE}/api/health`, { headers: { authorization } }))).json()).sort()).toEqual(['ok', 'payments', 'video']);
    }
    const details = await (await health(operatorHealthRequest(`${BASE}/api/health`))).json();
    expect(details).toMatchObject({ ok: true, platform: { database: 'embedded-pglite', ok: true }, chat: expect.any(Object), csp: expect.any(Object) });
    // A secret too short to be one opens nothing.
    process.env.HEALTH_SECRET = 'short';
    expect(Object.keys(await (await health(new Request(`${BASE}/api/health`, { headers: { authorization: 'Bearer short' } }))).json())).not.toContain('platform');
    delete process.env.HEALTH_SECRET;
  });

  it('/api/health answers 503 when the database does not answer', async () => {
    const url = process.env.DATABASE_URL;
    process.env.DATABASE_URL = 'postgres://nobody:nothing@127.0.0.1:1/none';
    try {
      const res = await health(new Request(`${BASE}/api/health`));
      expect(res.status).toBe(503);
      expect((await res.json()).ok).toBe(false);
    } finally {
      process.env.DATABASE_URL = url;
      await closePool();
    }
  });

  it('rate-limit windows long over are pruned by the maintenance; current ones stay', async () => {
    await query(`insert into rate_limits (key, window_start, count) values ('test:old', now() - interval '3 days', 5), ('test:current', now(), 1) on conflict (key) do nothing`);
    expect((await runMaintenance()).rateLimitsPruned).toBeGreaterThanOrEqual(1);
    expect(await count(`rate_limits where key = 'test:old'`)).toBe(0);
    expect(await count(`rate_limits where key = 'test:current'`)).toBe(1);
  });

  it('the local outbox is readable by the server’s user only', async () => {
    const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'family-package' }], idempotencyKey: newKey(), email: `private.${Date.now()}@example.com` }) }), client() as never);
    expect((await res.json()).confirmation.status).toBe('saved');
    const dir = path.join(path.dirname(process.env.STORAGE_DIR!), 'outbox');
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(dir)) expect(statSync(path.join(dir, file)).mode & 0o077).toBe(0);
  });
});

describe('the preview does not give the product away', () => {
  it('a 1200 × 900 restoration’s preview is capped at 1024 px, and inverting its known overlay stays far from the bought file on the marked pixels', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await photoLike(1200, 900))], { type: 'image/jpeg' }), 'photo.jpg');
    form.append('model', 'sd-v1.5');
    form.append('prompt', 'Restore this photo please');
    const res = await processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', body: form }), client() as never);
    expect(res.status).toBe(200);
    const { transformationId: id, processedUrl } = await res.json();
    const preview = Buffer.from(await (await files(new Request(new URL(processedUrl, BASE)), {})).arrayBuffer());
    const { width = 0, height = 0 } = await sharp(preview).metadata();
    expect(Math.max(width, height)).toBe(WATERMARK.previewMaxSide);
    // The attacker is handed the item's exact overlay (in reality it needs the site's secret to compute).
    const alpha = await overlayAlpha(await watermarkOverlay(width, height, WATERMARK.text, watermarkSeed(id)));
    const clean = (await getStorage().get((await getTransformation(id))!.resultPath!))!;
    const reference = await rawOf(clean, { width, height });
    const marked = (p: number) => alpha[p]! > 0;
    expect(psnr(invertWhiteOverlay(await rawOf(preview), alpha), reference, marked)).toBeLessThanOrEqual(22);
    expect(psnr(await rawOf(preview), reference, (p) => !marked(p))).toBeGreaterThan(30);
  });
});
