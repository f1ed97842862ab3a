import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import downloads from '../../../netlify/functions/downloads.mts';
import files from '../../../netlify/functions/files.mts';
import imageHeal from '../../../netlify/functions/image-heal.mts';
import imageHints from '../../../netlify/functions/image-hints.mts';
import imageReference from '../../../netlify/functions/image-reference.mts';
import processVideo from '../../../netlify/functions/process-video.mts';
import videoDefaults from '../../../netlify/functions/video-defaults.mts';
import orders from '../../../netlify/functions/orders.mts';
import processImage from '../../../netlify/functions/process-image.mts';
import toolUploads from '../../../netlify/functions/tool-uploads.mts';
import transformations from '../../../netlify/functions/transformations.mts';
import { query } from '../../../netlify/lib/db';
import { HttpError } from '../../../netlify/lib/http';
import { runMaintenance } from '../../../netlify/lib/maintenance/run';
import { RENDER_SLOTS, withRenderSlot } from '../../../netlify/lib/tool/render-slots';
import { MAX_ACTIVE_VIDEO_JOBS, deployOrigin, queueVideo } from '../../../netlify/lib/tool/video';
import { HEAL_BUDGET } from '../../../src/lib/tool/heal-budget';
import { MAX_HEAL_MARKS, MAX_HEAL_POINTS } from '../../../src/lib/tool/image-schema';
import { videoEngineStatus } from '../../../netlify/lib/providers/video-engine';
import { apiUrl, isAllowedOutputUrl, OutputTooLargeError, readOutput } from '../../../netlify/lib/providers/replicate-urls';
import { getStorage } from '../../../netlify/lib/storage';
import { createTransformation, getTransformation } from '../../../netlify/lib/transformations';
import { FakeReplicate } from '../../support/fake-replicate';
import { replicateConnection, replicateRun } from '../../../netlify/lib/providers/replicate-client';
import { databaseRateLimiter } from '../../../netlify/lib/rate-limit';
import { invertWhiteOverlay, overlayAlpha, photoLike, psnr, rawOf } from '../../support/watermark-attack';
import { uploadWatermarkSeed, watermarkOverlay } from '../../../engines/shared';
import { previewLongSide } from '../../../netlify/lib/media/image-preview';
import { WATERMARK } from '../../../src/lib/watermark-spec';
import { MSG } from '../../../src/lib/messages';
import { OWNER_SECRET_HEADER, OWNER_SECRET_PATTERN } from '../../../src/lib/tool/ownership';
import { DEFAULTS_MAX_SIDE, previewUrl, REFERENCE_MAX_SIDE } from '../../../src/lib/tool/constants';
import { enforceToolLimit, TOOL_LIMITS } from '../../../netlify/lib/tool/rate-limits';
import { pngHeader } from '../../support/tool-helpers';
import { seedCompleted } from '../platform/helpers/seed';
import { BASE, client, count, useEmbeddedPlatform } from './helpers';

useEmbeddedPlatform();

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

describe('the smaller findings: the tool', () => {
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
});

describe('the preview does not give the product away', () => {
  it('a 1200 × 900 restoration’s preview is smaller than the bought file, and inverting its known overlay stays far from it on the marked pixels', async () => {
    const photo = await photoLike(1200, 900);
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    form.append('model', 'sd-v1.5');
    form.append('prompt', 'Restore this photo please');
    const res = await processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', body: form }), client() as never);
    expect(res.status).toBe(200);
    const { transformationId: id, processedUrl } = await res.json();
    const preview = Buffer.from(await (await files(new Request(new URL(processedUrl, BASE)), {})).arrayBuffer());
    const { width = 0, height = 0 } = await sharp(preview).metadata();
    expect(Math.max(width, height)).toBe(previewLongSide(1200));
    // The attacker is handed the upload's exact overlay (in reality it needs the site's secret to compute).
    const alpha = await overlayAlpha(await watermarkOverlay(width, height, WATERMARK.text, await uploadWatermarkSeed(photo)));
    const clean = (await getStorage().get((await getTransformation(id))!.resultPath!))!;
    const reference = await rawOf(clean, { width, height });
    const marked = (p: number) => alpha[p]! > 0;
    expect(psnr(invertWhiteOverlay(await rawOf(preview), alpha), reference, marked)).toBeLessThanOrEqual(22);
    expect(psnr(await rawOf(preview), reference, (p) => !marked(p))).toBeGreaterThan(30);
  });
});

describe('an item’s id is no key: only the browser that made it uses it', () => {
  /** A finished image with an owner secret (none: a legacy item) and a stored original, as process-image leaves one. */
  const ownedImage = async (owned = true) => {
    const t = await seedCompleted('image', { owned });
    const originalPath = `originals/${t.id}.png`;
    await getStorage().put(originalPath, await sharp({ create: { width: 64, height: 48, channels: 3, background: '#654321' } }).png().toBuffer(), 'image/png');
    await query(`update media_transformations set original_path = $2, hints = hints || '{"width": 64, "height": 48}'::jsonb where id = $1`, [t.id, originalPath]);
    return { ...t, originalPath, secret: t.ownerSecret! };
  };
  const as = (secret?: string): Record<string, string> => (secret ? { [OWNER_SECRET_HEADER]: secret } : {});
  const status = (id: string, secret?: string) => transformations(new Request(`${BASE}/api/transformations/${id}`, { headers: as(secret) }), {});
  const postJson = (fn: typeof imageHeal, path: string, body: unknown, secret?: string, ctx = client()) =>
    fn(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...as(secret) }, body: JSON.stringify(body) }), ctx as never);
  const refusedAsNotYours = async (res: Response) => {
    expect(res.status).toBe(403);
    expect((await res.json()).error).toBe(MSG.notYourItem);
  };

  it('the status answer (it carries the original) needs the owner secret; the owner gets it as before', async () => {
    const item = await ownedImage();
    await refusedAsNotYours(await status(item.id));
    const mine = await status(item.id, item.secret);
    expect(mine.status).toBe(200);
    expect((await mine.json()).originalImageUrl).toMatch(new RegExp(`originals/${item.id}\\.png`));
  });

  it.each([
    ['another item’s secret', async () => (await seedCompleted('image', { owned: true })).ownerSecret!],
    ['a malformed secret', async () => 'not-a-secret'],
    ['a secret of the right shape that was never handed out', async () => 'A'.repeat(43)],
  ])('%s gets the same 403 as none', async (_, secretOf) => {
    const item = await ownedImage();
    await refusedAsNotYours(await status(item.id, await secretOf()));
  });

  it('the shared preview link still shows the watermarked preview (never the original) to anyone', async () => {
    const item = await ownedImage();
    const res = await transformations(new Request(`${BASE}${previewUrl(item.id)}`), {});
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toMatch(new RegExp(`previews/${item.id}\\.jpg`));
    expect(res.headers.get('location')).not.toContain('originals/');
  });

  it.each([
    ['heal', imageHeal, 'heal', { marks: [{ points: [{ x: 0.5, y: 0.5 }] }] }],
    ['colour hints', imageHints, 'hints', { hints: [{ x: 0.5, y: 0.5, color: '#ff0000' }] }],
  ] as const)('%s of another browser’s image is 403: nothing rendered, counted or stored', async (_, fn, part, body) => {
    const item = await ownedImage();
    const before = await count('rate_limits');
    await refusedAsNotYours(await postJson(fn as typeof imageHeal, `/api/transformations/${item.id}/${part}`, body));
    expect(await count('rate_limits')).toBe(before);
    expect(await count('work_slots')).toBe(0);
    expect((await getStorage().get(item.resultPath!))!.equals(item.clean)).toBe(true);
    expect((await getTransformation(item.id))!.meta).toMatchObject({ healMarks: [], colorHints: [] });
  });

  it('a colour reference for another browser’s image is 403 before its photo is even read; removing one too', async () => {
    const item = await ownedImage();
    let read = false;
    // No buffering ahead (high-water mark 0): the stream is pulled only when the function reads the body.
    const photo = new ReadableStream<Uint8Array>({ pull(c) { read = true; c.close(); } }, { highWaterMark: 0 });
    const url = `${BASE}/api/transformations/${item.id}/reference`;
    await refusedAsNotYours(await imageReference(new Request(url, { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=x' }, body: photo, duplex: 'half' } as RequestInit), client() as never));
    expect(read).toBe(false);
    await refusedAsNotYours(await imageReference(new Request(url, { method: 'DELETE' }), client() as never));
    expect((await getTransformation(item.id))!.hints).not.toHaveProperty('referencePath');
  });

  it('"Animate this photo" from another browser’s image is 403, for the job and for the tab’s defaults; no job is made', async () => {
    const item = await ownedImage();
    const before = await count('media_transformations');
    await refusedAsNotYours(await postJson(processVideo, '/api/process-video', { fromImageId: item.id, prompt: 'Slowly zoom in on the subject', mode: 'standard', duration: 5 }));
    await refusedAsNotYours(await postJson(videoDefaults, '/api/video-defaults', { fromImageId: item.id }));
    expect(await count('media_transformations')).toBe(before);
  });

  it('the owner’s secret is kept as a hash only, and a new item’s answer hands it to its maker once', async () => {
    const photo = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#777777' } }).png().toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/png' }), 'old.png');
    form.append('model', 'sd-xl');
    form.append('prompt', 'Restore this photo please');
    const made = await (await processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', body: form }), client() as never)).json();
    expect(made.ownerSecret).toMatch(OWNER_SECRET_PATTERN);
    const [row] = await query<{ hash: string; hints: string }>('select owner_secret_hash as hash, hints::text as hints from media_transformations where id = $1', [made.transformationId]);
    expect(row!.hash).toBe(createHash('sha256').update(made.ownerSecret).digest('hex'));
    expect(row!.hints).not.toContain(made.ownerSecret);
    // Every later answer about it leaves the secret out.
    const again = await (await status(made.transformationId, made.ownerSecret)).json();
    expect(JSON.stringify(again)).not.toContain(made.ownerSecret);
    await refusedAsNotYours(await status(made.transformationId));
  });

  it('an item made before owner secrets (no hash) keeps working as it did, without one', async () => {
    const legacy = await ownedImage(false);
    expect(legacy.ownerSecretHash).toBeNull();
    const res = await status(legacy.id);
    expect(res.status).toBe(200);
    expect((await res.json()).originalImageUrl).toMatch(new RegExp(`originals/${legacy.id}\\.png`));
  });
});

describe('image endpoints bound their work before it starts', () => {
  /** A PNG whose header declares width × height and that holds no pixels at all: decoding it could only fail. */
  const declaredOnly = (width: number, height: number) => {
    const png = pngHeader(width, height);
    return Buffer.concat([png, Buffer.from([0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82])]);
  };
  const defaults = (bytes: Buffer, ctx = client()) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/png' }), 'photo.png');
    return videoDefaults(new Request(`${BASE}/api/video-defaults`, { method: 'POST', body: form }), ctx as never);
  };

  it('a 129 KB PNG of 6324 × 6324 px at /api/video-defaults is refused (413) from its header: what the tab sends is 640 px', async () => {
    const bomb = await sharp({ create: { width: 6324, height: 6324, channels: 3, background: '#808080' } }).png().toBuffer();
    expect(bomb.length).toBeLessThan(140_000);
    const res = await defaults(bomb);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe(MSG.photoTooLargeFor(DEFAULTS_MAX_SIDE));
    // The same answer for a file that declares the size and holds nothing to decode: the header alone decided.
    const empty = await defaults(declaredOnly(6324, 6324));
    expect(empty.status).toBe(413);
    expect((await empty.json()).error).toBe(MSG.photoTooLargeFor(DEFAULTS_MAX_SIDE));
    // A file within the bound that holds nothing is read, and refused as damaged.
    expect((await defaults(declaredOnly(DEFAULTS_MAX_SIDE, 200))).status).toBe(400);
  });

  it('a colour reference larger than any the page sends is refused from its header (413), before it is decoded', async () => {
    const item = await seedCompleted('image', { owned: true });
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(declaredOnly(REFERENCE_MAX_SIDE + 1, 100))], { type: 'image/png' }), 'ref.png');
    const res = await imageReference(new Request(`${BASE}/api/transformations/${item.id}/reference`, { method: 'POST', headers: { [OWNER_SECRET_HEADER]: item.ownerSecret! }, body: form }), client() as never);
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe(MSG.photoTooLargeFor(REFERENCE_MAX_SIDE));
  });

  it.each([
    ['/api/process-image', 'image', processImage],
    ['/api/video-defaults', 'defaults', videoDefaults],
    ['/api/process-video', 'video', processVideo],
  ] as const)('a client past its allowance at %s is refused (429) before its upload is read', async (path, kind, fn) => {
    const ctx = client();
    for (let i = 0; i < TOOL_LIMITS[kind].max; i++) await enforceToolLimit(kind, ctx);
    let read = false;
    const upload = new ReadableStream<Uint8Array>({ pull(c) { read = true; c.enqueue(new Uint8Array(1024)); c.close(); } }, { highWaterMark: 0 });
    const type = kind === 'video' ? 'application/json' : 'multipart/form-data; boundary=x';
    const res = await (fn as typeof processImage)(new Request(`${BASE}${path}`, { method: 'POST', headers: { 'content-type': type }, body: upload, duplex: 'half' } as RequestInit), ctx as never);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBeTruthy();
    expect(read).toBe(false);
  });
});
