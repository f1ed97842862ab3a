import { describe, expect, it } from 'vitest';
import batches from '../../../netlify/functions/batches.mts';
import batchZip from '../../../netlify/functions/batch-zip.mts';
import downloads from '../../../netlify/functions/downloads.mts';
import { query } from '../../../netlify/lib/db';
import { inlineJobs, dispatchAndRun } from '../../../netlify/lib/batches';
import { getStorage } from '../../../netlify/lib/storage';
import { MSG } from '../../../src/lib/messages';
import { PACKAGE_KEY_HEADER } from '../../../src/lib/packages';
import { OWNER_SECRET_HEADER } from '../../../src/lib/tool/ownership';
import { BATCH_LIMITS } from '../../../src/lib/tool/batch';
import { greyPhoto, multipart } from '../../support/tool-helpers';
import { readZip } from '../../support/zip-reader';
import { BASE, buyPackage, keyOf, useInlineBatchPlatform } from './helpers';
import { generatedPictures, makeScan } from '../../support/scans';

// A package's batch through the real functions: photos queued on the server, each its own job (inline here: no
// background function can be triggered), taken one image each, downloaded as one ZIP under their own names.
// The jobs run in this process (useInlineBatchPlatform says why).
useInlineBatchPlatform();

type Headers = Record<string, string>;
const call = (path: string, headers: Headers, init: { method?: string; body?: BodyInit; json?: unknown } = {}) =>
  batches(new Request(`${BASE}${path}`, {
    method: init.method ?? (init.body || init.json ? 'POST' : 'GET'),
    headers: { ...headers, ...(init.json !== undefined && { 'content-type': 'application/json' }) },
    body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
  }), { ip: '192.0.2.44' } as never);
const OPTIONS = { model: 'sd-xl', prompt: 'Turn this image into color and enhance its quality' };

async function settled(batchId: string, headers: Headers) {
  for (;;) {
    while (inlineJobs.size) await Promise.all(inlineJobs);
    const answer = await (await call(`/api/batches/${batchId}`, headers)).json();
    if (answer.counts.waiting + answer.counts.working === 0) return answer;
    await dispatchAndRun();
    await new Promise((r) => setTimeout(r, 100));
  }
}

const photo = async (name: string, seed: number) => multipart({ file: { name, type: 'image/png', bytes: await greyPhoto(200 + seed * 8, 150 + seed * 4) } });

describe('a package batch', () => {
  it('restores every photo, takes each once, and zips them under unique original names', async () => {
    const order = await buyPackage('basic-restoration');
    const headers = { [PACKAGE_KEY_HEADER]: keyOf(order.allowances[0].link) };
    const made = await (await call('/api/batches', headers, { json: OPTIONS })).json();
    expect(made).toEqual({ success: true, batchId: expect.any(String) });
    const names = ['Grandma 1962.png', 'grandma 1962.png', 'folder/beach.png', 'beach.PNG'];
    for (const [i, name] of names.entries()) {
      const res = await call(`/api/batches/${made.batchId}/items`, headers, { body: await photo(name, i) });
      expect(res.status).toBe(200);
    }
    const done = await settled(made.batchId, headers);
    expect(done.counts).toEqual({ waiting: 0, working: 0, done: 4, failed: 0, choosing: 0, held: 0, split: 0 });
    expect(done.items.every((i: { taken: boolean; downloadUrl: string }) => i.taken && i.downloadUrl)).toBe(true);
    expect(await query('select images_used from package_allowances where payment_id = $1', [order.paymentId])).toEqual([{ images_used: 4 }]);
    // Uploads are freed once their photo is done.
    expect(await query('select count(*)::int as n from batch_items where batch_id = $1 and upload_path is not null', [made.batchId])).toEqual([{ n: 0 }]);

    expect(done.zip).toHaveLength(1);
    const res = await batchZip(new Request(`${BASE}${done.zip[0].url}`), {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const files = readZip(Buffer.from(await res.arrayBuffer()));
    expect(files.map((f) => f.name)).toEqual(['Grandma 1962.jpg', 'grandma 1962 (2).jpg', 'beach.jpg', 'beach (2).jpg']);
    for (const [i, file] of files.entries()) {
      const clean = await getStorage().get(`results/${done.items[i].transformationId}.jpg`);
      expect(file.bytes.equals(clean!)).toBe(true);
      expect(file.bytes.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    }
    const one = await downloads(new Request(`${BASE}${done.items[0].downloadUrl}`), {});
    expect(one.status).toBe(200);
    // The ZIP's token is the package's: changed by one character it opens nothing.
    const url = new URL(done.zip[0].url, BASE);
    const token = url.searchParams.get('token')!;
    url.searchParams.set('token', `${token.slice(0, 10)}${token[10] === 'x' ? 'y' : 'x'}${token.slice(11)}`);
    expect((await batchZip(new Request(url), {})).status).toBe(403);
  });

  it('holds at most what the package has left; another package or browser sees nothing; a bad file is refused', async () => {
    const order = await buyPackage('basic-restoration');
    const headers = { [PACKAGE_KEY_HEADER]: keyOf(order.allowances[0].link) };
    await query('update package_allowances set images_used = images_total - 1 where payment_id = $1', [order.paymentId]);
    const { batchId } = await (await call('/api/batches', headers, { json: OPTIONS })).json();
    expect((await call(`/api/batches/${batchId}/items`, headers, { body: await photo('a.png', 1) })).status).toBe(200);
    const full = await call(`/api/batches/${batchId}/items`, headers, { body: await photo('b.png', 2) });
    expect(full.status).toBe(409);
    expect((await full.json()).error).toBe(MSG.batchTooMany(0));
    const bad = await call(`/api/batches/${batchId}/items`, headers, { body: multipart({ file: { name: 'notes.png', type: 'image/png', bytes: Buffer.from('not a photo') } }) });
    expect(bad.status).toBe(400);

    const other = await buyPackage('basic-restoration');
    expect((await call(`/api/batches/${batchId}`, { [PACKAGE_KEY_HEADER]: keyOf(other.allowances[0].link) })).status).toBe(404);
    expect((await call(`/api/batches/${batchId}`, {})).status).toBe(404);
    await settled(batchId, headers);
  });

  it('without a package: the browser’s own batch of at most a few photos, results for the cart', async () => {
    const made = await (await call('/api/batches', {}, { json: OPTIONS })).json();
    expect(made.ownerSecret).toMatch(/^[\w-]{43}$/);
    const headers = { [OWNER_SECRET_HEADER]: made.ownerSecret };
    await query(
      `insert into batch_items (batch_id, position, name, status) select $1, g, 'x' || g, 'done' from generate_series(0, $2 - 2) g`,
      [made.batchId, BATCH_LIMITS.withoutPackage],
    );
    expect((await call(`/api/batches/${made.batchId}/items`, headers, { body: await photo('last.png', 3) })).status).toBe(200);
    const over = await call(`/api/batches/${made.batchId}/items`, headers, { body: await photo('over.png', 4) });
    expect(over.status).toBe(409);
    const done = await settled(made.batchId, headers);
    const last = done.items.find((i: { name: string }) => i.name === 'last.png');
    expect(last).toMatchObject({ status: 'done', taken: false, downloadUrl: null });
    expect(done.zip).toEqual([]);
    // Its result belongs to the batch's secret, as an item of the tool: the cart can buy it with that secret.
    expect(await query('select purchased, allowance_id from media_transformations where id = $1', [last.transformationId])).toEqual([{ purchased: false, allowance_id: null }]);
  });

  it('a photo whose job fails takes no image and can be retried', async () => {
    const order = await buyPackage('basic-restoration');
    const headers = { [PACKAGE_KEY_HEADER]: keyOf(order.allowances[0].link) };
    const { batchId } = await (await call('/api/batches', headers, { json: OPTIONS })).json();
    // A photo whose upload is gone when its job runs (the job fails before anything is made).
    const [item] = await query<{ id: string }>(
      `insert into batch_items (batch_id, position, name, upload_path) values ($1, 0, 'lost.png', $2) returning id`,
      [batchId, `batches/${batchId}/lost.png`],
    );
    await dispatchAndRun();
    const done = await settled(batchId, headers);
    expect(done.items[0]).toMatchObject({ id: item!.id, status: 'failed', taken: false, error: MSG.batchRetryGone });
    expect(await query('select images_used from package_allowances where payment_id = $1', [order.paymentId])).toEqual([{ images_used: 0 }]);
    // Retry once the photo is there again: done, one image.
    await getStorage().put(`batches/${batchId}/lost.png`, await greyPhoto(120, 90), 'image/png');
    const retry = await call(`/api/batches/${batchId}/items/${done.items[0].id}/retry`, headers, { method: 'POST', json: {} });
    expect(retry.status).toBe(200);
    expect((await settled(batchId, headers)).items[0]).toMatchObject({ status: 'done', taken: true });
    expect(await query('select images_used from package_allowances where payment_id = $1', [order.paymentId])).toEqual([{ images_used: 1 }]);
  });

  it('a scan of three prints waits for the buyer, with each print shown; restored apart it takes three images, kept whole one', async () => {
    const order = await buyPackage('basic-restoration');
    const headers = { [PACKAGE_KEY_HEADER]: keyOf(order.allowances[0].link) };
    const { batchId } = await (await call('/api/batches', headers, { json: OPTIONS })).json();
    const scanFile = async (seed: number) => {
      const { jpeg } = await makeScan(seed, generatedPictures(seed, 6), { kind: 'split', bed: 'white', prints: 3, dpi: 100 });
      return multipart({ file: { name: `shoebox ${seed}.jpg`, type: 'image/jpeg', bytes: jpeg } });
    };
    const added = await (await call(`/api/batches/${batchId}/items`, headers, { body: await scanFile(8101) })).json();
    expect(added.item.status).toBe('choosing');
    // Nothing runs, nothing is spent, while the buyer looks at the split.
    await dispatchAndRun();
    let answer = await (await call(`/api/batches/${batchId}`, headers)).json();
    expect(answer.counts).toMatchObject({ choosing: 1, held: 3, waiting: 0, working: 0 });
    const scan = answer.items.find((i: { id: string }) => i.id === added.item.id);
    expect(scan.split.prints).toHaveLength(3);
    expect(scan.split.prints.every((p: { thumb: string }) => p.thumb.startsWith('data:image/jpeg;base64,'))).toBe(true);
    expect(answer.items.filter((i: { scanOf: string }) => i.scanOf === scan.id).map((i: { name: string }) => i.name)).toEqual(['shoebox 8101, print 1.jpg', 'shoebox 8101, print 2.jpg', 'shoebox 8101, print 3.jpg']);
    expect(await query('select images_used from package_allowances where payment_id = $1', [order.paymentId])).toEqual([{ images_used: 0 }]);

    const choose = (id: string, keep: string) => call(`/api/batches/${batchId}/items/${id}/split`, headers, { json: { keep } });
    expect((await choose(scan.id, 'sideways')).status).toBe(400);
    expect((await choose(scan.id, 'prints')).status).toBe(200);
    expect((await choose(scan.id, 'whole')).status).toBe(409);
    answer = await settled(batchId, headers);
    expect(answer.counts).toMatchObject({ done: 3, split: 1, choosing: 0, held: 0, failed: 0 });

    // A second scan, kept whole: one photo, one image.
    const second = await (await call(`/api/batches/${batchId}/items`, headers, { body: await scanFile(8102) })).json();
    expect(second.item.status).toBe('choosing');
    expect((await choose(second.item.id, 'whole')).status).toBe(200);
    answer = await settled(batchId, headers);
    expect(answer.counts).toMatchObject({ done: 4, split: 1, held: 0 });
    expect(await query('select images_used from package_allowances where payment_id = $1', [order.paymentId])).toEqual([{ images_used: 4 }]);
    expect(answer.zip[0].count).toBe(4);
    // The prints' uploads and the split scan's are gone once done.
    expect(await query('select count(*)::int as n from batch_items where batch_id = $1 and upload_path is not null', [batchId])).toEqual([{ n: 0 }]);
  });

  it('a scan with a print cut by the glass edge is kept whole and says why', async () => {
    const order = await buyPackage('basic-restoration');
    const headers = { [PACKAGE_KEY_HEADER]: keyOf(order.allowances[0].link) };
    const { batchId } = await (await call('/api/batches', headers, { json: OPTIONS })).json();
    const { jpeg } = await makeScan(7203, generatedPictures(11, 10), { kind: 'cut', bed: 'white', dpi: 100 });
    const added = await (await call(`/api/batches/${batchId}/items`, headers, { body: multipart({ file: { name: 'cut.jpg', type: 'image/jpeg', bytes: jpeg } }) })).json();
    expect(added.item.status).toBe('waiting');
    const answer = await settled(batchId, headers);
    expect(answer.items[0].keptWhole).toMatch(/runs off the edge/);
    expect(answer.counts).toMatchObject({ done: 1 });
  });
});
