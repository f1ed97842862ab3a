// The generated validation set: old photos painted by scripts/training/old-photo.ts (with real thin structures in half
// of them) over the photos the damage detector never trained on (training-photos.ts holds every fifth one out).
// It needs the unpacked Debian packages (DAMAGE_PHOTOS=<folder>; scripts/training/train-damage-detector.ts says how to
// unpack them) and is reported as skipped without them.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { oldPhoto } from '../scripts/training/old-photo';
import { FIXTURES_DIR, PAINT_SIZES, fixturesManifest, isHeldOut, photoRoot, trainingPhotos } from '../scripts/training/training-photos';
import type { PhotoCase } from './restoration';

export const PHOTO_ROOT = photoRoot();

/** Seeds far from the training's (1000·k + 1…), so a held-out photo is painted unlike anything trained on. */
const SEED_BASE = 7_000_000;

/** The benchmark's public fixtures (PHOTO_FIXTURES; absent on a newcomer's clone). */
export const FIXTURES = FIXTURES_DIR;

/** Why the validation set cannot be measured here, or null when it can. */
export function validationUnavailable(): string | null {
  if (!PHOTO_ROOT) return 'training photos not named: set DAMAGE_PHOTOS=<folder> (see scripts/training/train-damage-detector.ts)';
  if (!existsSync(PHOTO_ROOT)) return `training photos not found at ${PHOTO_ROOT} (see scripts/training/train-damage-detector.ts)`;
  // The fixtures decide which photos are held out (training-photos.ts): without them it would be another set.
  if (!existsSync(fixturesManifest(FIXTURES))) return `fixtures not found at ${FIXTURES}: the held-out photos cannot be told without them`;
  return null;
}

/** The held-out photos, each painted once (at PAINT_SIZES in turn, or every one at long side `side`: larger
 * photos than the working size, from the packages' high-resolution originals); null when they cannot be told
 * here (validationUnavailable). */
export async function validationCases(limit = Infinity, side?: number): Promise<PhotoCase[] | null> {
  if (validationUnavailable()) return null;
  const photos = await trainingPhotos(PHOTO_ROOT!, FIXTURES);
  const cases: PhotoCase[] = [];
  for (const [k, photo] of photos.entries()) {
    if (!isHeldOut(k) || cases.length >= limit) continue;
    const old = await oldPhoto(photo.file, SEED_BASE + k, side ?? PAINT_SIZES[k % PAINT_SIZES.length], { structures: cases.length % 2 === 1 });
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
