import { describe, expect, it } from 'vitest';
import processVideo from '../../../netlify/functions/process-video.mts';
import processImage from '../../../netlify/functions/process-image.mts';
import videoDefaults from '../../../netlify/functions/video-defaults.mts';
import transformations from '../../../netlify/functions/transformations.mts';
import checkout from '../../../netlify/functions/checkout.mts';
import { query } from '../../../netlify/lib/db';
import { getStorage } from '../../../netlify/lib/storage';
import { getTransformation } from '../../../netlify/lib/transformations';
import { queueVideo, runVideoJob } from '../../../netlify/lib/tool';
import { MSG } from '../../../src/lib/messages';
import { transformationItem } from '../../../src/lib/catalog';
import { useEmbeddedPlatform } from '../platform/helpers/backends';
import { BASE, cartItem, dataUrl, greyPhoto, keepOwner, multipart, owner } from '../../support/tool-helpers';
import sharp from 'sharp';
import { DEFAULTS_UPLOAD_SIDE } from '../../../src/lib/tool/constants';
import { makeScene } from '../../support/video-scenes';
import { decodeFrames } from '../../support/video';
import { readFileSync } from 'node:fs';
import { videoDefaultsSchema, type VideoDefaults } from '../../../src/lib/tool/video-schema';

// The video tab's options end to end through the functions: "Restore & colorize first" (decided from the photo
// when left out), "Animate this photo" from a finished image result, "Bring faces to life", and the defaults the
// tab shows for a chosen photo.

useEmbeddedPlatform({ VIDEO_JOB_RUNNER: 'inline' });

const PROMPT = 'Slowly zoom in on the subject';
const json = (fn: typeof processVideo | typeof videoDefaults, url: string, body: unknown, headers: Record<string, string> = {}) =>
  fn(new Request(`${BASE}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) }), {});
const queue = async (body: Parameters<typeof queueVideo>[0]) => keepOwner(await queueVideo(body));
const status = (id: string) => transformations(new Request(`${BASE}/api/transformations/${id}`, { headers: owner(id) }), {});
const defaults = (form: FormData) => videoDefaults(new Request(`${BASE}/api/video-defaults`, { method: 'POST', body: form }), {});
const rowCount = async () => (await query<{ n: number }>('select count(*)::int as n from media_transformations'))[0]!.n;

/** Mean chroma (|Cb − 128| + |Cr − 128| over RGB's BT.601 mix) of a clip's first frame: 0 for a grey frame. */
async function firstFrameChroma(mp4: Buffer): Promise<number> {
  const rgb = await decodeFrames(mp4, { first: 0, count: 1 });
  let sum = 0;
  for (let i = 0; i < rgb.length; i += 3) {
    const [r, g, b] = [rgb[i]!, rgb[i + 1]!, rgb[i + 2]!];
    sum += Math.abs(-0.169 * r - 0.331 * g + 0.5 * b) + Math.abs(0.5 * r - 0.419 * g - 0.081 * b);
  }
  return sum / (rgb.length / 3);
}

/** The job's row once it has ended (the process-video function started it inline). */
async function ended(id: string, timeoutMs = 240_000) {
  const start = Date.now();
  for (;;) {
    const t = (await getTransformation(id))!;
    if (t.status === 'completed' || t.status === 'failed') return t;
    if (Date.now() - start > timeoutMs) throw new Error(`job ${id} still ${t.status}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function cleanClip(id: string): Promise<Buffer> {
  const t = (await getTransformation(id))!;
  return (await getStorage().get(t.resultPath!))!;
}

describe('video options', () => {
  it('restores and colorizes a grey photo first when the buyer leaves the choice to the server, and shows the restored still', async () => {
    const t = await queue({ imageData: dataUrl(await greyPhoto(480, 320)), prompt: PROMPT, mode: 'standard' });
    expect(t.hints.restoreFirst).toBeUndefined();
    const done = (await runVideoJob(t.id))!;
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.hints).toMatchObject({ restoreFirst: true, restoreReason: 'greyscale', animateFaces: true });
    expect(String(done.hints.restoreMethod)).toMatch(/colorization/);
    expect(await firstFrameChroma(await cleanClip(t.id))).toBeGreaterThan(2);
    const res = await status(t.id);
    const body = await res.json();
    expect(body).toMatchObject({ status: 'completed', restoreFirst: true });
    expect(body.stillUrl).toMatch(/previews\/.+\.original\.jpg/);
    // The poster is the watermarked preview of the restoration, never its clean file.
    const still = (await getStorage().get(done.meta.originalViewPath!))!;
    expect(still.length).toBeGreaterThan(1000);
  });

  it('animates the upload as it is when "Restore & colorize first" is off', async () => {
    const t = await queue({ imageData: dataUrl(await greyPhoto(480, 320)), prompt: PROMPT, mode: 'standard', restoreFirst: false, animateFaces: false });
    expect(t.hints).toMatchObject({ restoreFirst: false, animateFaces: false });
    const done = (await runVideoJob(t.id))!;
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.hints).toMatchObject({ restoreFirst: false, animateFaces: false });
    expect(await firstFrameChroma(await cleanClip(t.id))).toBeLessThan(1.5);
    const res = await status(t.id);
    expect((await res.json()).stillUrl).toBeNull();
  });

  it('"Animate this photo" makes the clip from a finished image result, priced as a video', async () => {
    const img = await processImage(
      new Request(`${BASE}/api/process-image`, { method: 'POST', body: multipart({ file: { name: 'old.png', type: 'image/png', bytes: await greyPhoto(480, 320) }, model: 'sd-xl', prompt: 'Restore this family photo' }) }),
      {},
    );
    const image = keepOwner(await img.json());
    expect(img.status, JSON.stringify(image)).toBe(200);
    // The tab's defaults for it, judged on the restored file itself; its boxes go back with the job.
    const asked = await json(videoDefaults, '/api/video-defaults', { fromImageId: image.transformationId }, owner(image.transformationId));
    const judged = (await asked.json()) as VideoDefaults;
    expect(asked.status, JSON.stringify(judged)).toBe(200);
    expect(videoDefaultsSchema.parse(judged)).toEqual(judged);
    const res = await json(processVideo, '/api/process-video', { fromImageId: image.transformationId, prompt: PROMPT, mode: 'standard', duration: 5, subjects: judged.subjects }, owner(image.transformationId));
    const queued = keepOwner(await res.json());
    expect(res.status, JSON.stringify(queued)).toBe(202);
    const done = await ended(queued.transformationId);
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.hints).toMatchObject({ sourceImageId: image.transformationId, restoreFirst: true, restoreReason: 'image result', subjects: judged.subjects });
    expect(await firstFrameChroma(await cleanClip(done.id))).toBeGreaterThan(2);
    const paid = await json(checkout, '/api/checkout', { items: [cartItem(done.id)], idempotencyKey: crypto.randomUUID() });
    const order = await paid.json();
    expect(paid.status, JSON.stringify(order)).toBe(200);
    expect(order.amount).toBe(transformationItem('video', '720p').price);
  });

  it('refuses an image id that is not a finished image, and a malformed option, storing nothing', async () => {
    const before = await rowCount();
    const missing = await json(processVideo, '/api/process-video', { fromImageId: crypto.randomUUID(), prompt: PROMPT, mode: 'standard' });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toBe(MSG.videoSourceImage);
    const noDefaults = await json(videoDefaults, '/api/video-defaults', { fromImageId: crypto.randomUUID() });
    expect(noDefaults.status).toBe(404);
    expect((await noDefaults.json()).error).toBe(MSG.videoSourceImage);
    const badId = await json(videoDefaults, '/api/video-defaults', { fromImageId: 'not-an-id' });
    expect(badId.status).toBe(400);
    expect((await badId.json()).error).toBe(MSG.videoSourceImage);
    const bad = await json(processVideo, '/api/process-video', { imageData: dataUrl(await greyPhoto()), prompt: PROMPT, mode: 'standard', restoreFirst: 'yes' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe(MSG.videoOption('Restore & colorize first'));
    expect(await rowCount()).toBe(before);
  });

  it('keeps the detector\'s boxes the tab sent with the job, and makes the clip with them', async () => {
    const cat = { label: 'cat', score: 0.45, box: { x: 0.45, y: 0.44, width: 0.25, height: 0.23 } };
    const res = await json(processVideo, '/api/process-video', { imageData: dataUrl(await greyPhoto(480, 320)), prompt: PROMPT, mode: 'standard', restoreFirst: false, animateFaces: false, subjects: [cat] });
    const queued = await res.json();
    expect(res.status, JSON.stringify(queued)).toBe(202);
    const done = await ended(queued.transformationId);
    expect(done.status, done.error ?? '').toBe('completed');
    expect(done.hints.subjects).toEqual([cat]);
    const bad = await json(processVideo, '/api/process-video', { imageData: dataUrl(await greyPhoto()), prompt: PROMPT, mode: 'standard', subjects: [{ ...cat, box: { ...cat.box, x: 0.9 } }] });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe(MSG.videoSubjects);
  });

  it('tells the tab its defaults: restore a grey photo first, not a colour one; faces only where one is found', async () => {
    const grey = await defaults(multipart({ file: { name: 'old.png', type: 'image/png', bytes: await greyPhoto(480, 320) } }));
    expect(grey.status).toBe(200);
    expect(await grey.json()).toMatchObject({ success: true, restoreFirst: true, restoreReason: 'greyscale', animateFaces: false, faces: 0 });
    const colour = await defaults(multipart({ file: { name: 'new.jpg', type: 'image/jpeg', bytes: (await makeScene('portrait', 480, 320)).jpeg } }));
    expect(await colour.json()).toMatchObject({ restoreFirst: false, restoreReason: 'colour' });
    // The object detector runs here (the video function has no room for it): its boxes, in shares of the photo.
    // The tab sends a reduced copy (DEFAULTS_UPLOAD_SIDE on the long side), as here.
    const reduced = await sharp(readFileSync('public/media/samples/spaniel-window.jpg')).resize(DEFAULTS_UPLOAD_SIDE, DEFAULTS_UPLOAD_SIDE, { fit: 'inside' }).jpeg({ quality: 90 }).toBuffer();
    const spaniel = await defaults(multipart({ file: { name: 'dog.jpg', type: 'image/jpeg', bytes: reduced } }));
    const found = (await spaniel.json()) as VideoDefaults;
    expect(videoDefaultsSchema.parse(found)).toEqual(found);
    expect(found.subjects.some((s) => ['dog', 'cat'].includes(s.label))).toBe(true);
    const notImage = await defaults(multipart({ file: { name: 'x.png', type: 'image/png', bytes: Buffer.from('not an image') } }));
    expect(notImage.status).toBe(400);
  });
});
