import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { query } from '../../../netlify/lib/db';
import { claimDue } from '../../../netlify/lib/outbox/store';
import { runOutbox } from '../../../netlify/lib/delivery/worker';
import { MSG } from '../../../src/lib/messages';
import { startSmtpSink } from '../../support/smtp-sink';
import { backends, type StartedBackend } from '../platform/helpers/backends';
import { addressOf, clearOutbox, deliveries, freePort, OWNER, outboxEnv, parse, sendContact, testClock } from './helpers';

// The target: 50 contact messages sent while the mail server is down, then the server comes up — 50 owner notices
// and 50 receipts arrive over real SMTP, none twice, none lost, with four workers passing at the same moment. On the
// embedded database and on Debian's PostgreSQL, where the workers really run side by side (SKIP LOCKED).
const MESSAGES = 50;
const env = outboxEnv();

for (const backend of backends) {
  describe.skipIf(!backend.available)(`the outbox on ${backend.name}${backend.note ? ` (${backend.note})` : ''}`, () => {
    let started: StartedBackend | undefined;
    beforeAll(async () => {
      started = await backend.start();
      env.apply();
    });
    afterAll(async () => {
      env.restore();
      await started?.stop();
    });
    beforeEach(clearOutbox);

    it(`keeps ${MESSAGES} messages through a mail server outage and delivers each notice and receipt exactly once`, async () => {
      const port = await freePort();
      process.env.SMTP_URL = `smtp://127.0.0.1:${port}`;
      const run = randomUUID().slice(0, 8);
      const visitor = (i: number) => `visitor${i}.${run}@example${i % 5}.org`;
      for (let i = 0; i < MESSAGES; i++) {
        const res = await sendContact({ name: `Visitor ${i}`, email: visitor(i), message: `We need 300 photos restored for a museum, please call. [${run}-${i}]` });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ success: true, message: MSG.contactSent });
      }
      const mine = `e.kind = 'contact.message' and e.ref in (select id::text from contact_messages where message like $1)`;
      expect(await deliveries(mine, [`%[${run}-%`])).toHaveLength(MESSAGES * 3);

      // The mail server is down: every e-mail fails, nothing is lost, each waits for its retry.
      const clock = testClock();
      const down = await runOutbox({ now: clock.now() });
      expect(down).toMatchObject({ sent: 0, failed: MESSAGES * 2, skipped: MESSAGES });
      const waiting = await deliveries(`${mine} and d.channel <> 'owner-webhook'`, [`%[${run}-%`]);
      expect(waiting.every((d) => d.status === 'pending' && d.attempts === 1 && /ECONNREFUSED/.test(d.last_error ?? ''))).toBe(true);

      // It comes back on the same port; four workers pass at once, claiming a few deliveries at a time, so their
      // claims overlap many times over.
      const sink = await startSmtpSink({ port });
      try {
        const at = clock.later();
        const passes = await Promise.all(Array.from({ length: 4 }, () => runOutbox({ now: at, batchSize: 3, concurrency: 2 })));
        expect(passes.reduce((n, p) => n + p.sent, 0)).toBe(MESSAGES * 2);
        expect(passes.reduce((n, p) => n + p.failed, 0)).toBe(0);
        // A later pass finds nothing more to send.
        expect((await runOutbox({ now: clock.later() })).sent).toBe(0);

        const mails = await Promise.all(sink.messages.map(async (m) => ({ envelope: m, parsed: await parse(m) })));
        const owner = mails.filter((m) => m.envelope.to.includes(OWNER));
        const receipts = mails.filter((m) => !m.envelope.to.includes(OWNER));
        expect(owner).toHaveLength(MESSAGES);
        expect(receipts).toHaveLength(MESSAGES);
        for (let i = 0; i < MESSAGES; i++) {
          const marker = `[${run}-${i}]`;
          const notices = owner.filter((m) => m.parsed.text!.includes(marker));
          expect(notices, `owner notice ${i}`).toHaveLength(1);
          expect(addressOf(notices[0]!.parsed.replyTo)).toBe(visitor(i));
          expect(notices[0]!.parsed.subject).toMatch(new RegExp(`^New message from Visitor ${i}: We need 300 photos restored for a museum`));
          const receipt = receipts.filter((m) => m.envelope.to.includes(visitor(i)));
          expect(receipt, `receipt ${i}`).toHaveLength(1);
          expect(receipt[0]!.parsed.text).toContain(marker);
        }
        // One Message-ID per delivery: none repeated.
        expect(new Set(mails.map((m) => m.parsed.messageId)).size).toBe(MESSAGES * 2);
        const final = await deliveries(mine, [`%[${run}-%`]);
        expect(final.filter((d) => d.status === 'sent')).toHaveLength(MESSAGES * 2);
        expect(final.filter((d) => d.channel === 'owner-webhook').every((d) => d.status === 'skipped' && d.detail === 'NOTIFY_WEBHOOK_URL is not set')).toBe(true);
      } finally {
        await sink.stop();
        delete process.env.SMTP_URL;
      }
    });

    it('a delivery claimed by a worker that died is taken over once its lease runs out, and only the new claim records it', async () => {
      const sink = await startSmtpSink();
      process.env.SMTP_URL = sink.url;
      try {
        const run = randomUUID().slice(0, 8);
        await sendContact({ name: 'Lease', email: `lease.${run}@example.com`, message: `lease test ${run}` });
        const [owner] = await deliveries(`d.channel = 'owner-email' and e.ref in (select id::text from contact_messages where message = $1)`, [`lease test ${run}`]);
        // A worker claimed it and died: `sending` under a lease, never recorded.
        await query(`update outbox_deliveries set status = 'sending', attempts = 1, locked_until = now() + interval '5 minutes' where id = $1`, [owner!.id]);
        const clock = testClock();
        await runOutbox({ now: clock.now() });
        expect(sink.messages.filter((m) => m.to.includes(OWNER))).toHaveLength(0);
        await runOutbox({ now: clock.later(10 * 60_000) });
        expect(sink.messages.filter((m) => m.to.includes(OWNER))).toHaveLength(1);
        const [after] = await deliveries('d.id = $1', [owner!.id]);
        expect(after).toMatchObject({ status: 'sent', attempts: 2 });
      } finally {
        await sink.stop();
        delete process.env.SMTP_URL;
      }
    });

    // Two workers' claims at once, made deterministic: one holds its claim's row locks in an open transaction (a
    // worker mid-claim), and the other claims at that moment. It must skip those rows without waiting for them —
    // never claim them a second time — and take them once they are free. Needs two sessions: Debian PostgreSQL.
    it.skipIf(backend.name !== 'Debian PostgreSQL')('a claim skips the deliveries another claim holds instead of waiting for them or taking them too', async () => {
      const run = randomUUID().slice(0, 8);
      await sendContact({ name: 'Locks', email: `locks.${run}@example.com`, message: `lock test ${run}` });
      const mine = `e.ref in (select id::text from contact_messages where message = '${`lock test ${run}`}')`;
      const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await other.connect();
      try {
        await other.query('begin');
        const held = await other.query(`select d.id from outbox_deliveries d join outbox_events e on e.id = d.event_id where d.status = 'pending' and ${mine} for update of d`);
        expect(held.rows).toHaveLength(3);
        const clock = testClock();
        expect((await claimDue(clock.now(), 100)).filter((d) => held.rows.some((r) => r.id === d.id))).toEqual([]);
        await other.query('commit');
        const claimed = await claimDue(clock.now(), 100);
        expect(claimed.map((d) => d.id).sort()).toEqual(held.rows.map((r) => r.id).sort());
        expect(claimed.every((d) => d.attempt === 1)).toBe(true);
        expect(await claimDue(clock.now(), 100)).toEqual([]);
      } finally {
        await other.end();
      }
    });
  });
}
