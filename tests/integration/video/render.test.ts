import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { renderEmbedded, type RenderResult } from '../../../engines/video/render';
import { letterboxBar } from '../../../engines/video/filters';
import { cameraRectAt, parseMotion, planCameraPath } from '../../../engines/video/motion';
import { VideoInputError } from '../../../engines/video/input';
import { decodeFrames, ffmpegChildren, probe, texturedImage, topLevelBoxes } from '../../support/video';

const RENDER_TIMEOUT = 90_000;
const base = { watermarkText: 'Lumora AI' } as const;

function expectPlayableMp4(p: Awaited<ReturnType<typeof probe>>, width: number, height: number) {
  expect(p.codec).toBe('h264');
  expect(p.pixFmt).toBe('yuv420p');
  expect(p.width).toBe(width);
  expect(p.height).toBe(height);
  expect(p.frames).toBe(150);
  expect(Math.abs(p.duration - 5)).toBeLessThanOrEqual(0.05);
}

function expectFaststart(mp4: Buffer) {
  const boxes = topLevelBoxes(mp4);
  expect(boxes).toContain('moov');
  expect(boxes).toContain('mdat');
  expect(boxes.indexOf('moov')).toBeLessThan(boxes.indexOf('mdat'));
}

// Real encodes of the embedded engine: each render is a 5-second ffmpeg run.
describe('renderEmbedded', () => {
  let landscape: Buffer;
  beforeAll(async () => {
    landscape = await texturedImage(1600, 900);
  });
  // The standard render of the landscape is checked by two tests: it is made once, by whichever runs first.
  let standard: Promise<{ r: RenderResult; progress: number[] }> | undefined;
  const standardRender = () =>
    (standard ??= (async () => {
      const progress: number[] = [];
      const r = await renderEmbedded(landscape, { ...base, prompt: 'zoom in slowly', mode: 'standard', onProgress: (p) => progress.push(p) });
      return { r, progress };
    })());

  it('renders a 5 s, 150-frame, 720p H.264/yuv420p faststart MP4 plus its preview, with real progress', async () => {
    const { r, progress } = await standardRender();
    expect(r).toMatchObject({ width: 1280, height: 720, frames: 150, durationSeconds: 5 });
    const [video, preview] = await Promise.all([probe(r.video), probe(r.preview)]);
    expectPlayableMp4(video, 1280, 720);
    expectPlayableMp4(preview, 854, 480); // below the cheapest paid file (720p)
    expectFaststart(r.video);
    expectFaststart(r.preview);
    expect(progress[0]).toBe(0);
    expect(progress.at(-1)).toBe(1);
    expect(progress.some((p) => p > 0.05 && p < 1)).toBe(true); // frame counts from ffmpeg arrived
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]);
  }, RENDER_TIMEOUT);

  it('follows the planned camera path with sub-pixel precision and no jitter', async () => {
    // A bright dot on flat grey: its on-screen position is predictable from the camera path.
    const [W, H, mx, my] = [1280, 720, 400, 360];
    const img = await sharp(
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}"><rect width="100%" height="100%" fill="#646464"/><circle cx="${mx}" cy="${my}" r="7" fill="#fff"/></svg>`),
    ).png().toBuffer();
    const prompt = 'pan left';
    const r = await renderEmbedded(img, { ...base, prompt, mode: 'standard' });
    const path = planCameraPath(parseMotion(prompt), 150);
    const band = 64;
    const rows = await decodeFrames(r.video, { first: 0, count: 150, pixFmt: 'gray', crop: `${W}:${band}:0:${my - band / 2}` });
    expect(rows.length).toBe(W * band * 150);
    const xs: number[] = [];
    for (let n = 0; n < 150; n++) {
      let sum = 0;
      let wsum = 0;
      for (let y = 0; y < band; y++) {
        for (let x = 0; x < W; x++) {
          const v = rows[n * W * band + y * W + x] - 140;
          if (v > 0) {
            sum += v * x;
            wsum += v;
          }
        }
      }
      expect(wsum, `dot visible in frame ${n}`).toBeGreaterThan(0);
      xs.push(sum / wsum);
      const rect = cameraRectAt(path, n);
      const expected = ((mx / W - rect.x) / rect.w) * W;
      expect(Math.abs(xs[n] - expected), `frame ${n}`).toBeLessThan(1.5);
    }
    // The scene moves right while the camera pans left, and every step is smooth: integer-rounded
    // crops (zoompan) would make consecutive steps alternate by whole pixels.
    expect(xs[149] - xs[0]).toBeGreaterThan(200);
    for (let n = 2; n < 150; n++) {
      const accel = xs[n] - 2 * xs[n - 1] + xs[n - 2];
      expect(Math.abs(accel), `jitter at frame ${n}`).toBeLessThan(0.4);
    }
  }, RENDER_TIMEOUT);

  it('cinematic adds black letterbox bars and a grade; standard has neither', async () => {
    const [{ r: std }, cine] = await Promise.all([
      standardRender(),
      renderEmbedded(landscape, { ...base, prompt: 'zoom in slowly', mode: 'cinematic' }),
    ]);
    expectPlayableMp4(await probe(cine.video), 1280, 720);
    const bar = letterboxBar(1280, 720);
    expect(bar).toBeGreaterThanOrEqual(80);
    const [s, c] = await Promise.all([decodeFrames(std.video, { first: 75 }), decodeFrames(cine.video, { first: 75 })]);
    const row = (buf: Buffer, y: number) => buf.subarray(y * 1280 * 3, (y + 1) * 1280 * 3);
    const maxOf = (b: Buffer) => b.reduce((m, v) => Math.max(m, v), 0);
    for (const y of [0, 10, bar - 2, 719, 719 - bar + 2]) {
      expect(maxOf(row(c, y)), `cinematic row ${y}`).toBeLessThanOrEqual(24);
      expect(maxOf(row(s, y)), `standard row ${y}`).toBeGreaterThan(100);
    }
    // Inside the picture the two looks differ clearly (grade, vignette, grain).
    let diff = 0;
    for (let i = bar * 1280 * 3; i < (720 - bar) * 1280 * 3; i++) diff += Math.abs(s[i] - c[i]);
    expect(diff / ((720 - 2 * bar) * 1280 * 3)).toBeGreaterThan(6);
  }, RENDER_TIMEOUT);

  it('burns the watermark into the preview only', async () => {
    const grey = await sharp({ create: { width: 1280, height: 720, channels: 3, background: '#707070' } }).png().toBuffer();
    const r = await renderEmbedded(grey, { ...base, prompt: 'zoom in', mode: 'standard' });
    const [clean, preview] = await Promise.all([decodeFrames(r.video, { first: 75 }), decodeFrames(r.preview, { first: 75 })]);
    let cleanOutliers = 0;
    let bright = 0;
    for (let i = 0; i < clean.length; i++) {
      if (Math.abs(clean[i] - 0x70) > 8) cleanOutliers++;
      if (preview[i] > 0x70 + 40) bright++;
    }
    expect(cleanOutliers).toBe(0); // the clean video is the flat grey photo, nothing drawn on it
    expect(bright / preview.length).toBeGreaterThan(0.01); // white "Lumora AI" text in the preview
  }, RENDER_TIMEOUT);

  it('keeps a portrait photo portrait (720 wide), and takes the boxes found on the photo as the detector\'s answer', async () => {
    const dog = { label: 'dog', score: 0.6, box: { x: 0.25, y: 0.25, width: 0.5, height: 0.5 } };
    const r = await renderEmbedded(await texturedImage(900, 1600), { ...base, prompt: 'tilt down', mode: 'standard', subjects: [dog] });
    expect(r).toMatchObject({ width: 720, height: 1280 });
    expectPlayableMp4(await probe(r.video), 720, 1280);
    // The vision models look at a 360 × 640 copy of the still; the detector itself did not run.
    expect(r.vision!.subjects).toEqual([{ label: 'dog', score: 0.6, box: { x: 90, y: 160, width: 180, height: 320 } }]);
    expect(r.vision!.timings.subjects).toBeUndefined();
  }, RENDER_TIMEOUT);

  it('abort kills ffmpeg and rejects', async () => {
    const controller = new AbortController();
    let sawFfmpeg = false;
    const started = renderEmbedded(landscape, {
      ...base,
      prompt: 'pan right',
      mode: 'cinematic',
      signal: controller.signal,
      onProgress: (p) => {
        // 0.05 is reported just before ffmpeg starts; abort once it is really running.
        if (p === 0.05)
          setTimeout(() => {
            sawFfmpeg = ffmpegChildren().length > 0;
            controller.abort();
          }, 250);
      },
    });
    await expect(started).rejects.toMatchObject({ name: 'AbortError' });
    expect(sawFfmpeg).toBe(true);
    expect(ffmpegChildren()).toEqual([]);
  }, RENDER_TIMEOUT);

  it('rejects an already-aborted signal and non-image bytes without starting ffmpeg', async () => {
    await expect(
      renderEmbedded(landscape, { ...base, prompt: 'zoom in', mode: 'standard', signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({ name: 'AbortError' });
    await expect(
      renderEmbedded(Buffer.from('GIF89a not really'), { ...base, prompt: 'zoom in', mode: 'standard' }),
    ).rejects.toBeInstanceOf(VideoInputError);
  });
});
