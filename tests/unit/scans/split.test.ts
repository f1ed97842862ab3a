import { readFile } from 'node:fs/promises';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { ImageInputError } from '../../../engines/image';
import { cutPrints, findPrints, KEPT_WHOLE, looksLikeScan, splitScan } from '../../../engines/scans';
import { angleGap, quadIoU } from '../../../engines/scans/geometry';
import { generatedPictures, makeScan, type Picture, type ScanTruth } from '../../support/scans';

// Scans made here (tests/support/scans.ts) at 100 dpi, so each is an A4 or Letter page of about 1 MP: the splitter
// finds prints on a copy at most 1200 pixels long whatever the scan's size, so this is the path a 600-dpi scan
// takes, only with less to cut.
let pictures: Picture[];
beforeAll(() => {
  pictures = generatedPictures(11, 10);
});

/** Each true print matched to the found print that overlaps it most: its IoU (with the print or the picture inside its
 * border) and the gap between the two angles. */
function match(truth: ScanTruth, found: { corners: readonly (readonly [number, number])[]; angle: number }[]) {
  return truth.prints.map((t) => {
    const best = found
      .map((p) => ({ iou: Math.max(quadIoU(p.corners, t.corners), quadIoU(p.corners, t.picture)), tilt: angleGap(p.angle, t.angle) }))
      .sort((a, b) => b.iou - a.iou)[0];
    return best ?? { iou: 0, tilt: 90 };
  });
}

describe('scan splitter on generated scans', () => {
  it.each([
    ['white', 3],
    ['black', 5],
    ['grey', 2],
    ['paper', 4],
  ] as const)('splits a scan of prints on a %s bed into %i straightened prints', async (bed, count) => {
    const { jpeg, truth } = await makeScan(7100 + count, pictures, { kind: 'split', bed, prints: count, dpi: 100 });
    const result = await splitScan(jpeg);
    expect(result.keptWhole).toBeUndefined();
    expect(result.prints).toHaveLength(count);
    expect(result.width).toBe(truth.width);
    for (const m of match(truth, result.prints)) {
      expect(m.iou).toBeGreaterThan(0.85);
      expect(m.tilt).toBeLessThan(1);
    }
    // Each print is a JPEG of the size its placement says, straightened: its rows are level, so its top and bottom
    // rows hold the print's own pixels, not the bed's (which a turned print's corners would show).
    for (const p of result.prints) {
      const meta = await sharp(p.jpeg).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', p.width, p.height]);
      expect(p.box.left).toBeGreaterThanOrEqual(0);
      expect(p.box.left + p.box.width).toBeLessThanOrEqual(truth.width);
    }
  });

  it('cuts a print level and whole: the cut matches the picture it was made from', async () => {
    // One square print of a picture with a bright left half and a dark right half, turned 15°, on white.
    const w = 240, h = 240;
    const data = new Uint8Array(w * h * 3);
    for (let i = 0; i < w * h; i++) data.fill(i % w < w / 2 ? 230 : 40, 3 * i, 3 * i + 3);
    const { jpeg, truth } = await makeScan(4, [{ name: 'halves', data, width: w, height: h }], { kind: 'split', bed: 'grey', prints: 1, dpi: 100 });
    const [print] = (await splitScan(jpeg)).prints;
    expect(angleGap(print!.angle, truth.prints[0]!.angle)).toBeLessThan(1);
    const { data: cut, info } = await sharp(print!.jpeg).greyscale().raw().toBuffer({ resolveWithObject: true });
    // Straightened, the halves are split by a vertical line (or, a quarter turn away, a horizontal one): whole
    // columns (rows) on either side of the middle are each one tone.
    const column = (x: number) => Array.from({ length: info.height - 8 }, (_, y) => cut[(y + 4) * info.width + x]!);
    const row = (y: number) => Array.from({ length: info.width - 8 }, (_, x) => cut[y * info.width + x + 4]!);
    const spread = (v: number[]) => Math.max(...v) - Math.min(...v);
    const q = (n: number) => Math.round(n / 4);
    const level = Math.max(spread(column(q(info.width))), spread(column(3 * q(info.width)))) < 60 || Math.max(spread(row(q(info.height))), spread(row(3 * q(info.height)))) < 60;
    expect(level).toBe(true);
  });

  it.each([
    ['touching', 'touching'],
    ['album', 'patterned'],
    ['cut', 'cut'],
  ] as const)('keeps a %s scan whole and says why', async (kind, code) => {
    const { jpeg } = await makeScan(kind === 'touching' ? 7211 : kind === 'album' ? 7202 : 7203, pictures, { kind, bed: 'white', dpi: 100 });
    const result = await splitScan(jpeg);
    expect(result.prints).toEqual([]);
    expect(result.keptWhole).toMatchObject({ code, reason: KEPT_WHOLE[code] });
  });

  it('keeps an ordinary photo whole, and looksLikeScan tells it from a scan', async () => {
    const jpeg = await readFile('public/media/samples/spaniel-window.jpg');
    const result = await findPrints(jpeg);
    expect(result.prints).toEqual([]);
    expect(result.keptWhole).toEqual({ code: 'single-photo', reason: KEPT_WHOLE['single-photo'] });
    expect(await looksLikeScan(jpeg)).toBe(false);
    const { jpeg: scan } = await makeScan(7301, pictures, { kind: 'split', bed: 'white', prints: 3, dpi: 100 });
    expect(await looksLikeScan(scan)).toBe(true);
  });

  it('gives corners in the scan as shown when the file is turned by its EXIF orientation', async () => {
    const { jpeg, truth } = await makeScan(7401, pictures, { kind: 'split', bed: 'black', prints: 2, dpi: 100 });
    // Stored turned a quarter to the left, with orientation 6 ("turn right to show"): shown, it is the scan again.
    const stored = await sharp(jpeg).rotate(-90).withExif({ IFD0: {} }).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const result = await findPrints(stored);
    expect([result.width, result.height]).toEqual([truth.width, truth.height]);
    expect(result.prints).toHaveLength(2);
    for (const m of match(truth, result.prints)) expect(m.iou).toBeGreaterThan(0.85);
  });

  it('cuts the prints of a layout the caller adjusted, and cuts nothing for a scan kept whole', async () => {
    const { jpeg } = await makeScan(7501, pictures, { kind: 'split', bed: 'white', prints: 2, dpi: 100 });
    const layout = await findPrints(jpeg);
    const [first] = await cutPrints(jpeg, { ...layout, prints: layout.prints.slice(0, 1) });
    expect(first!.corners).toEqual(layout.prints[0]!.corners);
    expect((await sharp(first!.jpeg).metadata()).width).toBe(layout.prints[0]!.width);
    expect(await cutPrints(jpeg, { ...layout, prints: [], keptWhole: { code: 'touching', reason: KEPT_WHOLE.touching } })).toEqual([]);
  });

  it('refuses bytes that are not an image with a message for the buyer', async () => {
    await expect(splitScan(Buffer.from('not an image at all'))).rejects.toBeInstanceOf(ImageInputError);
    await expect(findPrints(Buffer.from('not an image at all'))).rejects.toThrow(/could not be read/);
  });
});
