import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { jobResolution, jobSubjects, processVideoRequestSchema } from '../../../src/lib/tool/video-schema';
import { MSG } from '../../../src/lib/messages';
import { ITEM_NAMES, ITEM_PRICES, VIDEO_1080P, transformationItem } from '../../../src/lib/catalog';
import { $cartItems, addToCart, clearCart } from '../../../src/lib/cart';
import { checkVideoInput, readImageHeader, VideoInputError } from '../../../engines/video/input';

const pngDataUrl = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const valid = { imageData: pngDataUrl, prompt: 'zoom in slowly', mode: 'standard', duration: 5 };

function messages(body: unknown): string[] {
  const r = processVideoRequestSchema.safeParse(body);
  return r.success ? [] : r.error.issues.map((i) => i.message);
}

describe('processVideoRequestSchema', () => {
  it('accepts a valid body, with or without watermark and duration', () => {
    expect(processVideoRequestSchema.parse(valid)).toMatchObject({ mode: 'standard', duration: 5 });
    expect(processVideoRequestSchema.parse({ ...valid, watermark: false, duration: undefined }).duration).toBe(5);
    expect(processVideoRequestSchema.parse({ ...valid, prompt: 'x'.repeat(200) }).prompt).toHaveLength(200);
  });

  it.each([
    [{ ...valid, prompt: '   ' }, 'Please provide a description of how you want the image to animate'],
    [{ ...valid, prompt: undefined }, 'Please provide a description of how you want the image to animate'],
    [{ ...valid, prompt: 'zoom' }, 'Please provide a description of at least 5 characters'],
    [{ ...valid, prompt: 'x'.repeat(201) }, 'Description should be less than 200 characters'],
    [{ ...valid, mode: undefined }, 'Please select a model'],
    [{ ...valid, mode: 'ultra' }, 'Please select a model'],
    [{ ...valid, imageData: 'data:text/plain;base64,aGVsbG8=' }, 'Please upload a valid image file (JPEG, PNG)'],
    [{ ...valid, imageData: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }, 'Please upload a valid image file (JPEG, PNG)'],
    [{ ...valid, imageData: 'https://example.com/a.png' }, 'Please upload a valid image file (JPEG, PNG)'],
  ])('rejects %o', (body, message) => {
    expect(messages(body)).toContain(message);
  });

  it('takes the detector\'s boxes from the defaults as shares of the photo, and refuses any outside it', () => {
    const cat = { label: 'cat', score: 0.45, box: { x: 0.45, y: 0.44, width: 0.25, height: 0.23 } };
    expect(processVideoRequestSchema.parse({ ...valid, subjects: [cat] }).subjects).toEqual([cat]);
    expect(messages({ ...valid, subjects: [{ ...cat, box: { ...cat.box, x: 0.9 } }] })).toEqual([MSG.videoSubjects]);
    expect(messages({ ...valid, subjects: [{ ...cat, box: { ...cat.box, width: 2 } }] })).not.toHaveLength(0);
    expect(messages({ ...valid, subjects: Array(21).fill(cat) })).toEqual([MSG.videoSubjects]);
    expect(messages({ ...valid, subjects: 'cat' })).toEqual([MSG.videoSubjects]);
  });

  it('reads a job\'s stored boxes, and none from a job that has none or a damaged record', () => {
    const cat = { label: 'cat', score: 0.45, box: { x: 0.45, y: 0.44, width: 0.25, height: 0.23 } };
    expect(jobSubjects({ subjects: [cat] })).toEqual([cat]);
    expect(jobSubjects({ subjects: [] })).toEqual([]);
    expect(jobSubjects({})).toBeUndefined();
    expect(jobSubjects({ subjects: [{ label: 'cat' }] })).toBeUndefined();
  });

  it('only allows 5-second videos', () => {
    expect(messages({ ...valid, duration: 10 })).not.toHaveLength(0);
  });

  it('takes 720p (the default) or 1080p, and nothing else', () => {
    expect(processVideoRequestSchema.parse(valid).resolution).toBe('720p');
    expect(processVideoRequestSchema.parse({ ...valid, resolution: '1080p' }).resolution).toBe('1080p');
    for (const resolution of ['4k', '1080', 1080, null, '']) expect(messages({ ...valid, resolution })).toEqual([MSG.videoResolution]);
  });
});

describe('video resolution and price', () => {
  it('reads the resolution of a job from its hints, 720p for jobs from before the choice', () => {
    expect(jobResolution({ resolution: '1080p' })).toBe('1080p');
    expect(jobResolution({})).toBe('720p');
    expect(jobResolution({ resolution: 'huge' })).toBe('720p');
  });

  it('sells a 1080p video as its own catalogue item and a 720p one as the plain video', () => {
    expect(transformationItem('video', '1080p')).toEqual({ name: VIDEO_1080P.name, price: VIDEO_1080P.price });
    expect(transformationItem('video', '720p')).toEqual({ name: ITEM_NAMES.video, price: ITEM_PRICES.video });
    expect(transformationItem('video')).toEqual({ name: ITEM_NAMES.video, price: ITEM_PRICES.video });
    expect(transformationItem('image', '1080p')).toEqual({ name: ITEM_NAMES.image, price: ITEM_PRICES.image });
    expect(VIDEO_1080P.price).toBeGreaterThan(ITEM_PRICES.video);
  });

  it('puts a 1080p video in the cart at its price and name', () => {
    clearCart();
    addToCart({ type: 'video', videoUrl: '/hd.mp4', transformationId: 'hd', resolution: '1080p' });
    addToCart({ type: 'video', videoUrl: '/sd.mp4', transformationId: 'sd' });
    expect($cartItems.get().map(({ name, price, transformationId }) => ({ name, price, transformationId }))).toEqual([
      { name: VIDEO_1080P.name, price: VIDEO_1080P.price, transformationId: 'hd' },
      { name: ITEM_NAMES.video, price: ITEM_PRICES.video, transformationId: 'sd' },
    ]);
    expect($cartItems.get()[0]).not.toHaveProperty('resolution');
    clearCart();
  });
});

/** A PNG whose IHDR claims `width`×`height` but carries no real pixel data. */
function pngHeaderOnly(width: number, height: number): Buffer {
  const buf = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(buf, 0);
  buf.writeUInt32BE(13, 8);
  buf.write('IHDR', 12, 'latin1');
  buf.writeUInt32BE(width, 16);
  buf.writeUInt32BE(height, 20);
  buf[24] = 8;
  buf[25] = 2;
  return buf;
}

describe('checkVideoInput', () => {
  it('reads JPEG and PNG dimensions from the header', async () => {
    const jpeg = await sharp({ create: { width: 321, height: 123, channels: 3, background: '#369' } }).jpeg().toBuffer();
    const png = await sharp({ create: { width: 64, height: 48, channels: 4, background: '#369' } }).png().toBuffer();
    expect(checkVideoInput(jpeg)).toEqual({ format: 'jpeg', width: 321, height: 123 });
    expect(checkVideoInput(png)).toEqual({ format: 'png', width: 64, height: 48 });
  });

  it('rejects non-images by content, whatever the declared type', async () => {
    const gif = Buffer.from('R0lGODlhAQABAAAAACw=', 'base64');
    const webp = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#fff' } }).webp().toBuffer();
    for (const bytes of [Buffer.from('hello, not an image'), gif, webp, Buffer.alloc(0), Buffer.from([0xff, 0xd8, 0xff])]) {
      expect(() => checkVideoInput(bytes)).toThrow('Please upload a valid image file (JPEG, PNG)');
    }
  });

  it('rejects a decompression bomb from its header alone (> 40 MP)', () => {
    const bomb = pngHeaderOnly(50_000, 50_000);
    expect(readImageHeader(bomb)).toEqual({ format: 'png', width: 50_000, height: 50_000 });
    expect(() => checkVideoInput(bomb)).toThrow(VideoInputError);
    expect(() => checkVideoInput(bomb)).toThrow(/40 megapixels/);
    expect(() => checkVideoInput(pngHeaderOnly(6000, 6000))).not.toThrow(); // 36 MP is allowed
  });

  it('rejects files over 15 MB before parsing', () => {
    const big = Buffer.concat([pngHeaderOnly(100, 100), Buffer.alloc(15 * 1024 * 1024)]);
    expect(() => checkVideoInput(big)).toThrow(/15 MB/);
  });
});
