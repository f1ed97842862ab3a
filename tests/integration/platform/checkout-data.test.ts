import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findImagePackage, IMAGE_PACKAGES, ITEM_PRICES, TRANSFORMATION_PRICES, sumPrices } from '../../../src/lib/catalog';
import { query } from '../../../netlify/lib/db';
import { databaseRateLimiter } from '../../../netlify/lib/rate-limit';
import { applyMigrations, pgTarget } from '../../../netlify/lib/db/migrations';
import { demoCheckout } from '../../../netlify/lib/checkout/place-order';
import { getPool } from '../../../netlify/lib/db';
import {
  createTransformation,
  failStaleJobs,
  failTransformation,
  getTransformation,
  updateProgress,
} from '../../../netlify/lib/transformations';
import { backends, type StartedBackend } from './helpers/backends';
import { countRows, newKey, seedCompleted } from './helpers/seed';

// The data layer — migrations, the demo_checkout SQL function, idempotency, concurrency, rate limits and
// the transformation helpers — on every database the product runs on.
for (const backend of backends) {
  describe.skipIf(!backend.available)(`data layer on ${backend.name}${backend.note ? ` (${backend.note})` : ''}`, () => {
    let db: StartedBackend;
    beforeAll(async () => {
      db = await backend.start();
    });
    afterAll(async () => {
      await db?.stop();
    });

    it('applies the migrations once: a second run applies nothing', async () => {
      const client = await getPool().connect();
      try {
        expect(await applyMigrations(pgTarget(client))).toEqual([]);
      } finally {
        client.release();
      }
      const tables = await query<{ name: string; rls: boolean }>(
        `select c.relname as name, c.relrowsecurity as rls from pg_class c
          join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public' and c.relkind = 'r'`,
      );
      expect(tables.map((t) => t.name).sort()).toEqual(
        ['allowance_takes', 'batch_items', 'catalog_prices', 'chat_catalogue', 'chat_spend', 'contact_messages', 'database_role', 'form_doubts', 'leads', 'media_transformations',
          'newsletter_subscribers', 'operator_sign_ins', 'outbox_deliveries', 'outbox_events', 'package_allowances', 'package_terms', 'payment_items', 'payments', 'rate_limits',
          'stripe_events', 'tool_batches', 'upload_grants', 'work_slots'].sort(),
      );
      expect(tables.every((t) => t.rls)).toBe(true);
    });

    it('charges exactly the prices of src/lib/catalog.ts', async () => {
      const rows = await query<{ item_type: string; item_key: string; price: string }>(
        'select item_type, item_key, price from catalog_prices',
      );
      const sqlPrices = Object.fromEntries(rows.map((r) => [`${r.item_type}:${r.item_key}`, Number(r.price)]));
      expect(sqlPrices).toEqual({
        ...Object.fromEntries(Object.entries(TRANSFORMATION_PRICES).map(([key, price]) => [`transformation:${key}`, price])),
        ...Object.fromEntries(IMAGE_PACKAGES.map((p) => [`package:${p.id}`, p.priceValue])),
      });
    });

    it('records a completed demo payment with server-side prices and marks items purchased', async () => {
      const image = await seedCompleted('image');
      const video = await seedCompleted('video');
      const result = await demoCheckout({
        items: [{ transformationId: image.id }, { packageId: 'premium-restoration' }, { transformationId: video.id }],
        idempotencyKey: newKey(),
      });
      const premium = findImagePackage('premium-restoration')!.priceValue;
      const total = sumPrices([ITEM_PRICES.image, premium, ITEM_PRICES.video]);
      expect(result.amount).toBe(total);
      expect(result.items.map((i) => [i.type, i.price])).toEqual([
        ['image', ITEM_PRICES.image],
        ['package', premium],
        ['video', ITEM_PRICES.video],
      ]);
      expect(result.downloads.map((d) => d.transformationId)).toEqual([image.id, video.id]);
      expect(result.downloads[0]!.filename).toMatch(/^restored-image-\d+\.jpg$/);
      expect(result.downloads[1]!.filename).toMatch(/^generated-video-\d+\.mp4$/);
      const [payment] = await query<{ status: string; payment_method: string; amount: string }>(
        'select status, payment_method, amount from payments where id = $1',
        [result.paymentId],
      );
      // numeric(10, 2) reads back as text with two decimals.
      expect(payment).toEqual({ status: 'completed', payment_method: 'demo', amount: total.toFixed(2) });
      expect((await getTransformation(image.id))!.purchased).toBe(true);
      expect((await getTransformation(video.id))!.purchased).toBe(true);
    });

    it('a retry with the same key returns the same payment and writes nothing', async () => {
      const item = await seedCompleted();
      const request = { items: [{ transformationId: item.id }], idempotencyKey: newKey() };
      const first = await demoCheckout(request);
      const before = await countRows();
      const again = await demoCheckout(request);
      expect(again.paymentId).toBe(first.paymentId);
      expect(again.replayed).toBe(true);
      expect(await countRows()).toEqual(before);
    });

    it('refuses a reused key with a different cart', async () => {
      const [a, b] = [await seedCompleted(), await seedCompleted()];
      const key = newKey();
      await demoCheckout({ items: [{ transformationId: a.id }], idempotencyKey: key });
      const before = await countRows();
      await expect(demoCheckout({ items: [{ transformationId: b.id }], idempotencyKey: key })).rejects.toMatchObject({
        code: 'LU409',
        message: 'This checkout was already completed with a different cart',
      });
      expect(await countRows()).toEqual(before);
    });

    it.each([
      ['an empty cart', () => [], 'LU400', /^Your cart is empty$/],
      ['an unknown transformation', () => [{ transformationId: '00000000-0000-4000-8000-000000000000' }], 'LU404', /^Item not found/],
      ['an unknown package', () => [{ packageId: 'gold-package' }], 'LU404', /^Unknown package: gold-package$/],
      ['a repeated package', () => [{ packageId: 'ai-creation' }, { packageId: 'ai-creation' }], 'LU400', /already in your cart/],
      ['an item with a price', () => [{ packageId: 'ai-creation', price: 0 }], 'LU400', /exactly one of/],
    ] as const)('refuses %s without writing', async (_label, items, code, message) => {
      const before = await countRows();
      await expect(
        query('select * from demo_checkout($1::jsonb, $2)', [JSON.stringify(items()), newKey()]),
      ).rejects.toMatchObject({ code, message: expect.stringMatching(message) });
      expect(await countRows()).toEqual(before);
    });

    it('refuses unfinished and already purchased items without writing', async () => {
      const running = await createTransformation({ kind: 'image', status: 'processing' });
      const sold = await seedCompleted();
      await demoCheckout({ items: [{ transformationId: sold.id }], idempotencyKey: newKey() });
      const fresh = await seedCompleted();
      const before = await countRows();
      await expect(
        demoCheckout({ items: [{ transformationId: fresh.id }, { transformationId: running.id }], idempotencyKey: newKey() }),
      ).rejects.toMatchObject({ code: 'LU409', message: `Item is not ready for purchase yet: ${running.id}` });
      await expect(
        demoCheckout({ items: [{ transformationId: fresh.id }, { transformationId: sold.id }], idempotencyKey: newKey() }),
      ).rejects.toMatchObject({ code: 'LU409', message: `Item already purchased: ${sold.id}` });
      expect(await countRows()).toEqual(before);
      expect((await getTransformation(fresh.id))!.purchased).toBe(false);
    });

    it('100 concurrent checkouts of distinct carts give 100 correct payments', async () => {
      const carts: { image: Awaited<ReturnType<typeof seedCompleted>>; video: Awaited<ReturnType<typeof seedCompleted>> | null }[] = [];
      for (let i = 0; i < 100; i++) {
        carts.push({ image: await seedCompleted('image'), video: i % 2 ? await seedCompleted('video') : null });
      }
      const before = await countRows();
      const results = await Promise.all(
        carts.map((cart, i) =>
          demoCheckout({
            items: [
              { transformationId: cart.image.id },
              ...(cart.video ? [{ transformationId: cart.video.id }] : []),
              ...(i % 10 === 0 ? [{ packageId: 'family-package' }] : []),
            ],
            idempotencyKey: newKey(),
          }),
        ),
      );
      expect(new Set(results.map((r) => r.paymentId)).size).toBe(100);
      results.forEach((result, i) => {
        const family = findImagePackage('family-package')!.priceValue;
        const expected = sumPrices([ITEM_PRICES.image, ...(carts[i]!.video ? [ITEM_PRICES.video] : []), ...(i % 10 === 0 ? [family] : [])]);
        expect(result.amount).toBe(expected);
        expect(result.items).toHaveLength(1 + (carts[i]!.video ? 1 : 0) + (i % 10 === 0 ? 1 : 0));
      });
      const after = await countRows();
      expect(after.payments - before.payments).toBe(100);
      expect(after.items - before.items).toBe(100 + 50 + 10);
      expect(after.purchased - before.purchased).toBe(150);
      const [sums] = await query<{ mismatched: number }>(
        `select count(*)::int as mismatched from payments p
          where p.amount <> (select sum(price) from payment_items pi where pi.payment_id = p.id)`,
      );
      expect(sums!.mismatched).toBe(0);
    });

    it('20 concurrent retries with one key make exactly one payment', async () => {
      const item = await seedCompleted('video');
      const request = { items: [{ transformationId: item.id }, { packageId: 'basic-restoration' }], idempotencyKey: newKey() };
      const before = await countRows();
      const results = await Promise.all(Array.from({ length: 20 }, () => demoCheckout(request)));
      expect(new Set(results.map((r) => r.paymentId)).size).toBe(1);
      expect(results.filter((r) => !r.replayed)).toHaveLength(1);
      const after = await countRows();
      expect(after.payments - before.payments).toBe(1);
      expect(after.items - before.items).toBe(2);
    });

    it('sells a contested item once when different carts race for it', async () => {
      const item = await seedCompleted();
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, () => demoCheckout({ items: [{ transformationId: item.id }], idempotencyKey: newKey() })),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
      for (const o of outcomes.filter((o) => o.status === 'rejected')) {
        expect((o as PromiseRejectedResult).reason).toMatchObject({ code: 'LU409' });
      }
      const [row] = await query<{ n: number }>('select count(*)::int as n from payment_items where transformation_id = $1', [item.id]);
      expect(row!.n).toBe(1);
    });

    it('rate limits in one statement, also under concurrency', async () => {
      const key = `test:${newKey()}`;
      const hits = await Promise.all(Array.from({ length: 12 }, () => databaseRateLimiter.hit(key, 5, 3600)));
      expect(hits.filter((h) => h.allowed)).toHaveLength(5);
      for (const refused of hits.filter((h) => !h.allowed)) {
        expect(refused.retryAfter).toBeGreaterThan(0);
        expect(refused.retryAfter).toBeLessThanOrEqual(3600);
      }
      expect((await databaseRateLimiter.hit(`test:${newKey()}`, 5, 3600)).allowed).toBe(true);
    });

    it('drives a transformation through progress, failure and stale-job cleanup', async () => {
      const job = await createTransformation({ kind: 'video', mode: 'standard', prompt: 'waves', hints: { a: 1 } });
      expect(job.status).toBe('queued');
      const running = await updateProgress(job.id, 0.4, { b: 2 });
      expect(running).toMatchObject({ status: 'processing', progress: 0.4, hints: { a: 1, b: 2 } });
      expect((await updateProgress(job.id, 0.2))!.progress).toBe(0.4); // never backwards
      expect(await failTransformation(job.id, 'model crashed')).toMatchObject({ status: 'failed', error: 'model crashed' });
      expect(await updateProgress(job.id, 0.9)).toBeNull();

      const stale = await createTransformation({ kind: 'image' });
      const live = await createTransformation({ kind: 'image' });
      // The trigger stamps updated_at on every update; push it back without firing it.
      await query(`alter table media_transformations disable trigger media_transformations_updated_at`);
      await query(`update media_transformations set updated_at = now() - interval '1 hour' where id = $1`, [stale.id]);
      await query(`alter table media_transformations enable trigger media_transformations_updated_at`);
      expect(await failStaleJobs({ image: 600, video: 600 })).toBeGreaterThanOrEqual(1);
      expect((await getTransformation(stale.id))!.status).toBe('failed');
      expect((await getTransformation(live.id))!.status).toBe('queued');
    });
  });
}
