/**
 * Trains the fill correction (engines/image/fill/fill-model.json; fill/learned.ts) on old photos painted by
 * scripts/training/old-photo.ts over the detector's training photos (never the benchmark's fixtures, never the held-out
 * validation photos), each aged a second time without its strokes: what lay under every stroke. Each photo is
 * detected and filled as the engine does (detect/find.ts, fill/patches.ts, fill/directional.ts), and the network
 * learns, for every filled pixel under a painted stroke, the truth minus the fill from the input and the fill
 * around it. (Learning from every filled pixel, the detector's wrong ones too, removed less: 91.70 % on the
 * fixtures against 93.2 %.)
 *
 * Sources: the unpacked Debian packages, as for npm run train:damage (see scripts/training/train-damage-detector.ts).
 * Run: npm run train:fill [-- --from <folder>] [--seeds 3] [--hidden 32] [--cache <file>]
 * (--from or DAMAGE_PHOTOS names the unpacked packages; PHOTO_FIXTURES the benchmark's fixtures, kept out.)
 * The same arguments give the same weights (the defaults made the committed ones). Retrain after changing the detector or the fill.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { rgbBufferToL } from '../../engines/shared';
import { findDamage, isOversampled, medianPlane, pixelNoise, fillFromSurroundings, FILL_FEATURE_COUNT, FILL_SCALE, fillFeatures } from '../../engines/image';
import { oldPhoto, random } from './old-photo';
import { PAINT_SIZES, isHeldOut, trainingFolders, trainingPhotos } from './training-photos';
import { trainMlp } from './train-mlp';
import { cliOption } from './cli-option';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { from, fixtures } = trainingFolders();
const seeds = Number(cliOption('--seeds', '3'));
const hidden = Number(cliOption('--hidden', '32'));
const cache = cliOption('--cache', '');
const out = path.join(ROOT, 'engines/image/fill/fill-model.json');
/** Filled pixels taken per painted photo (at random), and the largest correction learned (in FILL_SCALE units). */
const PER_PHOTO = 4000;
const CLIP = 4;

const decodeL = async (jpeg: Buffer) => {
  const { data, info } = await sharp(jpeg).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return { L: rgbBufferToL(data, info.width * info.height, info.channels), w: info.width, h: info.height };
};

async function samples(): Promise<{ X: Float32Array; y: Float32Array; painted: Float32Array }> {
  const key = `${FILL_FEATURE_COUNT}|${seeds}|${PER_PHOTO}|painted`;
  if (cache && existsSync(`${cache}.json`) && JSON.parse(readFileSync(`${cache}.json`, 'utf8')).key === key) {
    const buf = readFileSync(cache);
    const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    const n = all.length / (FILL_FEATURE_COUNT + 2);
    return { X: all.slice(0, n * FILL_FEATURE_COUNT), y: all.slice(n * FILL_FEATURE_COUNT, n * (FILL_FEATURE_COUNT + 1)), painted: all.slice(n * (FILL_FEATURE_COUNT + 1)) };
  }
  const photos = await trainingPhotos(from, fixtures);
  if (photos.length < 20) {
    console.error(`Only ${photos.length} photos found under ${from}; see scripts/training/train-damage-detector.ts for how to unpack the packages.`);
    process.exit(1);
  }
  const X: number[] = [];
  const y: number[] = [];
  const painted: number[] = [];
  const row = new Float32Array(FILL_FEATURE_COUNT);
  const t0 = performance.now();
  let done = 0;
  for (const [k, photo] of photos.entries()) {
    if (isHeldOut(k)) continue;
    for (let seed = 1; seed <= seeds; seed++) {
      // Other seeds than the detector's training (1000·k + 1…): other strokes in other places.
      const old = await oldPhoto(photo.file, 3_000_000 + 1000 * k + seed, PAINT_SIZES[(k + seed) % PAINT_SIZES.length], { structures: (k + seed) % 3 === 0, unpainted: true });
      const { L, w, h } = await decodeL(old.jpeg);
      const truth = (await decodeL(old.unpainted!)).L;
      const median = await medianPlane(L, w, h, 5);
      const grain = pixelNoise(L, w, h);
      const { mask } = await findDamage(L, median, w, h, grain, isOversampled(L, w, h));
      const filled = L.slice();
      const confidence = fillFromSurroundings(filled, L, w, h, mask);
      const where: number[] = [];
      for (let i = 0; i < mask.length; i++) if (mask[i]) where.push(i);
      const r = random(k * 100 + seed);
      const take = Math.min(PER_PHOTO, where.length);
      for (let q = 0; q < take; q++) {
        const i = take === where.length ? where[q]! : where[Math.floor(r.next() * where.length)]!;
        fillFeatures(L, filled, mask, w, h, grain, confidence, i, row);
        for (const v of row) X.push(v);
        y.push(Math.max(-CLIP, Math.min(CLIP, (truth[i]! - filled[i]!) / FILL_SCALE)));
        painted.push(old.mask[i]!);
      }
      done++;
    }
    process.stderr.write(`\r${done} painted photos filled (${Math.round((performance.now() - t0) / 1000)} s, ${y.length} pixels)`);
  }
  process.stderr.write('\n');
  const result = { X: Float32Array.from(X), y: Float32Array.from(y), painted: Float32Array.from(painted) };
  if (cache) {
    writeFileSync(cache, Buffer.concat([Buffer.from(result.X.buffer), Buffer.from(result.y.buffer), Buffer.from(result.painted.buffer)]));
    writeFileSync(`${cache}.json`, JSON.stringify({ key }));
  }
  return result;
}

const all = await samples();
// Which filled pixels it learns from: those painted (mask above `--painted-from`) and, with `--clean-weight`, the
// detector's wrong ones too, each counting for that much.
const from8 = Number(cliOption('--painted-from', '5'));
const cleanWeight = Number(cliOption('--clean-weight', '0'));
const keep = Array.from(all.painted.keys()).filter((i) => all.painted[i]! > from8 || (cleanWeight > 0 && all.painted[i]! === 0));
const X = new Float32Array(keep.length * FILL_FEATURE_COUNT);
keep.forEach((i, k) => X.set(all.X.subarray(i * FILL_FEATURE_COUNT, (i + 1) * FILL_FEATURE_COUNT), k * FILL_FEATURE_COUNT));
const y = Float32Array.from(keep, (i) => all.y[i]!);
const weights = Float32Array.from(keep, (i) => (all.painted[i]! > from8 ? 1 : cleanWeight));
const names = Array.from({ length: FILL_FEATURE_COUNT }, (_, k) => `f${k}`);
const t0 = performance.now();
const net = trainMlp(X, y, names, { hidden, epochs: Number(cliOption('--epochs', '8')), seed: 7, rate: 0.003, output: 'value', weights });
// How much of the fill's squared error the network takes away on its own training pixels (a sanity figure; the
// benchmark's validation set measures what matters).
let before = 0;
let after = 0;
for (let i = 0; i < y.length; i += 7) {
  let s = net.b2;
  for (let j = 0; j < hidden; j++) {
    let a = net.b1[j]!;
    for (let q = 0; q < FILL_FEATURE_COUNT; q++) a += net.W1[j * FILL_FEATURE_COUNT + q]! * ((X[i * FILL_FEATURE_COUNT + q]! - net.mean[q]!) / net.scale[q]!);
    s += net.W2[j]! * Math.tanh(a);
  }
  before += y[i]! ** 2;
  after += (y[i]! - s) ** 2;
}
console.log(JSON.stringify({ pixels: y.length, trainSeconds: Math.round((performance.now() - t0) / 1000), rmsBefore: Math.sqrt(before / Math.ceil(y.length / 7)) * FILL_SCALE, rmsAfter: Math.sqrt(after / Math.ceil(y.length / 7)) * FILL_SCALE }));
const { hidden: H, mean, scale, W1, b1, W2, b2 } = net;
writeFileSync(out, `${JSON.stringify({ hidden: H, features: FILL_FEATURE_COUNT, mean, scale, W1, b1, W2, b2, trainedOn: `fill corrections of ${y.length} filled pixels, npm run train:fill` })}\n`);
console.log(`wrote ${path.relative(ROOT, out)}`);
