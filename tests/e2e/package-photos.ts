import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';

import { generatedPictures, makeScan } from '../support/scans';

/**
 * The family's pile for the package browser test: eleven small old photos (grey and sepia, some noise), two of them
 * with the same name from two folders (as a shoebox scanned twice over gives), and a flatbed scan of three tilted
 * prints, written as files the page can take.
 */
export const BATCH_PHOTOS = {
  count: 12,
  /** The scan's prints. */
  scanPrints: 3,
  /** One result per photo, and per print of the scan once the buyer restores them apart. */
  expectedResults: 14,
} as const;

/** A scan of three prints turned a few degrees each, on a white bed (a seed whose prints lie 3–15° off). */
export async function shoeboxScan(): Promise<Buffer> {
  const { jpeg, truth } = await makeScan(8101, generatedPictures(5, 6), { kind: 'split', bed: 'white', prints: BATCH_PHOTOS.scanPrints, dpi: 100 });
  if (truth.count !== BATCH_PHOTOS.scanPrints) throw new Error(`the test scan holds ${truth.count} prints`);
  return jpeg;
}

async function oldPhoto(seed: number, width: number, height: number, sepia: boolean): Promise<Buffer> {
  const raw = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - width * (0.3 + (seed % 5) * 0.1), dy = y - height * 0.6;
      const subject = dx * dx + dy * dy < (height / 4) ** 2 ? 60 : 0;
      const v = Math.max(0, Math.min(255, 190 - (y / height) * 70 - subject + (((x * 7 + y * 13 + seed * 31) % 17) - 8)));
      raw[(y * width + x) * 3] = v;
      raw[(y * width + x) * 3 + 1] = sepia ? v * 0.88 : v;
      raw[(y * width + x) * 3 + 2] = sepia ? v * 0.7 : v;
    }
  }
  return sharp(raw, { raw: { width, height, channels: 3 } }).jpeg({ quality: 88 }).toBuffer();
}

/** Writes the pile under `dir` and returns the files' paths in the order they are chosen. */
export async function writeBatchPhotos(dir: string): Promise<string[]> {
  const files: string[] = [];
  for (let i = 0; i < BATCH_PHOTOS.count; i++) {
    const folder = path.join(dir, i < 6 ? 'box-1' : 'box-2');
    await mkdir(folder, { recursive: true });
    const name = i === 6 ? 'IMG_0001.jpg' : i === BATCH_PHOTOS.count - 1 ? 'shoebox-scan.jpg' : `IMG_${String(i + 1).padStart(4, '0')}.jpg`;
    const file = path.join(folder, name);
    if (i === BATCH_PHOTOS.count - 1) await writeFile(file, await shoeboxScan());
    else await sharp(await oldPhoto(i, 360 + (i % 3) * 40, 270 + (i % 2) * 30, i % 2 === 1)).toFile(file);
    files.push(file);
  }
  return files;
}
