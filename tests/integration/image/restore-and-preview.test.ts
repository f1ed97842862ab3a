import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { restoreAndColorize } from '../../../engines/image';
import { makePreview } from '../../../netlify/lib/media/image-preview';

// A whole restoration of a small photo and its watermarked preview (the engine's parts are unit-tested in tests/unit/image).
describe('restoreAndColorize and previews', () => {
  it('colorizes a grey photo offline, strips metadata, and the preview carries the watermark', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><rect width="320" height="240" fill="#bbb"/><rect y="150" width="320" height="90" fill="#555"/><circle cx="100" cy="110" r="40" fill="#333"/></svg>`;
    const input = await sharp(Buffer.from(svg)).greyscale().toColourspace('srgb').withMetadata({ exif: { IFD0: { Copyright: 'secret' } } }).jpeg().toBuffer();
    const res = await restoreAndColorize(input, { model: 'sd-xl' });
    expect(res.tone).toBe('grey');
    expect(res.method).toMatch(/exemplar/);
    const meta = await sharp(res.image).metadata();
    expect([meta.width, meta.height, meta.exif]).toEqual([320, 240, undefined]);
    const stats = await sharp(res.image).stats();
    expect(Math.abs(stats.channels[0].mean - stats.channels[2].mean)).toBeGreaterThan(1); // not grey any more
    const preview = await makePreview(res.image, 'item-1');
    const [c, p] = await Promise.all([sharp(res.image).raw().toBuffer(), sharp(preview).raw().toBuffer()]);
    let brighter = 0;
    for (let i = 0; i < c.length; i++) if (p[i] > c[i] + 12) brighter++;
    expect(brighter).toBeGreaterThan(200); // white text burned in
  });
});
