import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makePreview, previewLongSide } from '../../../netlify/lib/media/image-preview';
import { uploadWatermarkSeed, watermarkCoverage, watermarkOverlay, watermarkSeed } from '../../../engines/shared';
import { WATERMARK } from '../../../src/lib/watermark-spec';
import { invertWhiteOverlay, overlayAlpha, photoLike, psnr, rawOf } from '../../support/watermark-attack';

// Today's layout (before the per-item jitter) marked 6.4 % of a 1024 × 768 picture with a mean opacity of
// 2.2 %: the new one must not cover more.
const COVERAGE_BEFORE = { marked: 0.064, meanOpacity: 0.022 };

describe('the preview watermark', () => {
  // The layouts these figures were measured on: an item's seed under no site secret (watermarkSeed), whatever
  // another file left in the shared process's environment.
  beforeEach(() => {
    vi.stubEnv('APP_SECRET', '');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });
  it('cannot be removed by inverting the known overlay, and the preview stays useful', async () => {
    const clean = await photoLike(1200, 900);
    const preview = await makePreview(clean, 'item-a');
    const { width = 0, height = 0 } = await sharp(preview).metadata();
    // 70 % of the result's long side (1024 at most): below what is bought.
    expect([width, height]).toEqual([840, 630]);
    // The attacker is given the exact overlay of this item (which in reality needs the site's secret).
    const alpha = await overlayAlpha(await watermarkOverlay(width, height, WATERMARK.text, watermarkSeed('item-a')));
    const marked = (p: number) => alpha[p]! > 0;
    const reference = await rawOf(clean, { width, height });
    const shown = await rawOf(preview);
    const inverted = psnr(invertWhiteOverlay(shown, alpha), reference, marked);
    console.log(`inversion PSNR on marked pixels ${inverted.toFixed(1)} dB`);
    expect(inverted).toBeLessThanOrEqual(22);
    // Everything the mark does not touch is the restoration as bought, bar JPEG.
    expect(psnr(shown, reference, (p) => !marked(p))).toBeGreaterThan(32);
  });

  it('covers no more of the picture than before, and the letters stand out', async () => {
    const cover = await watermarkCoverage(1024, 768, WATERMARK.text, watermarkSeed('item-b'));
    const marked = cover.filter((c) => c > 0).length / cover.length;
    const meanOpacity = cover.reduce((sum, c) => sum + c, 0) / 255 / cover.length;
    console.log(`marked ${(marked * 100).toFixed(2)} %, mean opacity ${(meanOpacity * 100).toFixed(2)} %`);
    expect(marked).toBeLessThanOrEqual(COVERAGE_BEFORE.marked * 1.05);
    expect(meanOpacity).toBeLessThanOrEqual(COVERAGE_BEFORE.meanOpacity * 1.05);
    // The centre line is at full strength somewhere: readable.
    expect(cover.reduce((most, c) => Math.max(most, c), 0)).toBeGreaterThanOrEqual(Math.floor(WATERMARK.opacity * 255) - 1);
  });

  it('is jittered per item and the same for one item every time', async () => {
    const [a, again, b] = await Promise.all([
      watermarkCoverage(640, 480, WATERMARK.text, watermarkSeed('item-a')),
      watermarkCoverage(640, 480, WATERMARK.text, watermarkSeed('item-a')),
      watermarkCoverage(640, 480, WATERMARK.text, watermarkSeed('item-b')),
    ]);
    expect(Buffer.from(again).equals(Buffer.from(a))).toBe(true);
    let differing = 0;
    for (let i = 0; i < a.length; i++) if ((a[i]! > 0) !== (b[i]! > 0)) differing++;
    expect(differing / a.length).toBeGreaterThan(0.03);
  });

  it('previews even a small result below its size, and a large one at 1024 px at most', async () => {
    const preview = await makePreview(await photoLike(320, 240), 'item-c');
    const { width, height, exif } = await sharp(preview).metadata();
    expect([width, height, exif]).toEqual([224, 168, undefined]);
    expect(previewLongSide(1024)).toBe(717);
    expect(previewLongSide(4000)).toBe(WATERMARK.previewMaxSide);
  });

  it('one photo uploaded again (the same file, re-encoded, resized) keeps one layout; another photo gets another', async () => {
    const photo = await photoLike(1200, 900);
    const seeds = await Promise.all([
      uploadWatermarkSeed(photo),
      uploadWatermarkSeed(await sharp(photo).jpeg({ quality: 80 }).toBuffer()),
      uploadWatermarkSeed(await sharp(photo).resize(900).png().toBuffer()),
    ]);
    expect(new Set(seeds).size).toBe(1);
    expect(await uploadWatermarkSeed(await photoLike(1200, 900, 99))).not.toBe(seeds[0]);
  });
});
