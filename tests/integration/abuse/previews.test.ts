import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { renderEmbedded, type RenderResult } from '../../../netlify/lib/video/render';
import { finishHostedVideo, previewSize } from '../../../netlify/lib/video/preview';
import { watermarkCoverage, watermarkOverlay, watermarkSeed } from '../../../netlify/lib/media/watermark';
import { RESOLUTION_SHORT_SIDE } from '../../../src/lib/tool/video-modes';
import { WATERMARK } from '../../../src/lib/watermark-spec';
import { decodeFrames, probe } from '../../support/video';
import { photoLike, videoFrameInversion } from '../../support/watermark-attack';

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
