import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import checkout from '../../../netlify/functions/checkout.mts';
import files from '../../../netlify/functions/files.mts';
import health from '../../../netlify/functions/health.mts';
import imageReference from '../../../netlify/functions/image-reference.mts';
import uploads from '../../../netlify/functions/uploads.mts';
import processImage from '../../../netlify/functions/process-image.mts';
import toolUploads from '../../../netlify/functions/tool-uploads.mts';
import transformations from '../../../netlify/functions/transformations.mts';
import { closePool, query } from '../../../netlify/lib/db';
import { runMaintenance } from '../../../netlify/lib/maintenance/run';
import { UPLOAD_TTL_SECONDS } from '../../../netlify/lib/tool/retention';
import { UPLOAD_URL_TTL_SECONDS } from '../../../netlify/lib/storage/bucket';
import { getStorage } from '../../../netlify/lib/storage';
import { getTransformation } from '../../../netlify/lib/transformations';
import { TEST_HEALTH_SECRET, operatorHealthRequest } from '../../support/operator-health';
import { MSG } from '../../../src/lib/messages';
import { newKey, seedCompleted } from '../platform/helpers/seed';
import { BASE, client, count, useEmbeddedPlatform } from './helpers';
import { keepOwner, owner } from '../../support/tool-helpers';

useEmbeddedPlatform();

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
    return keepOwner(await res.json()).transformationId as string;
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
    const status = await (await transformations(new Request(`${BASE}/api/transformations/${id}`, { headers: owner(id) }), {})).json();
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
    const res = await imageReference(new Request(`${BASE}/api/transformations/${id}/reference`, { method: 'POST', headers: owner(id), body: form }), client() as never);
    expect(res.status).toBe(200);
    await noMetadata((await getStorage().get((await getTransformation(id))!.meta.referencePath!))!);
  });
});

describe('the smaller findings: storage', () => {
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

  it('/api/health tells the public only yes or no (and whether degraded), video and the payment mode; the details need the operator’s secret', async () => {
    process.env.HEALTH_SECRET = TEST_HEALTH_SECRET;
    const open = await health(new Request(`${BASE}/api/health`));
    expect(open.status).toBe(200);
    const publicBody = await open.json();
    expect(Object.keys(publicBody).sort()).toEqual(['ok', 'payments', 'status', 'video']);
    expect(publicBody).toEqual({ ok: true, status: 'ok', video: { available: expect.any(Boolean) }, payments: { mode: 'demo' } });
    for (const authorization of ['Bearer wrong-secret-0123456789', 'Basic xyz', `Bearer ${TEST_HEALTH_SECRET}x`]) {
      expect(Object.keys(await (await health(new Request(`${BASE}/api/health`, { headers: { authorization } }))).json()).sort()).toEqual(['ok', 'payments', 'status', 'video']);
    }
    const details = await (await health(operatorHealthRequest(`${BASE}/api/health`))).json();
    expect(details).toMatchObject({ ok: true, status: 'ok', platform: { database: 'embedded-pglite', ok: true }, chat: expect.any(Object), csp: expect.any(Object), outbox: { ok: true } });
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
});
