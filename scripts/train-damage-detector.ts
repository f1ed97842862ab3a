/**
 * Trains the damage detector's two networks (netlify/lib/image/damage-model.json) on damage painted by
 * scripts/lib/old-photo.ts over photographs shipped in Debian packages (wallpapers, OpenCV and scikit-image
 * samples; scripts/lib/training-photos.ts picks them). The benchmark's fixtures are never used: they are
 * refused by path and by likeness. Every fifth photo is held out to validate.
 *
 * Sources: unpack the packages once (the colour reference library comes from the same ones):
 *   mkdir -p /tmp/debs/x && cd /tmp/debs
 *   apt-get download plasma-workspace-wallpapers lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 \
 *     mate-backgrounds ruby-rmagick-doc opencv-doc python3-skimage
 *   for d in *.deb; do dpkg -x "$d" "x/${d%%_*}"; done
 * Run: npx tsx scripts/train-damage-detector.ts [--from /tmp/debs/x] [--seeds 2] [--cache /tmp/damage]
 * Pass 1 measures every painted photo and trains the pixel network; pass 2 measures them again, groups
 * likely pixels into objects with that network and trains the object network. --cache keeps both passes'
 * samples, so a run with other training settings takes seconds.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { damageFeatures, FEATURE_COUNT, FEATURE_NAMES, type DamageFeatures } from '../netlify/lib/image/damage-features';
import { predict, type Network } from '../netlify/lib/image/damage-model';
import { damageObjects, OBJECT_FEATURE_COUNT, OBJECT_FEATURE_NAMES } from '../netlify/lib/image/damage-objects';
import { rgbBufferToL } from '../netlify/lib/image/lab';
import { oldPhoto, random } from './lib/old-photo';
import { trainingPhotos } from './lib/training-photos';
import { trainMlp } from './lib/train-mlp';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name: string, fallback: string) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1]! : fallback; };
const from = arg('--from', '/tmp/debs/x');
const seeds = Number(arg('--seeds', '2'));
const cache = arg('--cache', '');
const out = path.join(ROOT, 'netlify/lib/image/damage-model.json');

const photos = await trainingPhotos(from, path.resolve(ROOT, '../shared/fixtures/photos'));
if (photos.length < 20) {
  console.error(`Only ${photos.length} photos found under ${from}; see the comment at the top for how to unpack the packages.`);
  process.exit(1);
}
const SIZES = [512, 768, 1024];
const isValidation = (k: number) => k % 5 === 4;
type Painted = { k: number; mask: Uint8Array; f: DamageFeatures; w: number; h: number };

/** Paints and measures every photo (seeds per photo), handing each to `use`. */
async function eachPainted(use: (p: Painted) => void): Promise<void> {
  let done = 0;
  const t0 = performance.now();
  for (const [k, photo] of photos.entries()) {
    for (let seed = 1; seed <= seeds; seed++) {
      const old = await oldPhoto(photo.file, 1000 * k + seed, SIZES[(k + seed) % SIZES.length]);
      const { data, info } = await sharp(old.jpeg).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
      const L = rgbBufferToL(data, info.width * info.height, info.channels);
      use({ k: k * 100 + seed, mask: old.mask, f: await damageFeatures(L, info.width, info.height), w: info.width, h: info.height });
      done++;
    }
    process.stderr.write(`\r${done}/${photos.length * seeds} photos painted and measured (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  process.stderr.write('\n');
}

/** Samples (features, label, weight) of one set, with save/load for the cache. */
class Samples {
  X: number[] = [];
  y: number[] = [];
  w: number[] = [];
  add(values: Float32Array, row: number, F: number, label: number, weight: number) {
    for (let j = 0; j < F; j++) this.X.push(values[row * F + j]!);
    this.y.push(label);
    this.w.push(weight);
  }
  static save(file: string, key: string, sets: Record<string, Samples>, extra: unknown) {
    const names = Object.keys(sets);
    const parts = names.flatMap((n) => [Float32Array.from(sets[n]!.X), Float32Array.from(sets[n]!.y), Float32Array.from(sets[n]!.w)]);
    writeFileSync(file, Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
    writeFileSync(`${file}.json`, JSON.stringify({ key, names, sizes: names.map((n) => [sets[n]!.X.length, sets[n]!.y.length]), extra }));
  }
  static load(file: string, key: string): { sets: Record<string, Samples>; extra: unknown } | null {
    if (!existsSync(file) || !existsSync(`${file}.json`)) return null;
    const meta = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { key: string; names: string[]; sizes: number[][]; extra: unknown };
    if (meta.key !== key) return null;
    const buf = readFileSync(file), all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    let o = 0;
    const take = (len: number) => Array.from(all.subarray(o, (o += len)));
    const sets: Record<string, Samples> = {};
    meta.names.forEach((n, i) => { const s = new Samples(); const [nx, ny] = meta.sizes[i]!; s.X = take(nx!); s.y = take(ny!); s.w = take(ny!); sets[n] = s; });
    return { sets, extra: meta.extra };
  }
}
const train = (s: Samples, names: readonly string[], hidden: number): Network =>
  trainMlp(Float32Array.from(s.X), Uint8Array.from(s.y), names, { hidden, epochs: 10, weights: Float32Array.from(s.w), seed: 7 });

// Pass 1: pixels. Damage (mask ≥ 128) and a random sample of the clean candidates (mask ≤ 5), each clean one
// standing for its share of them; faint strokes in between are left out.
const NEGATIVES = 6000;
const POSITIVE_WEIGHT = Number(arg('--positive-weight', '4'));
const pixelKey = `${FEATURE_NAMES.join()}|${seeds}|${photos.length}|${NEGATIVES}`;
let pixelSets = cache ? Samples.load(`${cache}-pixels`, pixelKey)?.sets : undefined;
if (!pixelSets) {
  pixelSets = { training: new Samples(), validation: new Samples() };
  await eachPainted(({ k, mask, f }) => {
    const set = pixelSets![isValidation(Math.floor(k / 100)) ? 'validation' : 'training']!;
    const r = random(k);
    const clean: number[] = [];
    f.candidates.forEach((i, c) => {
      if (mask[i]! >= 128) set.add(f.values, c, FEATURE_COUNT, 1, POSITIVE_WEIGHT);
      else if (mask[i]! <= 5) clean.push(c);
    });
    const taken = Math.min(NEGATIVES, clean.length);
    for (let q = 0; q < taken; q++) set.add(f.values, clean[Math.floor(r.next() * clean.length)]!, FEATURE_COUNT, 0, clean.length / taken);
  });
  if (cache) Samples.save(`${cache}-pixels`, pixelKey, pixelSets, null);
}
const pixel = train(pixelSets.training!, FEATURE_NAMES, Number(arg('--hidden', '20')));

// Pass 2: objects, grouped with the pixel network just trained. An object is damage when most of its
// pixels are painted (mask ≥ 64), clean when almost none are; weighted by its size, so the network minds
// pixels, not counts.
const objectKey = `${pixelKey}|${OBJECT_FEATURE_NAMES.join()}|${JSON.stringify(pixel.b1.slice(0, 3))}`;
type ValidationImage = { damaged: number; pixels: number; hits: number[]; flagged: number[] };
let objectData = cache ? Samples.load(`${cache}-objects`, objectKey) : null;
if (!objectData) {
  const sets = { training: new Samples(), validation: new Samples() };
  const images: ValidationImage[] = [];
  await eachPainted(({ k, mask, f, w, h }) => {
    const validation = isValidation(Math.floor(k / 100));
    const objects = damageObjects(f, predict(pixel, f.values, FEATURE_NAMES), w, h);
    const hits: number[] = [], flagged: number[] = [];
    objects.pixels.forEach((members, c) => {
      let painted = 0, cores = 0;
      for (const i of members) { if (mask[i]! >= 64) painted++; if (mask[i]! >= 128) cores++; }
      const share = painted / members.length;
      hits.push(cores); flagged.push(members.length);
      // Held-out objects are all kept (in order), to score whole photos.
      if (validation) sets.validation.add(objects.values, c, OBJECT_FEATURE_COUNT, share >= 0.5 ? 1 : 0, members.length);
      else if (share >= 0.5 || share <= 0.15) sets.training.add(objects.values, c, OBJECT_FEATURE_COUNT, share >= 0.5 ? 1 : 0, Math.min(200, members.length));
    });
    if (validation) {
      let damaged = 0;
      for (const v of mask) if (v >= 128) damaged++;
      images.push({ damaged, pixels: w * h, hits, flagged });
    }
  });
  objectData = { sets, extra: images };
  if (cache) Samples.save(`${cache}-objects`, objectKey, sets, images);
}
const object = train(objectData.sets.training!, OBJECT_FEATURE_NAMES, Number(arg('--object-hidden', '12')));

// Validation: recall of damage and share of pixels flagged on the held-out photos, per object threshold.
const vset = objectData.sets.validation!, images = objectData.extra as ValidationImage[];
const vq = predict(object, Float32Array.from(vset.X), OBJECT_FEATURE_NAMES);
const validation = [0.3, 0.5, 0.7].map((t) => {
  let hit = 0, damaged = 0, flagged = 0, pixels = 0, row = 0;
  for (const im of images) {
    damaged += im.damaged; pixels += im.pixels;
    im.flagged.forEach((size, c) => {
      if (vq[row++]! > t) { flagged += size; hit += im.hits[c]!; }
    });
  }
  return { threshold: t, recall: +(hit / damaged).toFixed(4), flaggedPct: +((100 * flagged) / pixels).toFixed(3) };
});
console.log(JSON.stringify({ photos: photos.length, seeds, pixelSamples: pixelSets.training!.y.length, objectSamples: objectData.sets.training!.y.length, validation }, null, 2));
writeFileSync(out, `${JSON.stringify({ pixel, object, trainedOn: `${photos.length} photos from Debian packages × ${seeds} painted seeds (scripts/train-damage-detector.ts)`, validation }, null, 1)}\n`);
console.log(`wrote ${path.relative(ROOT, out)}`);
