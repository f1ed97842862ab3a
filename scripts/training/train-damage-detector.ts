/**
 * Trains the damage detector's two networks (engines/image/detect/model.json) on damage painted by
 * scripts/training/old-photo.ts over photographs shipped in Debian packages (wallpapers, OpenCV and scikit-image
 * samples; scripts/training/training-photos.ts picks them), a third of them with real thin structures painted into the
 * scene first (grids, wires, hair, twigs, lettering: what must be kept). The benchmark's fixtures are never used:
 * they are refused by path and by likeness. Every fifth photo is held out (bench/validation.ts scores on them).
 *
 * Sources: unpack the packages once (the colour reference library comes from the same ones):
 *   mkdir -p <folder>/x && cd <folder>
 *   apt-get download plasma-workspace-wallpapers lomiri-wallpapers-16.04 lomiri-wallpapers-20.04 \
 *     mate-backgrounds ruby-rmagick-doc opencv-doc python3-skimage ukui-wallpapers gnome-backgrounds
 *   for d in *.deb; do dpkg -x "$d" "x/${d%%_*}"; done      # then --from <folder>/x
 * Run: npm run train:damage [-- --from <folder>] [--seeds 4] [--object-nets 3] [--cache <file>]
 * (--from or DAMAGE_PHOTOS names the unpacked packages; PHOTO_FIXTURES the benchmark's fixtures, kept out.)
 * Pass 1 measures every painted photo and trains the pixel network; pass 2 measures them again, groups
 * likely pixels into objects with that network and trains the object networks (--object-nets of them, from
 * other starting weights; model.ts averages them). --cache keeps both passes'
 * samples, so a run with other training settings takes seconds. The same arguments give the same weights.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { FEATURE_COUNT, FEATURE_NAMES, type Evidence, predict, type Network, damageObjects, OBJECT_FEATURE_COUNT, OBJECT_FEATURE_NAMES, detectionEvidence } from '../../engines/image';
import { rgbBufferToL } from '../../engines/shared';
import { oldPhoto, random } from './old-photo';
import { PAINT_SIZES, isHeldOut, trainingFolders, trainingPhotos } from './training-photos';
import { trainMlp } from './train-mlp';
import { cliOption } from './cli-option';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { from, fixtures } = trainingFolders();
const seeds = Number(cliOption('--seeds', '4'));
const cache = cliOption('--cache', '');
const out = path.join(ROOT, 'engines/image/detect/model.json');
/** Mask value from which a painted pixel is damage (the fixtures' damaged pixels), and up to which it is clean. */
const DAMAGE = 64;
const CLEAN = 5;

const photos = await trainingPhotos(from, fixtures);
if (photos.length < 20) {
  console.error(`Only ${photos.length} photos found under ${from}; see the comment at the top for how to unpack the packages.`);
  process.exit(1);
}
type Painted = { k: number; mask: Uint8Array; L: Float32Array; ev: Evidence; w: number; h: number };

/** Paints and measures every training photo (seeds per photo; a third of them with thin structures), handing each to `use`. */
async function eachPainted(use: (p: Painted) => void): Promise<void> {
  let done = 0;
  const t0 = performance.now();
  for (const [k, photo] of photos.entries()) {
    if (isHeldOut(k)) continue;
    for (let seed = 1; seed <= seeds; seed++) {
      const old = await oldPhoto(photo.file, 1000 * k + seed, PAINT_SIZES[(k + seed) % PAINT_SIZES.length], { structures: (k + seed) % 3 === 0 });
      const { data, info } = await sharp(old.jpeg).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
      const L = rgbBufferToL(data, info.width * info.height, info.channels);
      const ev = (await detectionEvidence(L, info.width, info.height)).evidence;
      use({ k: k * 100 + seed, mask: old.mask, L, ev, w: info.width, h: info.height });
      done++;
    }
    process.stderr.write(`\r${done} painted photos measured (${Math.round((performance.now() - t0) / 1000)} s)`);
  }
  process.stderr.write('\n');
}

/** Samples (features, label, weight), with save/load for the cache. */
class Samples {
  X: number[] = [];
  y: number[] = [];
  w: number[] = [];
  add(values: Float32Array, row: number, F: number, label: number, weight: number) {
    for (let j = 0; j < F; j++) this.X.push(values[row * F + j]!);
    this.y.push(label);
    this.w.push(weight);
  }
  save(file: string, key: string) {
    const parts = [Float32Array.from(this.X), Float32Array.from(this.y), Float32Array.from(this.w)];
    writeFileSync(file, Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength))));
    writeFileSync(`${file}.json`, JSON.stringify({ key, sizes: [this.X.length, this.y.length] }));
  }
  static load(file: string, key: string): Samples | null {
    if (!existsSync(file) || !existsSync(`${file}.json`)) return null;
    const meta = JSON.parse(readFileSync(`${file}.json`, 'utf8')) as { key: string; sizes: number[] };
    if (meta.key !== key) return null;
    const buf = readFileSync(file);
    const all = new Float32Array(buf.buffer, buf.byteOffset, buf.byteLength / 4);
    const s = new Samples();
    const [nx, ny] = meta.sizes as [number, number];
    s.X = Array.from(all.subarray(0, nx));
    s.y = Array.from(all.subarray(nx, nx + ny));
    s.w = Array.from(all.subarray(nx + ny, nx + 2 * ny));
    return s;
  }
}
const train = (s: Samples, names: readonly string[], hidden: number, seed = 7): Network =>
  trainMlp(Float32Array.from(s.X), Uint8Array.from(s.y), names, { hidden, epochs: 10, weights: Float32Array.from(s.w), seed });

// Pass 1: pixels. Damage (mask ≥ 64) and a random sample of the clean candidates (mask ≤ 5), each clean one
// standing for its share of them; faint strokes in between are left out.
const NEGATIVES = 6000;
const POSITIVE_WEIGHT = Number(cliOption('--positive-weight', '3'));
const pixelKey = `${FEATURE_NAMES.join()}|${seeds}|${photos.length}|${NEGATIVES}|${POSITIVE_WEIGHT}|structures 1/3`;
let pixelSamples = cache ? Samples.load(`${cache}-pixels`, pixelKey) : null;
if (!pixelSamples) {
  const set = new Samples();
  await eachPainted(({ k, mask, ev }) => {
    const r = random(k);
    const clean: number[] = [];
    ev.candidates.forEach((i, c) => {
      if (mask[i]! >= DAMAGE) set.add(ev.values, c, FEATURE_COUNT, 1, POSITIVE_WEIGHT);
      else if (mask[i]! <= CLEAN) clean.push(c);
    });
    const taken = Math.min(NEGATIVES, clean.length);
    for (let q = 0; q < taken; q++) set.add(ev.values, clean[Math.floor(r.next() * clean.length)]!, FEATURE_COUNT, 0, clean.length / taken);
  });
  pixelSamples = set;
  if (cache) set.save(`${cache}-pixels`, pixelKey);
}
const pixel = train(pixelSamples, FEATURE_NAMES, Number(cliOption('--hidden', '20')));

// Pass 2: objects, grouped with the pixel network just trained. An object is damage when most of its pixels
// are painted (mask ≥ 64), clean when almost none are; weighted by its size, so the network minds pixels.
const objectKey = `${pixelKey}|${OBJECT_FEATURE_NAMES.join()}|${JSON.stringify(pixel.b1.slice(0, 3))}`;
let objectSamples = cache ? Samples.load(`${cache}-objects`, objectKey) : null;
if (!objectSamples) {
  const set = new Samples();
  await eachPainted(({ mask, L, ev, w, h }) => {
    const objects = damageObjects(L, ev, predict(pixel, ev.values, FEATURE_NAMES), w, h);
    objects.pixels.forEach((members, c) => {
      let painted = 0;
      for (const i of members) if (mask[i]! >= DAMAGE) painted++;
      const share = painted / members.length;
      if (share >= 0.5 || share <= 0.15) set.add(objects.values, c, OBJECT_FEATURE_COUNT, share >= 0.5 ? 1 : 0, Math.min(200, members.length));
    });
  });
  objectSamples = set;
  if (cache) set.save(`${cache}-objects`, objectKey);
}
// One object network's decisions swing with its starting weights alone (validation removal moved by up to 2.3
// points between three), so several are trained, from seeds 7, 8, …, and averaged.
const objectSet = objectSamples;
const objectNets = Number(cliOption('--object-nets', '3'));
const object = Array.from({ length: objectNets }, (_, j) => train(objectSet, OBJECT_FEATURE_NAMES, Number(cliOption('--object-hidden', '12')), 7 + j));

const summary = {
  photos: photos.length,
  heldOut: photos.filter((_, k) => isHeldOut(k)).length,
  seeds,
  pixelSamples: pixelSamples.y.length,
  objectSamples: objectSamples.y.length,
};
console.log(JSON.stringify(summary, null, 2));
const trainedOn = `${summary.photos - summary.heldOut} photos from Debian packages × ${seeds} painted seeds, a third with thin structures (npm run train:damage)`;
writeFileSync(out, `${JSON.stringify({ pixel, object, trainedOn }, null, 1)}\n`);
console.log(`wrote ${path.relative(ROOT, out)}; score it with npx tsx bench/image.ts --validation`);
