// How good could the exemplar colorizer be with better references? A diagnostic, not a target:
//   --self    each fixture's own true colours as the only reference (the transfer's ceiling: what the
//             features can do when the reference is the right one)
//   --single  each library photo alone as the reference, per fixture (the best of them is the ceiling of
//             any scene-retrieval scheme over this library; the median is what a poor pick gives)
// Run: npx tsx bench/exemplar-bounds.ts --self | --single   (prints JSON; needs the photo fixtures: PHOTO_FIXTURES).
// Restoration runs once per fixture; chroma is scaled to full size without the pipeline's guided
// upsampling, so scores are close to, not equal to, bench/image.ts's.
import sharp from 'sharp';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { restoreAndColorize, exemplarColorize, REFERENCE_DIR } from '../engines/image';
import { labToRgbBuffer, rgbBufferToLab, resize } from '../engines/shared';
import type { Colorizer, LumaPlane } from '../engines/image';
import { FIXTURES } from './image';
import { scoreImage } from '../tests/support/image-metrics';

const mode = process.argv.includes('--single') ? 'single' : process.argv.includes('--self') ? 'self' : null;
if (!mode) throw new Error('usage: npx tsx bench/exemplar-bounds.ts --self | --single');
if (!existsSync(path.join(FIXTURES, 'input'))) {
  console.log(JSON.stringify({ skipped: `fixtures not found at ${FIXTURES}` }));
  process.exit(0);
}
sharp.concurrency(2);
const work = mkdtempSync(path.join(tmpdir(), 'exemplar-bounds-'));

/** A one-photo reference library in its own folder. */
function library(name: string, file: string): string {
  const dir = path.join(work, name) + path.sep;
  mkdirSync(dir, { recursive: true });
  symlinkSync(file, dir + path.basename(file));
  writeFileSync(dir + 'manifest.json', JSON.stringify({ images: [{ file: path.basename(file) }] }));
  return dir;
}

const baseline = JSON.parse(readFileSync(path.join(FIXTURES, 'baseline.json'), 'utf8')).images as { name: string; deltaE2000: number }[];
const libraryFiles = (JSON.parse(readFileSync(REFERENCE_DIR + 'manifest.json', 'utf8')).images as { file: string }[]).map((i) => i.file);
const singles = mode === 'single' ? libraryFiles.map((f) => ({ f, dir: library(f, REFERENCE_DIR + f) })) : [];
const images: Record<string, unknown>[] = [];

for (const file of readdirSync(path.join(FIXTURES, 'input')).filter((f) => /\.jpe?g$/i.test(f)).sort()) {
  const name = file.replace(/\.\w+$/, '');
  const truthFile = path.join(FIXTURES, 'truth', `${name}.png`);
  let luma: LumaPlane | null = null;
  const capture: Colorizer = {
    id: 'exemplar', description: 'capture',
    async colorize(input) { luma = input; return { a: new Float32Array(input.L.length), b: new Float32Array(input.L.length), width: input.width, height: input.height }; },
  };
  const restored = await restoreAndColorize(readFileSync(path.join(FIXTURES, 'input', file)), { model: 'sd-xl', colorizer: capture });
  const { width: W = 0, height: H = 0 } = await sharp(truthFile).metadata();
  const truth = await sharp(truthFile).removeAlpha().toColourspace('srgb').raw().toBuffer();
  const L = rgbBufferToLab(await sharp(restored.image).removeAlpha().toColourspace('srgb').resize(W, H, { fit: 'fill' }).raw().toBuffer(), W, H).L;
  const score = async (dir: string) => {
    const c = await exemplarColorize(luma!, { dir });
    const rgb = labToRgbBuffer(L, resize(c.a, c.width, c.height, W, H), resize(c.b, c.width, c.height, W, H));
    return scoreImage(rgb, truth, W, H);
  };
  const floor = baseline.find((b) => b.name === name)!.deltaE2000;
  if (mode === 'self') {
    // The truth downscaled like a library photo (long side 320), as a JPEG in a temp folder.
    const ref = path.join(work, `${name}.jpg`);
    await sharp(truthFile).resize(320, 320, { fit: 'inside' }).jpeg({ quality: 90 }).toFile(ref);
    const s = await score(library(`self-${name}`, ref));
    images.push({ name, deltaE2000: +s.deltaE2000.toFixed(2), baseline: floor, better: s.deltaE2000 < floor, colourfulness: +s.colourfulnessOutput.toFixed(1), truth: +s.colourfulnessTruth.toFixed(1) });
  } else {
    const rows: [string, number][] = [];
    for (const { f, dir } of singles) rows.push([f, (await score(dir)).deltaE2000]);
    rows.sort((p, q) => p[1] - q[1]);
    images.push({
      name, baseline: floor,
      best: rows.slice(0, 3).map(([f, d]) => ({ reference: f, deltaE2000: +d.toFixed(2) })),
      median: +rows[rows.length >> 1][1].toFixed(2),
      referencesBetterThanInput: `${rows.filter((r) => r[1] < floor).length}/${rows.length}`,
    });
  }
}
const better = mode === 'self'
  ? images.filter((i) => i.better).length
  : images.filter((i) => (i.best as { deltaE2000: number }[])[0].deltaE2000 < (i.baseline as number)).length;
const sum = (k: string) => images.reduce((p, i) => p + (i[k] as number), 0);
const extra = mode === 'self' ? { meanDeltaE2000: +(sum('deltaE2000') / images.length).toFixed(2), colourfulnessRatio: +(sum('colourfulness') / sum('truth')).toFixed(3) } : {};
console.log(JSON.stringify({ mode, fixtures: FIXTURES, betterThanInput: `${better}/${images.length}`, ...extra, images }, null, 2));
