import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ImageInputError, inspectImage, restoreAndColorize } from '../../../engines/image';

// Uploads as the image engine sees them: judged by their bytes, never by their name or declared type.

const ALL = ['jpeg', 'png', 'tiff'] as const;
const WRONG_TYPE = 'Please upload a valid image file (JPEG, PNG, TIFF)';
const DAMAGED = 'This image file appears to be damaged and could not be read.';

/** A grey scene with some structure (restoration and colorization have something to work on). */
const scene = (w: number, h: number) =>
  sharp(
    Buffer.from(
      `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><rect width="${w}" height="${h}" fill="#aaa"/>` +
        `<circle cx="${w / 3}" cy="${h / 2}" r="${h / 4}" fill="#444"/><rect y="${(h * 3) / 4}" width="${w}" height="${h / 4}" fill="#666"/></svg>`,
    ),
  )
    .greyscale()
    .toColourspace('srgb');

/** The bytes a browser would send for `file` (its name and type travel separately and are ignored). */
const upload = async (file: File) => Buffer.from(await file.arrayBuffer());

/** The error an engine call fails with. */
const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as ImageInputError);

async function expectRefused(bytes: Buffer, message: string | RegExp, status: number) {
  for (const err of [await failure(inspectImage(bytes, ALL)), await failure(restoreAndColorize(bytes, { model: 'sd-v1.5' }))]) {
    expect(err).toBeInstanceOf(ImageInputError);
    expect(err!.message).toMatch(message);
    expect(err!.status).toBe(status);
  }
}

/** Mean of the first channel over a band of rows. */
async function rowMean(image: Buffer, top: number, height: number): Promise<number> {
  const { width } = await sharp(image).metadata();
  const { data, info } = await sharp(image).extract({ left: 0, top, width: width!, height }).raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (let i = 0; i < data.length; i += info.channels) sum += data[i];
  return sum / (data.length / info.channels);
}

describe('format from content, not from the name or declared type', () => {
  it('a PNG called photo.jpg and declared image/jpeg is read as PNG and processed', async () => {
    const png = await scene(120, 90).png().toBuffer();
    const bytes = await upload(new File([png], 'photo.jpg', { type: 'image/jpeg' }));
    expect(await inspectImage(bytes, ALL)).toEqual({ format: 'png', width: 120, height: 90 });
    const res = await restoreAndColorize(bytes, { model: 'sd-v1.5' });
    expect([res.width, res.height, res.tone]).toEqual([120, 90, 'grey']);
    expect((await sharp(res.image).metadata()).format).toBe('jpeg');
  });

  it('an HTML page called photo.jpg is refused with the wrong-type message', async () => {
    const html = '<!DOCTYPE html><html><body><img src=x onerror=alert(1)></body></html>';
    await expectRefused(await upload(new File([html], 'photo.jpg', { type: 'image/jpeg' })), WRONG_TYPE, 415);
  });

  it('GIF and WebP are refused with the wrong-type message', async () => {
    await expectRefused(await scene(32, 24).gif().toBuffer(), WRONG_TYPE, 415);
    await expectRefused(await scene(32, 24).webp().toBuffer(), WRONG_TYPE, 415);
  });
});

describe('EXIF orientation and metadata', () => {
  it('orientation 6 is applied (top of the scene stays on top) and the output carries no EXIF, ICC or XMP', async () => {
    // The scene as it should be seen: 90 wide, 120 tall, bright top half over a dark bottom half.
    const seen = await sharp(
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="90" height="120"><rect width="90" height="60" fill="#ddd"/><rect y="60" width="90" height="60" fill="#333"/></svg>`),
    )
      .png()
      .toBuffer();
    // A camera held sideways stores it turned a quarter to the left and records orientation 6.
    const stored = await sharp(seen)
      .rotate(270)
      .greyscale()
      .toColourspace('srgb')
      .withMetadata({ orientation: 6 })
      .withIccProfile('p3')
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>')
      .jpeg({ quality: 95 })
      .toBuffer();
    const input = await sharp(stored).metadata();
    expect([input.width, input.height, input.orientation, !!input.exif, !!input.icc, !!input.xmp]).toEqual([120, 90, 6, true, true, true]);

    expect(await inspectImage(stored, ALL)).toEqual({ format: 'jpeg', width: 90, height: 120 });
    const res = await restoreAndColorize(stored, { model: 'sd-v1.5' });
    expect([res.width, res.height]).toEqual([90, 120]);
    expect(await rowMean(res.image, 5, 45)).toBeGreaterThan((await rowMean(res.image, 70, 45)) + 80);

    const out = await sharp(res.image).metadata();
    expect([out.width, out.height]).toEqual([90, 120]);
    expect({ exif: out.exif, orientation: out.orientation, icc: out.icc, xmp: out.xmp }).toEqual({
      exif: undefined,
      orientation: undefined,
      icc: undefined,
      xmp: undefined,
    });
  });
});

describe('pixel limit from the header', () => {
  it('a JPEG whose header claims more than 40 MP is refused with 413 before any decoding', async () => {
    // Nothing but SOI and a baseline frame header for 8000×6000 (48 MP): no data to decode at all,
    // so reaching the decoder would have answered "damaged", not the size.
    const sof = [0xff, 0xc0, 0x00, 0x11, 0x08, 0x17, 0x70, 0x1f, 0x40, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01];
    await expectRefused(Buffer.from([0xff, 0xd8, ...sof]), /^Please upload an image of at most 40 megapixels\.$/, 413);
  });

  it('the frame header is found behind EXIF and other segments of a real JPEG', async () => {
    const jpeg = Buffer.from(await scene(64, 48).withExif({ IFD0: { Copyright: 'Lumora test' } }).jpeg().toBuffer());
    const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
    expect(sof).toBeGreaterThan(jpeg.indexOf(Buffer.from('Exif'))); // the EXIF block comes first
    jpeg.writeUInt16BE(7000, sof + 5); // height
    jpeg.writeUInt16BE(7000, sof + 7); // width: 49 MP
    await expectRefused(jpeg, /40 megapixels/, 413);
  });
});

describe('damaged uploads', () => {
  it('a JPEG, PNG or TIFF cut short gives the damaged message (not a decoder error)', async () => {
    const noisy = () => sharp({ create: { width: 160, height: 120, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
    const files = [
      await noisy().jpeg().toBuffer(),
      await noisy().jpeg({ progressive: true }).toBuffer(),
      await noisy().png().toBuffer(),
      await noisy().tiff().toBuffer(),
    ];
    for (const full of files) {
      // Whole files pass, also with bytes trailing after the image (some cameras append data).
      await expect(inspectImage(full, ALL)).resolves.toMatchObject({ width: 160, height: 120 });
      await expect(inspectImage(Buffer.concat([full, Buffer.alloc(64, 0x20)]), ALL)).resolves.toMatchObject({ width: 160 });
      await expectRefused(full.subarray(0, Math.floor(full.length * 0.6)), DAMAGED, 400);
    }
  });

  it('a TIFF whose strip runs past the end of the file is damaged, though its header is intact', async () => {
    // Uncompressed 8-bit grey, the directory before the pixels (libvips writes it after them).
    const w = 64, h = 48;
    const entries: [tag: number, type: number, value: number][] = [
      [256, 3, w], [257, 3, h], [258, 3, 8], [259, 3, 1], [262, 3, 1], [273, 4, 8 + 2 + 9 * 12 + 4], [277, 3, 1], [278, 3, h], [279, 4, w * h],
    ];
    const tiff = Buffer.alloc(8 + 2 + entries.length * 12 + 4 + w * h);
    tiff.write('II*\0', 0, 'latin1');
    tiff.writeUInt32LE(8, 4);
    tiff.writeUInt16LE(entries.length, 8);
    entries.forEach(([tag, type, value], k) => {
      const e = 10 + k * 12;
      tiff.writeUInt16LE(tag, e);
      tiff.writeUInt16LE(type, e + 2);
      tiff.writeUInt32LE(1, e + 4);
      if (type === 3) tiff.writeUInt16LE(value, e + 8);
      else tiff.writeUInt32LE(value, e + 8);
    });
    for (let i = 0; i < w * h; i++) tiff[122 + i] = (i % w) * 4;
    expect(await inspectImage(tiff, ALL)).toEqual({ format: 'tiff', width: w, height: h });
    await expectRefused(tiff.subarray(0, tiff.length - 500), DAMAGED, 400);
  });

  it('a header without any image data is damaged', async () => {
    const png = await scene(40, 30).png().toBuffer();
    await expectRefused(png.subarray(0, 33), DAMAGED, 400); // signature and IHDR only
  });
});
