import { describe, expect, it } from 'vitest';
import healthFunction from '../../../netlify/functions/health.mts';
import imageHeal from '../../../netlify/functions/image-heal.mts';
import imageHints from '../../../netlify/functions/image-hints.mts';
import imageReference from '../../../netlify/functions/image-reference.mts';
import processImage from '../../../netlify/functions/process-image.mts';
import processVideo from '../../../netlify/functions/process-video.mts';
import toolUploads from '../../../netlify/functions/tool-uploads.mts';
import transformations from '../../../netlify/functions/transformations.mts';
import videoDefaults from '../../../netlify/functions/video-defaults.mts';
import { publicHealthSchema } from '../../../src/lib/health';
import { imageAnswerSchema, restoreRequestSchema, type RestoreRequest } from '../../../src/lib/tool/image-schema';
import { transformationStatusSchema } from '../../../src/lib/tool/status-schema';
import { uploadGrantSchema, type UploadGrantRequest } from '../../../src/lib/tool/upload-schema';
import { videoDefaultsSchema, videoJobAnswerSchema } from '../../../src/lib/tool/video-schema';
import { DEFAULT_IMAGE_PROMPT, DEFAULT_VIDEO_PROMPT } from '../../../src/lib/tool/constants';
import { MSG } from '../../../src/lib/messages';
import { useEmbeddedPlatform } from '../platform/helpers/backends';
import { BASE, colourScene, dataUrl, greyPhoto, keepOwner, multipart, owner } from '../../support/tool-helpers';
import { answerOf, refusalOf } from './helpers';

// The tool's contract (src/lib/tool/*-schema.ts, src/lib/health.ts): every answer the tool island reads, from the
// real functions on a fresh embedded database and local storage.
useEmbeddedPlatform({ VIDEO_JOB_RUNNER: 'inline' });

const client = { ip: '192.0.2.75' } as never;
const json = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  new Request(`${BASE}${path}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
const options: RestoreRequest = { model: 'sd-xl', prompt: DEFAULT_IMAGE_PROMPT };

describe('the tool’s answers match the schemas its island reads them with', () => {
  it('restore, hints, heal, colour reference and status: each an answer of its schema', async () => {
    expect(restoreRequestSchema.parse(options)).toEqual(options);
    const made = await answerOf(imageAnswerSchema, await processImage(
      new Request(`${BASE}/api/process-image`, { method: 'POST', body: multipart({ file: { name: 'old.png', type: 'image/png', bytes: await greyPhoto() }, ...options }) }),
      client,
    ));
    keepOwner(made);
    expect(made.ownerSecret).toEqual(expect.any(String));
    const id = made.transformationId;
    const item = `/api/transformations/${id}`;

    const hinted = await answerOf(imageAnswerSchema, await imageHints(json('POST', `${item}/hints`, { hints: [{ x: 0.5, y: 0.5, color: '#3060c0' }] }, owner(id)), client));
    expect(hinted.hints).toHaveLength(1);
    expect(hinted.ownerSecret).toBeUndefined();
    const healed = await answerOf(imageAnswerSchema, await imageHeal(json('POST', `${item}/heal`, { marks: [{ points: [{ x: 0.3, y: 0.3 }] }] }, owner(id)), client));
    expect(healed.healMarks).toHaveLength(1);
    const referenced = await answerOf(imageAnswerSchema, await imageReference(
      new Request(`${BASE}${item}/reference`, { method: 'POST', headers: owner(id), body: multipart({ file: { name: 'reference.png', type: 'image/png', bytes: await colourScene() } }) }),
      client,
    ));
    expect(referenced.reference).toBe(true);
    const automatic = await answerOf(imageAnswerSchema, await imageReference(new Request(`${BASE}${item}/reference`, { method: 'DELETE', headers: owner(id) }), client));
    expect(automatic.reference).toBe(false);

    const status = await answerOf(transformationStatusSchema, await transformations(new Request(`${BASE}${item}`, { headers: owner(id) }), client));
    expect(status).toMatchObject({ kind: 'image', status: 'completed', hints: hinted.hints, healMarks: healed.healMarks });
    // Someone else's item: the refusal's shape, the island's ApiError.
    await refusalOf(await imageHints(json('POST', `${item}/hints`, { hints: [] }), client), 403);
  });

  it('a signed upload grant, the video tab’s defaults, a queued video followed to its end', async () => {
    const request: UploadGrantRequest = { kind: 'image', contentType: 'image/jpeg', size: 5 * 1024 * 1024 };
    const grant = await answerOf(uploadGrantSchema, await toolUploads(json('POST', '/api/tool-uploads', request), client));
    expect(grant.upload.method).toBe('PUT');
    expect((await refusalOf(await toolUploads(json('POST', '/api/tool-uploads', { ...request, contentType: 'text/plain' }), client), 400)).error).toBe(MSG.imageInvalidType);

    const photo = await greyPhoto(160, 120, 'jpeg');
    const defaults = await answerOf(videoDefaultsSchema, await videoDefaults(
      new Request(`${BASE}/api/video-defaults`, { method: 'POST', body: multipart({ file: { name: 'photo.jpg', type: 'image/jpeg', bytes: photo } }) }),
      client,
    ));
    expect(defaults.restoreFirst).toBe(true);

    const queued = keepOwner(await answerOf(videoJobAnswerSchema, await processVideo(
      json('POST', '/api/process-video', { imageData: dataUrl(photo, 'image/jpeg'), prompt: DEFAULT_VIDEO_PROMPT, mode: 'standard', duration: 5, restoreFirst: false, subjects: defaults.subjects }),
      client,
    ), 202));
    // The tab polls until the job ends: every answer on the way is one of the status schema.
    const id = queued.transformationId;
    for (;;) {
      const status = await answerOf(transformationStatusSchema, await transformations(new Request(`${BASE}/api/transformations/${id}`, { headers: owner(id) }), client));
      expect(status.kind).toBe('video');
      if (status.status === 'completed' || status.status === 'failed') {
        expect(status.status === 'completed' ? status.videoUrl : status.error).toEqual(expect.any(String));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  });

  it('/api/health: its public answer, with 200 or 503 alike', async () => {
    const res = await healthFunction(new Request(`${BASE}/api/health`));
    const health = await answerOf(publicHealthSchema, res, res.status === 503 ? 503 : 200);
    expect(health.payments.mode).toBe('demo');
  });
});
