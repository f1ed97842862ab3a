import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import orders from '../../../netlify/functions/orders.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import transformations from '../../../netlify/functions/transformations.mts';
import { query } from '../../../netlify/lib/db';
import { findImagePackage, PACKAGE_VALID_MONTHS } from '../../../src/lib/catalog';
import { MSG } from '../../../src/lib/messages';
import { PACKAGE_KEY_HEADER } from '../../../src/lib/packages';
import { startEmbedded } from '../platform/helpers/backends';
import { seedCompleted } from '../platform/helpers/seed';
import { revokeLink } from '../../../netlify/lib/packages/allowance';
import { allowanceState, BASE, buyPackage, keyOf, packageRequest, take } from './helpers';

// A paid package's allowance through the real functions on a fresh embedded database: made once on payment, read by
// its link without a change, spent one image per distinct result, its downloads authorised by the package.
let platform: Awaited<ReturnType<typeof startEmbedded>>;
beforeAll(async () => {
  platform = await startEmbedded();
});
afterAll(async () => {
  await platform?.stop();
});

describe('a paid package', () => {
  it('gives its allowance once, 12 months, carried by the order answer with its link', async () => {
    const basic = findImagePackage('basic-restoration')!;
    const order = await buyPackage(basic.id);
    expect(order.allowances).toHaveLength(1);
    const [a] = order.allowances;
    expect(a).toMatchObject({ packageId: basic.id, name: basic.name, imagesTotal: basic.images, imagesUsed: 0, imagesLeft: basic.images, state: 'active' });
    expect(a.link).toMatch(/^\/image-video-transformation#package=[0-9a-f-]{36}\.1\.[\w-]{43}$/);
    const expires = new Date(a.expiresAt);
    const expected = new Date();
    expected.setMonth(expected.getMonth() + PACKAGE_VALID_MONTHS);
    expect(Math.abs(expires.getTime() - expected.getTime())).toBeLessThan(2 * 86_400_000);

    const read = await (await orders(new Request(`${BASE}/api/orders/${order.paymentId}?token=${order.orderToken}`), {})).json();
    expect(read.allowances).toEqual(order.allowances);
    // The database made it once for the package line, whatever touches the line again.
    await query('update payment_items set sold = true where payment_id = $1', [order.paymentId]);
    expect(await query('select count(*)::int as n from package_allowances where payment_id = $1', [order.paymentId])).toEqual([{ n: 1 }]);
  });

  it('opening the link (a mail scanner’s GET) reads the package and changes nothing', async () => {
    const order = await buyPackage();
    const key = keyOf(order.allowances[0].link);
    const before = await allowanceState();
    for (let i = 0; i < 3; i++) {
      const res = await packageRequest('/api/packages', key);
      expect(res.status).toBe(200);
      expect((await res.json()).allowance).toMatchObject({ imagesUsed: 0, state: 'active' });
    }
    expect(await allowanceState()).toEqual(before);
    // A forged or tampered key opens nothing.
    expect((await packageRequest('/api/packages', `${key.slice(0, -2)}xx`)).status).toBe(403);
    expect((await packageRequest('/api/packages', null)).status).toBe(403);
  });

  it('takes a finished result for one image; again, or after re-renders, for free; downloads it clean by the package', async () => {
    const order = await buyPackage();
    const key = keyOf(order.allowances[0].link);
    const image = await seedCompleted('image', { owned: true });
    // The item's owner secret is needed: a package key alone does not take another browser's photo.
    expect((await take(key, image.id)).status).toBe(403);
    const res = await take(key, image.id, image.ownerSecret);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ outcome: 'taken', imagesUsed: 1, imagesLeft: 99, message: MSG.packageTaken(99) });
    const again = await (await take(key, image.id, image.ownerSecret)).json();
    expect(again).toMatchObject({ outcome: 'already', imagesUsed: 1, message: MSG.packageAlreadyTaken });

    const file = await downloads(new Request(`${BASE}${body.downloadUrl}`), {});
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer())).toEqual(image.clean);
    // The item id alone, or another item's token, gives nothing.
    expect((await downloads(new Request(`${BASE}/api/downloads/${image.id}`), {})).status).toBe(403);
    const other = await seedCompleted('image', { owned: true });
    expect((await downloads(new Request(`${BASE}/api/downloads/${other.id}?${new URL(body.downloadUrl, BASE).searchParams}`), {})).status).toBe(403);

    // The package's key now opens the item too (the status answer), from any browser.
    // (The seeded item has no original to show, so the answer is its schema's 400: past the ownership check.)
    const statusOf = (headers: Record<string, string>) => transformations(new Request(`${BASE}/api/transformations/${image.id}`, { headers }), {});
    expect((await statusOf({})).status).toBe(403);
    expect((await statusOf({ [PACKAGE_KEY_HEADER]: key })).status).not.toBe(403);
  });

  it('a failed or unfinished job never takes an image; a video is for the cart', async () => {
    const order = await buyPackage();
    const key = keyOf(order.allowances[0].link);
    const failed = await seedCompleted('image', { owned: true });
    await query(`update media_transformations set status = 'failed' where id = $1`, [failed.id]);
    const res = await take(key, failed.id, failed.ownerSecret);
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(MSG.packageNotReady);
    const video = await seedCompleted('video', { owned: true });
    expect((await take(key, video.id, video.ownerSecret)).status).toBe(400);
    expect(await query('select images_used from package_allowances where payment_id = $1', [order.paymentId])).toEqual([{ images_used: 0 }]);
  });

  it('an expired package is refused with a message pointing to contact; what it took stays downloadable', async () => {
    const order = await buyPackage();
    const key = keyOf(order.allowances[0].link);
    const image = await seedCompleted('image', { owned: true });
    const { downloadUrl } = await (await take(key, image.id, image.ownerSecret)).json();
    await query(`update package_allowances set expires_at = now() - interval '1 day' where payment_id = $1`, [order.paymentId]);
    const fresh = await seedCompleted('image', { owned: true });
    const res = await take(key, fresh.id, fresh.ownerSecret);
    expect(res.status).toBe(410);
    const { error } = await res.json();
    expect(error).toMatch(/expired on .+\/contact/);
    expect((await (await packageRequest('/api/packages', key)).json()).allowance).toMatchObject({ state: 'expired', imagesLeft: 0 });
    expect((await downloads(new Request(`${BASE}${downloadUrl}`), {})).status).toBe(200);
  });

  it('a revoked link opens nothing and its downloads stop; the new link works', async () => {
    const order = await buyPackage();
    const key = keyOf(order.allowances[0].link);
    const image = await seedCompleted('image', { owned: true });
    const { downloadUrl } = await (await take(key, image.id, image.ownerSecret)).json();
    const [{ id }] = await query<{ id: string }>('select id from package_allowances where payment_id = $1', [order.paymentId]);
    const fresh = await revokeLink(id!);
    expect((await packageRequest('/api/packages', key)).status).toBe(403);
    expect((await downloads(new Request(`${BASE}${downloadUrl}`), {})).status).toBe(403);
    const reopened = await (await packageRequest('/api/packages', fresh)).json();
    expect(reopened.allowance).toMatchObject({ imagesUsed: 1 });
    const again = await (await take(fresh!, image.id, image.ownerSecret)).json();
    expect((await downloads(new Request(`${BASE}${again.downloadUrl}`), {})).status).toBe(200);
  });
});
