import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegPath } from '../../../engines/video/ffmpeg';
import { logProgress, renderReplicate, replicateConfigFromEnv, VideoEngineError } from '../../../netlify/lib/providers/replicate-video';
import { selectVideoEngine } from '../../../netlify/lib/providers/video-engine';
import { decodeFrames, probe, texturedImage, topLevelBoxes } from '../../support/video';
import { FakeReplicate, type CreateReply, type CreateTarget } from '../../support/fake-replicate';

/** A real clip as a hosted model would return it (no faststart; optionally another codec / odd size). */
async function makeClip(args: string[]): Promise<Buffer> {
  const dir = await mkdtemp(join(tmpdir(), 'replicate-test-'));
  const out = join(dir, 'clip.mp4');
  await new Promise<void>((resolve, reject) =>
    execFile(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=640x360:rate=24:duration=2', ...args, out], (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  const buf = await readFile(out);
  await rm(dir, { recursive: true, force: true });
  return buf;
}

/** What the stand-in answers for each model used below (the model's name picks the scenario). */
function videoScript(target: CreateTarget): CreateReply {
  const model = target.name ?? `version-${target.version}`;
  const processing = (pct: number) => ({ status: 'processing', logs: `Loading model\n${pct}%|████      | ${pct / 5}/20 [00:04<00:04]` });
  switch (model) {
    case 'broken':
      return { error: 422, detail: 'image: Does not match format "uri"' };
    case 'i2v':
    case 'version-abc123':
      return { script: [{ status: 'starting' }, processing(25), processing(75), { status: 'succeeded', output: fake.fileUrl('h264.mp4') }] };
    case 'odd':
      return { script: [processing(50), { status: 'succeeded', output: [fake.fileUrl('odd.mp4')] }] };
    case 'oom':
      return { script: [processing(10), { status: 'failed', error: 'CUDA out of memory', logs: 'Traceback ...' }] };
    case 'slow':
      return { script: [processing(5)] };
    default:
      return { script: [{ status: 'canceled' }] };
  }
}
const fake = new FakeReplicate(videoScript);

describe('Replicate engine against a local predictions API', () => {
  let image: Buffer;
  const env = (model: string) => ({
    REPLICATE_API_TOKEN: 'test-token',
    REPLICATE_API_URL: fake.base,
    REPLICATE_VIDEO_MODEL: model,
    REPLICATE_POLL_MS: '20',
  });
  const opts = { prompt: 'the waves roll in', mode: 'standard' as const, watermarkText: 'Lumora AI' };

  beforeAll(async () => {
    await fake.start();
    let h264: Buffer, odd: Buffer;
    [image, h264, odd] = await Promise.all([
      texturedImage(800, 450),
      makeClip(['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']),
      makeClip(['-vf', 'scale=641:361', '-c:v', 'mpeg4']),
    ]);
    fake.files['h264.mp4'] = { type: 'video/mp4', body: h264 };
    fake.files['odd.mp4'] = { type: 'video/mp4', body: odd };
  }, 60_000);
  afterAll(() => fake.stop());

  it('creates a prediction, polls it with mapped progress, downloads the MP4 and watermarks a preview', async () => {
    const progress: number[] = [];
    const engine = selectVideoEngine(env('acme/i2v'));
    expect(engine.id).toBe('replicate');
    const r = await engine.render(image, { ...opts, onProgress: (p) => progress.push(p) });

    const create = fake.requests.find((q) => q.method === 'POST' && q.url === '/v1/models/acme/i2v/predictions')!;
    expect(create.auth).toBe('Bearer test-token');
    expect(create.body.input.prompt).toBe('the waves roll in');
    expect(create.body.input.image).toMatch(/^data:image\/jpeg;base64,\/9j\//);

    expect(r).toMatchObject({ width: 640, height: 360, frames: 48 });
    expect(r.durationSeconds).toBeCloseTo(2, 1);
    expect(r.video.equals(fake.files['h264.mp4'].body)).toBe(false); // remuxed…
    const boxes = topLevelBoxes(r.video);
    expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat')); // …with faststart
    const [v, p] = await Promise.all([probe(r.video), probe(r.preview)]);
    expect(v).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: 640, height: 360, frames: 48 });
    // Smaller than the hosted file itself: two thirds of its short side.
    expect(p).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: 426, height: 240, frames: 48 });
    const [cf, pf] = await Promise.all([decodeFrames(r.video, { first: 10, crop: '426:240:0:0' }), decodeFrames(r.preview, { first: 10 })]);
    let diff = 0;
    for (let i = 0; i < cf.length; i++) diff += Math.abs(cf[i] - pf[i]);
    expect(diff / cf.length).toBeGreaterThan(2); // the preview carries the watermark

    // starting → model progress from the logs (25 %, 75 %) → download → preview → done
    expect(progress[0]).toBe(0);
    expect(progress).toContain(0.02);
    expect(progress).toContain(0.05 + 0.75 * 0.25);
    expect(progress).toContain(0.05 + 0.75 * 0.75);
    expect(progress.at(-1)).toBe(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
  }, 60_000);

  it('uses the versioned endpoint for owner/name:version and re-encodes odd-sized non-H.264 output', async () => {
    const v = await renderReplicate(image, opts, replicateConfigFromEnv(env('acme/anything:abc123'))!);
    const create = fake.requests.find((q) => q.url === '/v1/predictions' && q.method === 'POST')!;
    expect(create.body.version).toBe('abc123');
    expect(v.width).toBe(640);

    const odd = await renderReplicate(image, opts, replicateConfigFromEnv(env('acme/odd'))!);
    expect(odd).toMatchObject({ width: 640, height: 360 });
    expect(await probe(odd.video)).toMatchObject({ codec: 'h264', pixFmt: 'yuv420p', width: 640, height: 360 });
  }, 60_000);

  it('rejects with the model error when the prediction fails', async () => {
    await expect(renderReplicate(image, opts, replicateConfigFromEnv(env('acme/oom'))!)).rejects.toThrow(
      /Video generation failed: CUDA out of memory/,
    );
  });

  it('surfaces the API error body (validation error, bad token)', async () => {
    const err = await renderReplicate(image, opts, replicateConfigFromEnv(env('acme/broken'))!).catch((e) => e);
    expect(err).toBeInstanceOf(VideoEngineError);
    expect(err.message).toMatch(/422.*image: Does not match format "uri"/);
    const auth = await renderReplicate(image, opts, { ...replicateConfigFromEnv(env('acme/i2v'))!, token: 'nope' }).catch((e) => e);
    expect(auth.message).toMatch(/401.*valid authentication token/);
  });

  it('cancels the prediction when aborted', async () => {
    const controller = new AbortController();
    const started = renderReplicate(image, { ...opts, signal: controller.signal }, replicateConfigFromEnv(env('acme/slow'))!);
    setTimeout(() => controller.abort(), 150);
    await expect(started).rejects.toMatchObject({ name: 'AbortError' });
    expect(fake.canceled.some((id) => id.startsWith('slow-'))).toBe(true);
  });

  it('reads model progress from tqdm-style logs', () => {
    expect(logProgress('Loading\n 10%|█ | 2/20\n 55%|█████ | 11/20')).toBe(0.55);
    expect(logProgress('step 3/12')).toBe(0.25);
    expect(logProgress('')).toBeNull();
  });
});

// Finding 4 (videos made without the photo) and finding 5 (large uploads refused upstream), against the stand-in as
// Replicate answers today: it drops an input key the model does not take, so the test reads which key carried the
// photo; the schemas below are each preset's as its model page shows it (providers/replicate-presets.ts).
describe('video presets against the schemas their models serve', () => {
  const presetFake: FakeReplicate = new FakeReplicate((target): CreateReply =>
    target.name === 'hailuo-02'
      ? { script: [{ status: 'processing' }, { status: 'succeeded', output: presetFake.fileUrl('six.mp4') }] }
      : { script: [{ status: 'succeeded', output: presetFake.fileUrl('h264.mp4') }] },
  );
  const str = { type: 'string' };
  presetFake.models = {
    'kwaivgi/kling-v2.1': { official: true, input: { required: ['prompt', 'start_image'], properties: { prompt: str, start_image: str, end_image: str, negative_prompt: str, duration: { enum: [5, 10] }, mode: { enum: ['standard', 'pro'] } } } },
    'minimax/hailuo-02': { official: true, input: { required: ['prompt'], properties: { prompt: str, first_frame_image: str, last_frame_image: str, duration: { enum: [6, 10] }, resolution: { enum: ['512p', '768p', '1080p'] }, prompt_optimizer: { type: 'boolean' } } } },
    'wan-video/wan-2.2-i2v-fast': { official: true, input: { required: ['image', 'prompt'], properties: { image: str, prompt: str, num_frames: { type: 'integer' }, frames_per_second: { type: 'integer' }, resolution: { enum: ['480p', '720p'] }, go_fast: { type: 'boolean' } } } },
    'bytedance/seedance-2.0-fast': { official: true, input: { required: ['prompt'], properties: { prompt: str, image: str, duration: { type: 'integer' }, resolution: { enum: ['480p', '720p'] }, aspect_ratio: { enum: ['16:9', '4:3', '1:1', '3:4', '9:16', '21:9', 'adaptive'] }, generate_audio: { type: 'boolean' } } } },
  };
  let portrait: Buffer;
  const penv = (model: string) => ({ REPLICATE_API_TOKEN: 'test-token', REPLICATE_API_URL: presetFake.base, REPLICATE_VIDEO_MODEL: model, REPLICATE_POLL_MS: '20' });
  const opts = { prompt: 'she smiles', mode: 'standard' as const, watermarkText: 'Lumora AI' };

  beforeAll(async () => {
    await presetFake.start();
    let h264: Buffer, six: Buffer;
    [portrait, h264, six] = await Promise.all([
      texturedImage(450, 600),
      makeClip(['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p']),
      // A 6-second clip, as Hailuo renders for duration 6.
      (async () => {
        const dir = await mkdtemp(join(tmpdir(), 'replicate-six-'));
        const out = join(dir, 'six.mp4');
        await new Promise<void>((resolve, reject) =>
          execFile(ffmpegPath(), ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=24:duration=6', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out], (e) => (e ? reject(e) : resolve())),
        );
        const buf = await readFile(out);
        await rm(dir, { recursive: true, force: true });
        return buf;
      })(),
    ]);
    presetFake.files['h264.mp4'] = { type: 'video/mp4', body: h264 };
    presetFake.files['six.mp4'] = { type: 'video/mp4', body: six };
  }, 60_000);
  afterAll(() => presetFake.stop());

  it('a preset is named by its id or by its model', () => {
    for (const [id, model] of [['kling', 'kwaivgi/kling-v2.1'], ['hailuo', 'minimax/hailuo-02'], ['wan', 'wan-video/wan-2.2-i2v-fast'], ['seedance', 'bytedance/seedance-2.0-fast']]) {
      const [byId, byModel] = [replicateConfigFromEnv(penv(id!))!, replicateConfigFromEnv(penv(model!))!];
      expect(byId.model).toBe(model);
      expect({ ...byModel, model: byId.model }).toEqual(byId);
    }
  });

  // REPLICATE_VIDEO_MODEL as an operator copies it from Replicate's page, with no other variable.
  it.each([
    ['kwaivgi/kling-v2.1', 'start_image', { duration: 5, mode: 'standard' }],
    ['minimax/hailuo-02', 'first_frame_image', { duration: 6, resolution: '768p' }],
    ['wan-video/wan-2.2-i2v-fast', 'image', { num_frames: 81, frames_per_second: 16, resolution: '720p' }],
    ['bytedance/seedance-2.0-fast', 'image', { duration: 5, resolution: '720p', generate_audio: false, aspect_ratio: '3:4' }],
  ])('%s: the photo goes under "%s", the model keeps every key sent, the clip is 5 s', async (preset, key, sent) => {
    const before = presetFake.created.length;
    const r = await renderReplicate(portrait, opts, replicateConfigFromEnv(penv(preset))!);
    const created = presetFake.created.slice(before)[0]!;
    expect(created.dropped).toEqual([]);
    expect(String(created.accepted[key])).toMatch(/^data:image\/jpeg;base64,/);
    expect(created.accepted).toMatchObject({ ...sent, prompt: 'she smiles' });
    expect(r.durationSeconds).toBeLessThanOrEqual(5.01);
    expect((await probe(r.video)).frames).toBeLessThanOrEqual(5 * 24);
  }, 60_000);

  it('hailuo renders 6 s: the clip and its preview are trimmed to the 5-second product', async () => {
    const r = await renderReplicate(portrait, opts, replicateConfigFromEnv(penv('minimax/hailuo-02'))!);
    expect(r.durationSeconds).toBe(5);
    const [v, p] = await Promise.all([probe(r.video), probe(r.preview)]);
    expect(v.frames).toBe(120);
    expect(p.frames).toBe(120);
  }, 60_000);

  it('the old default key ("image") is what a Kling run would have dropped, and Kling refuses the run without start_image', async () => {
    const err = await renderReplicate(portrait, opts, { ...replicateConfigFromEnv(penv('kwaivgi/kling-v2.1'))!, imageKey: 'image' }).catch((e) => e);
    expect(err).toBeInstanceOf(VideoEngineError);
    expect(err.message).toMatch(/422.*start_image is required/);
  });

  it('a photo above 256 KB goes as a file (POST /v1/files) deleted after the run; one above the model limit as a downscaled copy', async () => {
    // Noise does not compress: ~1 MB as JPEG, ~12 MB as PNG (above the 10 MB Kling takes).
    const noise = (w: number, h: number) => Buffer.from(Array.from({ length: w * h * 3 }, (_, i) => (i * 2654435761) >>> 24));
    const big = await sharp(noise(1200, 900), { raw: { width: 1200, height: 900, channels: 3 } }).jpeg({ quality: 95 }).toBuffer();
    const huge = await sharp(noise(2300, 1800), { raw: { width: 2300, height: 1800, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(big.length).toBeGreaterThan(256 * 1024);
    expect(huge.length).toBeGreaterThan(10 * 1024 * 1024);
    for (const [photo, type] of [[big, 'image/jpeg'], [huge, 'image/jpeg']] as const) {
      const before = presetFake.created.length;
      await renderReplicate(photo, opts, replicateConfigFromEnv(penv('kwaivgi/kling-v2.1'))!);
      const url = String(presetFake.created.slice(before)[0]!.accepted.start_image);
      expect(url).toMatch(new RegExp(`^${presetFake.base}/v1/files/`));
      const id = url.split('/').pop()!;
      expect(presetFake.deletedFiles).toContain(id);
      const uploaded = presetFake.requests.find((q) => q.method === 'POST' && q.url === '/v1/files' && q.body instanceof FormData && presetFake.deletedFiles.includes(id));
      expect(uploaded).toBeDefined();
      expect(type).toBe('image/jpeg');
    }
    // The huge PNG went as a JPEG within the model's limit, its long side 2048.
    const last = presetFake.requests.filter((q) => q.method === 'POST' && q.url === '/v1/files').at(-1)!.body as FormData;
    const content = Buffer.from(await (last.get('content') as Blob).arrayBuffer());
    expect(content.length).toBeLessThan(10 * 1024 * 1024);
    expect(await sharp(content).metadata()).toMatchObject({ format: 'jpeg', width: 2048 });
  }, 120_000);
});
