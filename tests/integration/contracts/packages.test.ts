import { describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import { messageAnswerSchema } from '../../../src/lib/api-answer';
import { checkoutAnswerSchema } from '../../../src/lib/orders-schema';
import { packageAnswerSchema, takeAnswerSchema } from '../../../src/lib/packages-schema';
import { MSG } from '../../../src/lib/messages';
import { useEmbeddedPlatform } from '../platform/helpers/backends';
import { newKey, seedCompleted } from '../platform/helpers/seed';
import { BASE, keyOf, packageRequest, take } from '../packages/helpers';
import { answerOf, refusalOf } from './helpers';

// The packages' contract (src/lib/packages.ts): the answers the tool's package panel reads, from the real functions.
useEmbeddedPlatform();

describe('the packages’ answers match the schemas the tool reads them with', () => {
  it('bought, opened, a result taken (and again), a lost link asked for', async () => {
    const bought = await answerOf(checkoutAnswerSchema, await checkout(
      new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'basic-restoration' }], idempotencyKey: newKey() }) }),
      {},
    ));
    const allowance = bought.allowances[0]!;
    const key = keyOf(allowance.link);

    const opened = await answerOf(packageAnswerSchema, await packageRequest('/api/packages', key));
    expect(opened).toMatchObject({ allowance: { packageId: 'basic-restoration', imagesUsed: 0, state: 'active' }, batchId: null });

    const item = await seedCompleted('image', { owned: true });
    const taken = await answerOf(takeAnswerSchema, await take(key, item.id, item.ownerSecret));
    expect(taken).toMatchObject({ outcome: 'taken', imagesUsed: 1, imagesLeft: opened.allowance.imagesTotal - 1 });
    expect((await answerOf(takeAnswerSchema, await take(key, item.id, item.ownerSecret))).outcome).toBe('already');

    expect((await refusalOf(await packageRequest('/api/packages', `${key.slice(0, -4)}AAAA`), 403)).error).toEqual(expect.any(String));
    const link = await answerOf(messageAnswerSchema, await packageRequest('/api/packages/link', null, { method: 'POST', body: { email: 'nobody@example.com' } }));
    expect(link.message).toBe(MSG.packageLinkSent);
  });
});
