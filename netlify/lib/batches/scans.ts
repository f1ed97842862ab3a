import sharp from 'sharp';
import { cutPrints, findPrints, looksLikeScan, type KeptWholeCode } from '../../../engines/scans';
import type { ScanSplit } from '../../../src/lib/tool/batch';

/**
 * A batch photo that is a flatbed scan of several prints (engines/scans): found when it is added, shown to the
 * buyer with a thumbnail of each print before anything is spent, then restored as its prints or kept whole, as the
 * buyer chooses. A doubtful split keeps the scan whole and says why; an ordinary photo is looked at for a few
 * milliseconds (`looksLikeScan`) and passes on with nothing said.
 */

/** Kept-whole reasons worth telling the buyer: the scan looked like prints, but a split would be a guess. */
const TOLD: ReadonlySet<KeptWholeCode> = new Set(['cut', 'touching', 'patterned', 'too-many']);
/**
 * A picture smaller than this on its short side is taken as a photo without looking: a scan of several prints that
 * small would give prints of a few hundred pixels (a 4 × 6 in print on a Letter bed at 75 dpi is 300 × 450 px).
 */
const MIN_SCAN_SIDE = 600;
/** A print's thumbnail in the batch's answer (a small JPEG as a data URI, kept on the scan's row). */
const THUMB_SIDE = 240;

export interface ScanPrints {
  /** Each print straightened and cropped, as a JPEG, in reading order. */
  prints: { jpeg: Buffer; angle: number }[];
  split: ScanSplit;
}

/**
 * What the batch does with a photo (`size` as inspectImage read it, orientation applied): null for an ordinary
 * photo (or a scan with one print, restored as it is); the reason when a scan of prints is kept whole; its prints
 * when it holds two or more.
 */
export async function scanPrints(bytes: Buffer, size: { width: number; height: number }): Promise<ScanPrints | { keptWhole: string } | null> {
  if (Math.min(size.width, size.height) < MIN_SCAN_SIDE || !(await looksLikeScan(bytes))) return null;
  const layout = await findPrints(bytes);
  if (layout.keptWhole) return TOLD.has(layout.keptWhole.code) ? { keptWhole: layout.keptWhole.reason } : null;
  if (layout.prints.length < 2) return null;
  const cut = await cutPrints(bytes, layout);
  const thumbs = await Promise.all(
    cut.map(async (p) => `data:image/jpeg;base64,${(await sharp(p.jpeg).resize(THUMB_SIDE, THUMB_SIDE, { fit: 'inside' }).jpeg({ quality: 70 }).toBuffer()).toString('base64')}`),
  );
  return {
    prints: cut.map((p) => ({ jpeg: p.jpeg, angle: p.angle })),
    split: { prints: cut.map((p, i) => ({ thumb: thumbs[i]!, angle: p.angle, width: p.width, height: p.height })) },
  };
}
