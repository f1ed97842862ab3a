import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import health from '../../../netlify/functions/health.mts';
import { query } from '../../../netlify/lib/db';
import { runOutbox } from '../../../netlify/lib/delivery/worker';
import { findImagePackage, formatPrice } from '../../../src/lib/catalog';
import { guidePath } from '../../../src/lib/guides';
import { MSG } from '../../../src/lib/messages';
import { operatorHealthRequest } from '../../support/operator-health';
import { startWebhookReceiver, verifyStandardSignature } from '../../support/webhook-receiver';
import { newKey, seedCompleted } from '../platform/helpers/seed';
import { addressOf, BASE, client, deliveries, OWNER, parse, sendContact, sendLead, SITE, testClock, useOutboxPlatform } from './helpers';

// The owner's notices and the visitors' e-mails as they arrive: over a real SMTP server on loopback and at local
// webhook receivers speaking Standard Webhooks, Slack's and Discord's incoming-webhook formats.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const platform = useOutboxPlatform();
afterEach(() => {
  delete process.env.NOTIFY_WEBHOOK_URL;
  delete process.env.NOTIFY_WEBHOOK_SECRET;
});

const mailTo = (address: string) => platform.sink().messages.filter((m) => m.to.includes(address));

describe('the owner’s webhook', () => {
  it('a receiver that fails 3 times then succeeds gets the notice once, every attempt signed as Standard Webhooks specify', async () => {
    const hook = await startWebhookReceiver({ flavour: 'standard', secret: SECRET, failFirst: 3 });
    Object.assign(process.env, { NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_WEBHOOK_SECRET: SECRET });
    try {
      const run = randomUUID().slice(0, 8);
      await sendContact({ name: 'Ada Hook', email: `ada.${run}@example.com`, message: `Please call about 300 photos [${run}]` });
      const clock = testClock();
      for (let pass = 0; pass < 6; pass++) await runOutbox({ now: pass ? clock.later() : clock.now() });
      expect(hook.received.map((r) => r.status)).toEqual([503, 503, 503, 204]);
      expect(hook.accepted()).toHaveLength(1);
      // The same id on every attempt (the receiver's idempotency key), a fresh valid signature on each.
      expect(new Set(hook.received.map((r) => r.headers['webhook-id'])).size).toBe(1);
      expect(hook.received.every((r) => r.signatureValid)).toBe(true);
      const body = JSON.parse(hook.accepted()[0]!.body);
      expect(body).toMatchObject({ type: 'contact.message', data: { name: 'Ada Hook', email: `ada.${run}@example.com`, message: `Please call about 300 photos [${run}]` }, allowed_mentions: { parse: [] } });
      expect(body.text).toContain(`[${run}]`);
      expect(body.text).toContain(`${SITE}/admin/inbox#messages`);
      const [delivery] = await deliveries(`d.channel = 'owner-webhook' and d.id::text = $1`, [String(hook.received[0]!.headers['webhook-id'])]);
      expect(delivery).toMatchObject({ status: 'sent', attempts: 4 });
      // A signature over another body, or from another key, does not verify (the check can fail).
      const last = hook.accepted()[0]!;
      expect(verifyStandardSignature(SECRET, last.headers, last.body.replace(run, 'other'))).toBe(false);
      expect(verifyStandardSignature('whsec_c2VjcmV0LW9mLWEtcm90YXRlZC1lbmRwb2ludA==', last.headers, last.body)).toBe(false);
    } finally {
      await hook.stop();
    }
  });

  it.each(['slack', 'discord'] as const)('a %s incoming webhook takes the notice as it is', async (flavour) => {
    const hook = await startWebhookReceiver({ flavour });
    process.env.NOTIFY_WEBHOOK_URL = hook.url;
    try {
      await sendContact({ name: 'Eve <@everyone>', email: `eve.${randomUUID()}@example.com`, message: 'Hello <https://evil.example|click> & bye' });
      await runOutbox();
      expect(hook.accepted()).toHaveLength(1);
      const body = JSON.parse(hook.accepted()[0]!.body);
      // Slack reads &, < and > as markup: escaped in `text`; Discord mentions nobody.
      expect(body.text).toContain('Hello &lt;https://evil.example|click&gt; &amp; bye');
      expect(body.content).toContain('Hello <https://evil.example|click> & bye');
      expect(body.allowed_mentions).toEqual({ parse: [] });
      // Unsigned without NOTIFY_WEBHOOK_SECRET, and /api/health tells the operator so.
      expect(hook.received[0]!.headers['webhook-signature']).toBeUndefined();
    } finally {
      await hook.stop();
    }
  });

  it('a notice that keeps failing raises the alert: /api/health says degraded, the operator sees what; sent, it clears', async () => {
    const hook = await startWebhookReceiver({ flavour: 'standard', secret: SECRET, failFirst: 1000 });
    Object.assign(process.env, { NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_WEBHOOK_SECRET: SECRET });
    try {
      await sendContact({ name: 'Alert', email: `alert.${randomUUID()}@example.com`, message: 'alert test' });
      const clock = testClock();
      for (let pass = 0; pass < 4; pass++) await runOutbox({ now: clock.later() });
      expect((await (await health(new Request(`${BASE}/api/health`))).json()).status).toBe('ok');
      await runOutbox({ now: clock.later() });
      const open = await health(new Request(`${BASE}/api/health`));
      expect(open.status).toBe(200);
      const publicBody = await open.json();
      expect(publicBody).toMatchObject({ ok: true, status: 'degraded' });
      expect(JSON.stringify(publicBody)).not.toContain('webhook');
      const details = await (await health(operatorHealthRequest(`${BASE}/api/health`))).json();
      expect(details.outbox).toMatchObject({ ok: false, failing: 1, channels: { webhook: 'signed', ownerEmail: [OWNER] } });
      expect(details.outbox.alerts[0]).toMatchObject({ kind: 'contact.message', channel: 'owner-webhook', attempts: 5, lastError: expect.stringContaining('503') });
      expect(details.outbox.problems.join(' ')).toMatch(/keeps failing/);
      await hook.stop();
      const good = await startWebhookReceiver({ flavour: 'standard', secret: SECRET });
      process.env.NOTIFY_WEBHOOK_URL = good.url;
      await runOutbox({ now: clock.later() });
      expect(good.accepted()).toHaveLength(1);
      expect((await (await health(new Request(`${BASE}/api/health`))).json()).status).toBe('ok');
      await good.stop();
    } finally {
      await hook.stop();
    }
  });
});

describe('orders', () => {
  it('a paid package order: the owner’s notice within one worker pass, with what the package gives; the buyer’s confirmation at once', async () => {
    const pkg = findImagePackage('family-package')!;
    const hook = await startWebhookReceiver({ flavour: 'standard', secret: SECRET });
    Object.assign(process.env, { NOTIFY_WEBHOOK_URL: hook.url, NOTIFY_WEBHOOK_SECRET: SECRET });
    try {
      const buyer = `buyer.${randomUUID()}@example.com`;
      const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: pkg.id }], idempotencyKey: newKey(), email: buyer }) }), client() as never);
      const order = await res.json();
      expect(order.confirmation).toEqual({ status: 'sent', to: expect.stringMatching(/^b…@example\.com$/) });
      expect(mailTo(buyer)).toHaveLength(1);
      expect(mailTo(OWNER).filter((m) => m.raw.includes(order.paymentId))).toHaveLength(0);

      expect(await runOutbox()).toMatchObject({ sent: 2, failed: 0 });
      const notices = mailTo(OWNER).filter((m) => m.raw.includes(order.paymentId));
      expect(notices).toHaveLength(1);
      const mail = await parse(notices[0]!);
      expect(mail.subject).toBe(`Package bought: ${pkg.name} — ${formatPrice(pkg.priceValue)}`);
      expect(mail.text).toContain(`${pkg.name} — ${formatPrice(pkg.priceValue)}`);
      expect(mail.text).toContain(`${pkg.name}: what the package gives:`);
      for (const feature of pkg.features) expect(mail.text).toContain(feature);
      // The buyer's address only masked outside the inbox.
      expect(mail.text).not.toContain(buyer);
      const hookBody = JSON.parse(hook.accepted()[0]!.body);
      expect(hookBody).toMatchObject({ type: 'order.paid', data: { paymentId: order.paymentId, amount: pkg.priceValue, items: [{ packageId: pkg.id, allowance: { features: pkg.features } }] } });
      expect(JSON.stringify(hookBody)).not.toContain(buyer);
    } finally {
      await hook.stop();
    }
  });

  it('each payment event is written once by the database, whichever code moves the payment', async () => {
    const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'basic-restoration' }], idempotencyKey: newKey() }) }), client() as never);
    const { paymentId } = await res.json();
    const events = (kind: string) => query(`select id from outbox_events where kind = $1 and ref = $2`, [kind, paymentId]);
    expect(await events('order.paid')).toHaveLength(1);
    // No address: the buyer's channel says so and sends nothing.
    await runOutbox();
    expect((await deliveries(`e.ref = $1 and d.channel = 'visitor-email'`, [paymentId]))[0]).toMatchObject({ status: 'skipped', detail: 'no e-mail address was given at checkout' });
    await query(`update payments set status = 'refunded' where id = $1`, [paymentId]);
    await query(`update payments set status = 'refunded' where id = $1`, [paymentId]);
    expect(await events('order.refunded')).toHaveLength(1);
    expect(await events('order.paid')).toHaveLength(1);
    await runOutbox();
    const refund = (await Promise.all(mailTo(OWNER).map(parse))).filter((m) => m.text!.includes(paymentId) && /refunded/.test(m.text!));
    expect(refund).toHaveLength(1);
  });

  it('a job that fails once it is paid for tells the owner, once; an unpaid job’s failure tells nobody', async () => {
    const [paid, unpaid] = [await seedCompleted('image'), await seedCompleted('image')];
    const res = await checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId: paid.id }], idempotencyKey: newKey() }) }), client() as never);
    const { paymentId } = await res.json();
    for (const id of [paid.id, paid.id, unpaid.id]) await query(`update media_transformations set status = 'failed', error = 'the re-render crashed' where id = $1`, [id]);
    expect(await query(`select ref from outbox_events where kind = 'job.failed_after_payment'`)).toEqual([{ ref: paid.id }]);
    await runOutbox();
    const notice = (await Promise.all(mailTo(OWNER).map(parse))).filter((m) => m.subject === 'A paid image job failed');
    expect(notice).toHaveLength(1);
    expect(notice[0]!.text).toContain(paid.id);
    expect(notice[0]!.text).toContain(paymentId);
    expect(notice[0]!.text).toContain('the re-render crashed');
  });
});

describe('leads and the free guide', () => {
  it.each([false, true])('a lead gets its guide’s link whether or not the newsletter box is ticked (ticked: %s), and the owner a notice', async (ticked) => {
    const email = `lead.${randomUUID()}@example.com`;
    const res = await sendLead({ name: 'Lee', email, source: 'image-restoration', guide: 'prepare-old-photos-for-restoration', newsletter: ticked });
    expect(await res.json()).toEqual({ success: true, message: MSG.leadConfirmation });
    await runOutbox();
    const mine = await Promise.all(mailTo(email).map(parse));
    const guide = mine.filter((m) => m.subject === 'Your free guide from Lumora AI');
    expect(guide).toHaveLength(1);
    expect(guide[0]!.text).toContain(`${SITE}${guidePath('prepare-old-photos-for-restoration')}`);
    expect(mine.filter((m) => /confirm your subscription/i.test(m.subject ?? ''))).toHaveLength(ticked ? 1 : 0);
    const owner = (await Promise.all(mailTo(OWNER).map(parse))).filter((m) => m.text!.includes(email));
    expect(owner).toHaveLength(1);
    expect(addressOf(owner[0]!.replyTo)).toBe(email);
    expect(owner[0]!.text).toContain(ticked ? 'asked to subscribe' : 'Newsletter: not asked');
  });

  it('refuses a guide name that is not a file name, storing nothing', async () => {
    const before = await query<{ n: number }>('select count(*)::int as n from leads');
    const res = await sendLead({ name: 'Lee', email: 'lee@example.com', guide: '../../etc/passwd' });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('guide: Unknown guide');
    expect(await query<{ n: number }>('select count(*)::int as n from leads')).toEqual(before);
  });
});

describe('submissions the spam guard doubts', () => {
  it('are answered like a success, notified one by one to nobody, and listed once in the next day’s digest', async () => {
    const run = randomUUID().slice(0, 8);
    const res = await sendContact({ name: 'Maybe Real', email: `maybe.${run}@example.com`, message: `I really exist [${run}]`, company_website: 'autofill.example' });
    expect(await res.json()).toEqual({ success: true, message: MSG.contactSent });
    expect(await query('select 1 from contact_messages where message like $1', [`%[${run}]%`])).toHaveLength(0);
    const [doubt] = await query<{ form: string; fields: Record<string, string> }>(`select form, fields from form_doubts where fields->>'message' like $1`, [`%[${run}]%`]);
    expect(doubt).toMatchObject({ form: 'contact', fields: { name: 'Maybe Real', company_website: 'autofill.example' } });
    const before = platform.sink().messages.length;
    await runOutbox();
    expect(platform.sink().messages.length).toBe(before);
    const tomorrow = new Date(Date.now() + 86_400_000);
    expect((await runOutbox({ now: tomorrow })).digests).toBe(1);
    expect((await runOutbox({ now: tomorrow })).digests).toBe(0);
    const digests = (await Promise.all(platform.sink().messages.slice(before).filter((m) => m.to.includes(OWNER)).map(parse))).filter((m) => /doubtful form submission/.test(m.subject ?? ''));
    expect(digests).toHaveLength(1);
    expect(digests[0]!.text).toContain(`[${run}]`);
  });
});
