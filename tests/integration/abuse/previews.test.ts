import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { renderEmbedded, type RenderResult, finishHostedVideo, previewSize } from '../../../engines/video';
import { uploadWatermarkSeed, watermarkCoverage, watermarkOverlay, watermarkSeed } from '../../../engines/shared';
import files from '../../../netlify/functions/files.mts';
import processImage from '../../../netlify/functions/process-image.mts';
import { getStorage } from '../../../netlify/lib/storage';
import { getTransformation } from '../../../netlify/lib/transformations';
import { startEmbedded } from '../platform/helpers/backends';
import { RESOLUTION_SHORT_SIDE } from '../../../src/lib/tool/video-modes';
import { WATERMARK } from '../../../src/lib/watermark-spec';
import { decodeFrames, probe } from '../../support/video';
import { invertWhiteOverlay, overlayAlpha, photoLike, psnr, rawOf, videoFrameInversion, type Raw } from '../../support/watermark-attack';

// The abuse corpus, previews: what an attacker with the project's own overlay code gets back from a preview.
const CHEAPEST_PAID_SHORT_SIDE = Math.min(...Object.values(RESOLUTION_SHORT_SIDE));
const RENDER_TIMEOUT = 180_000;

/** Frame `n` of an MP4 as a PNG. */
async function frame(mp4: Buffer, n: number): Promise<Buffer> {
  const { width, height } = await probe(mp4);
  const raw = await decodeFrames(mp4, { first: n });
  return sharp(raw, { raw: { width, height, channels: 3 } }).png().toBuffer();
}

async function attack(result: RenderResult, seed: number, n: number) {
  const p = await probe(result.preview);
  // The attacker is handed the item's exact layout (in reality it needs the site's secret to compute).
  const overlay = await watermarkOverlay(p.width, p.height, WATERMARK.text, seed);
  return { probe: p, ...(await videoFrameInversion(await frame(result.preview, n), await frame(result.video, n), overlay, p)) };
}

describe('video previews are not the product behind an overlay', () => {
  const seed = watermarkSeed('abuse-video-item');
  let embedded: RenderResult;

  it('the embedded engine: a 480p preview whose marked pixels do not invert back to the bought 720p file', async () => {
    embedded = await renderEmbedded(await photoLike(1280, 720), { prompt: 'zoom in slowly', mode: 'standard', watermarkText: WATERMARK.text, watermarkSeed: seed }, { parallax: false });
    for (const n of [10, 75, 140]) {
      const got = await attack(embedded, seed, n);
      expect(Math.min(got.probe.width, got.probe.height)).toBeLessThan(CHEAPEST_PAID_SHORT_SIDE);
      expect(got.inversionPsnrMarkedDb).toBeLessThanOrEqual(22);
      // The rest of the frame stays a fair picture of the clip.
      expect(got.previewPsnrUnmarkedDb).toBeGreaterThan(26);
    }
  }, RENDER_TIMEOUT);

  it('the hosted engine: its clean file becomes a smaller preview with the same destroyed marks', async () => {
    const hosted = await finishHostedVideo(embedded.video, WATERMARK.text, { watermarkSeed: seed });
    expect(hosted.video.length).toBeGreaterThan(0);
    const got = await attack(hosted, seed, 75);
    expect(Math.min(got.probe.width, got.probe.height)).toBeLessThan(CHEAPEST_PAID_SHORT_SIDE);
    expect(got.inversionPsnrMarkedDb).toBeLessThanOrEqual(22);
    // A model that delivers 480p itself still gets a preview smaller than its file.
    expect(previewSize({ width: 854, height: 480 }).height).toBeLessThan(480);
  }, RENDER_TIMEOUT);

  it('the layout differs per item and needs the secret', async () => {
    const { width, height } = previewSize({ width: 1280, height: 720 });
    const [a, b] = await Promise.all([watermarkCoverage(width, height, WATERMARK.text, seed), watermarkCoverage(width, height, WATERMARK.text, watermarkSeed('another-item'))]);
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    const secret = process.env.APP_SECRET;
    process.env.APP_SECRET = `${secret ?? ''}-other`;
    try {
      expect(watermarkSeed('abuse-video-item')).not.toBe(seed);
    } finally {
      if (secret === undefined) delete process.env.APP_SECRET;
      else process.env.APP_SECRET = secret;
    }
  });
});

describe('re-uploading one photo defeats nothing', () => {
  const BASE = 'http://localhost:8888';
  let platform: Awaited<ReturnType<typeof startEmbedded>>;
  beforeAll(async () => {
    platform = await startEmbedded();
  });
  afterAll(async () => {
    await platform?.stop();
  });
  let ip = 1;
  const upload = async (photo: Buffer) => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    form.append('model', 'sd-v1.5');
    form.append('prompt', 'Restore this photo please');
    const res = await processImage(new Request(`${BASE}/api/process-image`, { method: 'POST', body: form }), { ip: `10.88.0.${ip++}` } as never);
    expect(res.status).toBe(200);
    const { transformationId: id, processedUrl } = await res.json();
    const preview = Buffer.from(await (await files(new Request(new URL(processedUrl, BASE)), {})).arrayBuffer());
    const clean = (await getStorage().get((await getTransformation(id))!.resultPath!))!;
    return { id, preview, clean };
  };

  it('three uploads of one photo: one layout, and combining their previews recovers nothing under the marks (≤ 22 dB)', async () => {
    const photo = await photoLike(1000, 750);
    const uploads = [await upload(photo), await upload(await sharp(photo).jpeg({ quality: 90 }).toBuffer()), await upload(photo)];
    expect(new Set(uploads.map((u) => u.id)).size).toBe(3);
    const { width = 0, height = 0 } = await sharp(uploads[0]!.preview).metadata();
    const bought = await sharp(uploads[0]!.clean).metadata();
    // A photo under 1024 px is previewed smaller than it is bought.
    expect(Math.max(width, height)).toBeLessThan(Math.max(bought.width!, bought.height!));
    const overlay = await watermarkOverlay(width, height, WATERMARK.text, await uploadWatermarkSeed(photo));
    const alpha = await overlayAlpha(overlay);
    const marked = (p: number) => alpha[p]! > 0;
    const shown = await Promise.all(uploads.map((u) => rawOf(u.preview)));
    // One layout: where one preview is marked, all are (their marked pixels agree to within JPEG's error).
    for (const other of shown.slice(1)) expect(psnr(other, shown[0]!, marked)).toBeGreaterThan(30);
    // The attacker's best combination: per pixel, the least brightened of the three, then the overlay solved away.
    const combined: Raw = { ...shown[0]!, data: Buffer.from(shown[0]!.data.map((v, i) => Math.min(v, shown[1]!.data[i]!, shown[2]!.data[i]!))) };
    const reference = await rawOf(uploads[0]!.clean, { width, height });
    expect(psnr(invertWhiteOverlay(combined, alpha), reference, marked)).toBeLessThanOrEqual(22);
    expect(psnr(invertWhiteOverlay(shown[0]!, alpha), reference, marked)).toBeLessThanOrEqual(22);
  });
});
