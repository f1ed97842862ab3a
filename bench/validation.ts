// The generated validation set: old photos painted by scripts/lib/old-photo.ts (with real thin structures in half
// of them) over the photos the damage detector never trained on (training-photos.ts holds every fifth one out).
// It needs the unpacked Debian packages (DAMAGE_PHOTOS, default /tmp/debs/x; scripts/train-damage-detector.ts
// says how to unpack them) and is reported as skipped without them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { oldPhoto } from '../scripts/lib/old-photo';
import { DEFAULT_PHOTO_ROOT, PAINT_SIZES, isHeldOut, trainingPhotos } from '../scripts/lib/training-photos';
import type { PhotoCase } from './restoration';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PHOTO_ROOT = process.env.DAMAGE_PHOTOS || DEFAULT_PHOTO_ROOT;

/** Seeds far from the training's (1000·k + 1…), so a held-out photo is painted unlike anything trained on. */
const SEED_BASE = 7_000_000;

/** The held-out photos, each painted once; null when the photos are not unpacked. */
export async function validationCases(limit = Infinity): Promise<PhotoCase[] | null> {
  if (!existsSync(PHOTO_ROOT)) return null;
  const photos = await trainingPhotos(PHOTO_ROOT, path.resolve(ROOT, '../shared/fixtures/photos'));
  const cases: PhotoCase[] = [];
  for (const [k, photo] of photos.entries()) {
    if (!isHeldOut(k) || cases.length >= limit) continue;
    const old = await oldPhoto(photo.file, SEED_BASE + k, PAINT_SIZES[k % PAINT_SIZES.length], { structures: cases.length % 2 === 1 });
    cases.push({
      name: `${path.basename(photo.file).replace(/\.[^.]+$/, '')}${cases.length % 2 ? '+structures' : ''}`,
      input: old.jpeg,
      truth: old.clean,
      damage: old.mask,
      width: old.width,
      height: old.height,
    });
  }
  return cases;
}
