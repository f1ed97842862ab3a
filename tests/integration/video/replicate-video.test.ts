import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ffmpegPath } from '../../../netlify/lib/video/ffmpeg';
import { logProgress, renderReplicate, replicateConfigFromEnv, VideoEngineError } from '../../../netlify/lib/video/replicate-video';
import { selectVideoEngine } from '../../../netlify/lib/video/engine';
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
