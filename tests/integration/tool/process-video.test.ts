import { describe, expect, it } from 'vitest';
import processVideo from '../../../netlify/functions/process-video.mts';
import background from '../../../netlify/functions/process-video-background.mts';
import transformations from '../../../netlify/functions/transformations.mts';
import files from '../../../netlify/functions/files.mts';
import toolUploads from '../../../netlify/functions/tool-uploads.mts';
import uploads from '../../../netlify/functions/uploads.mts';
import maintenance from '../../../netlify/functions/maintenance.mts';
import checkout from '../../../netlify/functions/checkout.mts';
import { query } from '../../../netlify/lib/db';
import { getStorage } from '../../../netlify/lib/storage';
import { getTransformation } from '../../../netlify/lib/transformations';
import { queueVideo, runVideoJob, jobSignature } from '../../../netlify/lib/tool';
import { MSG } from '../../../src/lib/messages';
import { useEmbeddedPlatform } from '../platform/helpers/backends';
import { BASE, cartItem, dataUrl, greyPhoto, keepOwner, owner, pngBombHeader } from '../../support/tool-helpers';
import { client } from '../abuse/helpers';
import { transformationItem } from '../../../src/lib/catalog';
import { makeScene } from '../../support/video-scenes';
import { probe } from '../../support/video';

useEmbeddedPlatform({ VIDEO_JOB_RUNNER: 'inline' });

/** Each call as a new visitor (the video allowance is counted before the body is read), keeping the item's secret. */
const post = async (body: unknown) => {
  const res = await processVideo(
    new Request(`${BASE}/api/process-video`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
    client(),
  );
  keepOwner(await res.clone().json().catch(() => ({})));
  return res;
};
const queue = async (body: Parameters<typeof queueVideo>[0]) => keepOwner(await queueVideo(body));
const status = async (id: string) => {
  const res = await transformations(new Request(`${BASE}/api/transformations/${id}`, { headers: owner(id) }), {});
  return { status: res.status, body: await res.json() };
};
const rowCount = async () => (await query<{ n: number }>('select count(*)::int as n from media_transformations'))[0]!.n;
const PROMPT = 'Slowly zoom in on the subject';

async function waitFor(id: string, timeoutMs = 240_000) {
  const seen: number[] = [];
  const start = Date.now();
  for (;;) {
    const { body } = await status(id);
    seen.push(body.progress);
    if (body.status === 'completed' || body.status === 'failed') return { body, seen };
    if (Date.now() - start > timeoutMs) throw new Error(`job ${id} still ${body.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('POST /api/process-video', () => {
  it('answers 202 at once and the job completes with progress reaching 1', async () => {
    const png = await greyPhoto(480, 320);
    const started = Date.now();
    const res = await post({ imageData: dataUrl(png), prompt: PROMPT, mode: 'cinematic', duration: 5, watermark: true });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(202);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(body).toMatchObject({ success: true, status: 'queued' });
    const { body: done, seen } = await waitFor(body.transformationId);
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'completed', progress: 1, error: null, kind: 'video' });
    expect(seen.some((p) => p > 0 && p < 1), `progress seen: ${seen.join(',')}`).toBe(true);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect(done.videoUrl).toMatch(/^\/api\/files\/previews\/.+\.mp4\?.*t=\d+/);
    expect(done.originalImageUrl).toMatch(/originals\/.+\.png/);
    const preview = await files(new Request(new URL(done.videoUrl, BASE)), {});
    expect(preview.headers.get('content-type')).toBe('video/mp4');
    const previewBytes = Buffer.from(await preview.arrayBuffer());
    const t = (await getTransformation(body.transformationId))!;
    const clean = (await getStorage().get(t.resultPath!))!;
    expect(clean.length).toBeGreaterThan(1000);
    expect(previewBytes.equals(clean)).toBe(false);
    expect(previewBytes.subarray(4, 8).toString('latin1')).toBe('ftyp');
  });

  it('renders the chosen 1080p clip, records how it was made, and the checkout charges the 1080p price', async () => {
    const photo = (await makeScene('portrait', 800, 600)).jpeg;
    const res = await post({ imageData: dataUrl(photo), prompt: 'Pan slowly to the right', mode: 'standard', resolution: '1080p', duration: 5 });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(202);
    const { body: done } = await waitFor(body.transformationId);
    expect(done).toMatchObject({ status: 'completed', resolution: '1080p' });
    const t = (await getTransformation(body.transformationId))!;
    expect(t.hints).toMatchObject({ resolution: '1080p', width: 1440, height: 1080, depth: { mode: 'parallax' } });
    const [clean, preview] = await Promise.all([probe((await getStorage().get(t.resultPath!))!), probe((await getStorage().get(t.previewPath!))!)]);
    expect(clean).toMatchObject({ width: 1440, height: 1080, frames: 150, codec: 'h264', pixFmt: 'yuv420p' });
    expect(Math.abs(clean.duration - 5)).toBeLessThanOrEqual(0.05);
    // The preview is 480p whatever was bought (below the cheapest paid file).
    expect(preview).toMatchObject({ width: 640, height: 480, frames: 150 });

    const paid = await checkout(
      new Request(`${BASE}/api/checkout`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: [cartItem(t.id)], idempotencyKey: crypto.randomUUID() }),
      }),
      {},
    );
    const order = await paid.json();
    expect(paid.status, JSON.stringify(order)).toBe(200);
    expect(order.amount).toBe(transformationItem('video', '1080p').price);
    expect(order.items[0]).toMatchObject({ type: 'video', name: transformationItem('video', '1080p').name });
  });

  it('keeps 720p when no resolution is asked for, and records a flat move with its reason', async () => {
    // A textured backdrop with nothing in front of it: no subject to lift off.
    const photo = (await makeScene('none', 480, 360)).jpeg;
    const t = await queue({ imageData: dataUrl(photo), prompt: PROMPT, mode: 'standard', duration: 5 });
    expect(t.hints).toMatchObject({ resolution: '720p' });
    const done = (await runVideoJob(t.id))!;
    expect(done).toMatchObject({ status: 'completed' });
    expect(done.hints).toMatchObject({ width: 960, height: 720, depth: { mode: 'flat', reason: 'no person found; no animal or object found; no subject found' } });
    expect((await status(t.id)).body.resolution).toBe('720p');
  });

  it('refuses bad inputs with 4xx and stores nothing', async () => {
    const rows = await rowCount();
    const png = await greyPhoto(64, 64);
    const cases: [unknown, string][] = [
      [{ imageData: 'data:text/plain;base64,aGVsbG8=', prompt: PROMPT, mode: 'standard', duration: 5 }, MSG.videoInvalidType],
      [{ imageData: dataUrl(Buffer.from('not really a png at all')), prompt: PROMPT, mode: 'standard', duration: 5 }, MSG.videoInvalidType],
      [{ imageData: dataUrl(pngBombHeader()), prompt: PROMPT, mode: 'standard', duration: 5 }, ''],
      [{ imageData: dataUrl(png), prompt: 'x'.repeat(201), mode: 'standard', duration: 5 }, MSG.videoPromptMax],
      [{ imageData: dataUrl(png), prompt: 'abc', mode: 'standard', duration: 5 }, MSG.videoPromptMin],
      [{ imageData: dataUrl(png), prompt: '    ', mode: 'standard', duration: 5 }, MSG.videoPromptBlank],
      [{ imageData: dataUrl(png), prompt: PROMPT, mode: 'epic', duration: 5 }, MSG.selectModel],
      [{ imageData: dataUrl(png), prompt: PROMPT, mode: 'standard', resolution: '4k', duration: 5 }, MSG.videoResolution],
      [{ imageData: dataUrl(png), prompt: PROMPT, mode: 'standard', resolution: 1080, duration: 5 }, MSG.videoResolution],
      [{ imageData: dataUrl(png), prompt: PROMPT, mode: 'standard', duration: 9 }, ''],
      ['{not json', MSG.invalidJson],
    ];
    for (const [body, message] of cases) {
      const res = await post(body);
      const answer = await res.json();
      expect(res.status, JSON.stringify(answer)).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
      expect(answer.success).toBe(false);
      if (message) expect(answer.error).toBe(message);
    }
    expect(await rowCount()).toBe(rows);
  });

  it('fails an aborted job with a clear message', async () => {
    const t = await queue({ imageData: dataUrl(await greyPhoto(480, 320)), prompt: PROMPT, mode: 'standard', duration: 5 });
    const controller = new AbortController();
    const run = runVideoJob(t.id, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    const done = await run;
    expect(done).toMatchObject({ status: 'failed' });
    expect(done!.error).toMatch(/cancelled|try again/i);
    const { body } = await status(t.id);
    expect(body).toMatchObject({ status: 'failed', success: false, videoUrl: null });
  });

  it('fails a job that timed out', async () => {
    const t = await queue({ imageData: dataUrl(await greyPhoto(480, 320)), prompt: PROMPT, mode: 'standard', duration: 5 });
    const done = await runVideoJob(t.id, { timeoutMs: 1 });
    expect(done).toMatchObject({ status: 'failed', error: 'Video generation timed out. Please try again.' });
  });

  it('the scheduled sweep fails a stale job (no heartbeat) instead of leaving it processing', async () => {
    const t = await queue({ imageData: dataUrl(await greyPhoto(64, 64)), prompt: PROMPT, mode: 'standard', duration: 5 });
    await query('alter table media_transformations disable trigger media_transformations_updated_at');
    await query(`update media_transformations set status = 'processing', updated_at = now() - interval '10 minutes' where id = $1`, [t.id]);
    await query('alter table media_transformations enable trigger media_transformations_updated_at');
    await maintenance();
    const { body } = await status(t.id);
    expect(body).toMatchObject({ status: 'failed', success: false });
    expect(body.error).toMatch(/try again/i);
  });

  it('the background function only runs jobs with a valid signature, and runs them once', async () => {
    const t = await queue({ imageData: dataUrl(await greyPhoto(320, 240)), prompt: PROMPT, mode: 'standard', duration: 5 });
    const call = (sig: string) =>
      background(
        new Request(`${BASE}/.netlify/functions/process-video-background`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ id: t.id, sig }),
        }),
        {},
      );
    expect((await call('forged')).status).toBe(403);
    expect((await getTransformation(t.id))!.status).toBe('queued');
    const res = await call(jobSignature(t.id));
    expect(await res.json()).toMatchObject({ success: true, status: 'completed' });
    // A second trigger does not render again.
    const again = await call(jobSignature(t.id));
    expect(await again.json()).toMatchObject({ status: 'completed' });
  });

  it('takes large photos through a signed upload (uploadId instead of imageData)', async () => {
    const jpeg = await greyPhoto(640, 480, 'jpeg');
    const ask = (body: object) =>
      toolUploads(
        new Request(`${BASE}/api/tool-uploads`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
        {},
      );
    const tiff = await ask({ kind: 'video', contentType: 'image/tiff', size: 100 });
    expect(tiff.status).toBe(400);
    expect((await tiff.json()).error).toContain(MSG.videoInvalidType);
    const huge = await ask({ kind: 'image', contentType: 'image/png', size: 16 * 1024 * 1024 });
    expect((await huge.json()).error).toContain(MSG.uploadTooLarge);

    const grant = await (await ask({ kind: 'video', contentType: 'image/jpeg', size: jpeg.length })).json();
    const put = await uploads(new Request(new URL(grant.upload.url, BASE), { method: 'PUT', headers: grant.upload.headers, body: new Uint8Array(jpeg) }), {});
    expect(put.status).toBe(200);
    const res = await post({ uploadId: grant.uploadId, prompt: PROMPT, mode: 'standard', duration: 5 });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(202);
    const { body: done } = await waitFor(body.transformationId);
    expect(done.status).toBe('completed');
    expect(done.originalImageUrl).toMatch(/originals\/.+\.jpg/);
    expect(await getStorage().get(`uploads/${grant.uploadId}`)).toBeNull();
    // An unknown upload id is a 400.
    const missing = await post({ uploadId: '00000000-0000-4000-8000-000000000000.jpg', prompt: PROMPT, mode: 'standard', duration: 5 });
    expect(missing.status).toBe(400);
  });

  it('GET answers 404 for unknown ids and 400 for malformed ones', async () => {
    expect((await status('00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect(await status('nope')).toEqual({ status: 400, body: { success: false, error: MSG.invalidTransformationId } });
  });
});
