import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { query } from '../../../netlify/lib/db';
import { MSG } from '../../../src/lib/messages';
import { backends, type StartedBackend } from '../platform/helpers/backends';
import { seedCompleted } from '../platform/helpers/seed';
import { buyPackage, keyOf, take } from './helpers';

// Two tabs racing for the last image, twenty times over: 20 parallel takes of 20 different results for the last 3
// images of a package. Exactly 3 are taken, none counted twice, the others told the package is used up; on the
// embedded database and on Debian's PostgreSQL, where the 20 requests really run side by side.
const RACERS = 20;
const LEFT = 3;

for (const backend of backends) {
  describe.skipIf(!backend.available)(`the allowance on ${backend.name}${backend.note ? ` (${backend.note})` : ''}`, () => {
    let started: StartedBackend | undefined;
    beforeAll(async () => {
      started = await backend.start();
    });
    afterAll(async () => {
      await started?.stop();
    });

    it(`${RACERS} parallel takes for the last ${LEFT} images: exactly ${LEFT} taken, none counted twice`, async () => {
      const order = await buyPackage('basic-restoration');
      const key = keyOf(order.allowances[0].link);
      const total = order.allowances[0].imagesTotal;
      await query('update package_allowances set images_used = $2 where payment_id = $1', [order.paymentId, total - LEFT]);
      const items = await Promise.all(Array.from({ length: RACERS }, () => seedCompleted('image', { owned: true })));
      // Each result raced twice (a double click in two tabs): a second take of one result never counts again.
      const answers = await Promise.all([...items, ...items.slice(0, 5)].map(async (item) => {
        const res = await take(key, item.id, item.ownerSecret);
        return { id: item.id, status: res.status, body: await res.json() };
      }));
      const taken = answers.filter((a) => a.status === 200 && a.body.outcome === 'taken');
      expect(taken).toHaveLength(LEFT);
      expect(new Set(taken.map((a) => a.id)).size).toBe(LEFT);
      for (const refused of answers.filter((a) => a.status !== 200)) {
        expect(refused.status).toBe(409);
        expect(refused.body.error).toBe(MSG.packageUsedUp);
      }
      expect(answers.filter((a) => a.status === 200 && a.body.outcome === 'already').every((a) => taken.some((t) => t.id === a.id))).toBe(true);
      const [row] = await query<{ images_used: number; takes: number; purchased: number }>(
        `select a.images_used,
                (select count(*)::int from allowance_takes t where t.allowance_id = a.id) as takes,
                (select count(*)::int from media_transformations m where m.allowance_id = a.id and m.purchased) as purchased
           from package_allowances a where a.payment_id = $1`,
        [order.paymentId],
      );
      expect(row).toEqual({ images_used: total, takes: LEFT, purchased: LEFT });
    });
  });
}
