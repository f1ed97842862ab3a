/**
 * Builds the colour-reference library of the offline colorizer (engines/image/exemplar.ts): freely
 * licensed photos shipped in Debian packages, downscaled into engines/image/reference/ and listed in
 * its manifest.json. Entries already in the manifest (and their files) are kept untouched; only new
 * sources are written and appended, so re-running it changes nothing.
 *
 * Sources: the packages named in SOURCES, each unpacked into a folder named after the package:
 *   mkdir -p <folder> && cd <folder>
 *   apt-get download plasma-workspace-wallpapers lomiri-wallpapers-16.04 ruby-rmagick-doc opencv-doc
 *   for d in *.deb; do dpkg -x "$d" "x/${d%%_*}"; done
 * Run: npx tsx scripts/training/build-reference-library.ts --from <folder>/x   (or DAMAGE_PHOTOS=<folder>/x)
 *      npx tsx scripts/training/build-reference-library.ts --grid   (only rewrites colour-grid.bin, after a change
 *      to the colorizer's method; every run ends by rewriting it)
 *
 * Licences and credits come from each package's debian/copyright (usr/share/doc/<pkg>/copyright) and, for
 * Plasma wallpapers, the wallpaper's metadata.json; "Not stated by upstream" means neither names the picture.
 *
 * Guard: the references must not be the colorizer benchmark's photos (PHOTO_FIXTURES, when present). Their
 * source files are refused by path, and every reference is compared with every fixture truth image.
 */
import sharp from 'sharp';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { GRID_FILE, writeColourGrid } from '../../engines/image';
import { FIXTURES_DIR, photoRoot } from './training-photos';

interface Source {
  package: string;
  packageVersion: string; // from the .deb file name (%3a = ':')
  pathInPackage: string;
  file: string; // output name in the reference folder
  licence: string;
  credit: string;
}
type Entry = Pick<Source, 'file'> & { width: number; height: number } & Omit<Source, 'file'>;

// One helper per package keeps the list readable.
const plasma = (wallpaper: string, file: string, author: string, image = '800x600.jpg'): Source => ({
  package: 'plasma-workspace-wallpapers', packageVersion: '4:5.27.5-2', pathInPackage: `/usr/share/wallpapers/${wallpaper}/contents/images/${image}`,
  file, licence: 'LGPLv3 per wallpaper metadata.json (package: GPL-2+)', credit: author,
});
const lomiri = (name: string, file: string, licence: string, credit: string): Source => ({
  package: 'lomiri-wallpapers-16.04', packageVersion: '20.04.0-2', pathInPackage: `/usr/share/backgrounds/${name}`, file, licence, credit,
});
const rmagick = (name: string, file: string): Source => ({
  package: 'ruby-rmagick-doc', packageVersion: '4.2.3-2', pathInPackage: `/usr/share/doc/ruby-rmagick-doc/html/ex/images/${name}`,
  file, licence: 'Not stated by upstream (package: MIT-X)', credit: 'Not stated by upstream (RMagick examples)',
});
const opencv = (path: string, file: string): Source => ({
  package: 'opencv-doc', packageVersion: '4.6.0+dfsg-12', pathInPackage: `/usr/share/doc/opencv-doc/examples/${path}`,
  file, licence: 'Not stated by upstream (package: Apache-2.0 AND BSD-3-Clause)', credit: 'Not stated by upstream (OpenCV samples)',
});

const SOURCES: Source[] = [
  plasma('BytheWater', 'bythewater.jpg', 'Maciej Wiklo'),
  plasma('ColdRipple', 'cold_ripple.jpg', 'Risto Saukonpää'), // already in the library (skipped)
  plasma('ColorfulCups', 'colorful_cups.jpg', 'Dmitri Popov', '2560x1600.jpg'), // its only size
  plasma('DarkestHour', 'darkest_hour.jpg', 'Risto Saukonpää'),
  plasma('EveningGlow', 'evening_glow.jpg', 'Ian Hex'), // already in the library (skipped)
  plasma('FallenLeaf', 'fallen_leaf.jpg', 'Martin Klapetek'),
  lomiri('Bridge_by_Sander_Klootwijk.jpg', 'bridge.jpg', 'CC-BY-SA-4.0', 'Sander Klootwijk, 2018'),
  lomiri('Dragonfly_by_Bolly.jpg', 'dragonfly.jpg', 'CC-BY-SA-4.0', '"Bolly", 2018'),
  lomiri('Picture_0B_by_freespace.jpg', 'picture_0b.jpg', 'CC-BY-4.0', 'Trevor "Freespace", 2018'),
  lomiri('Picture_1A_by_freespace.jpg', 'picture_1a.jpg', 'CC-BY-4.0', 'Trevor "Freespace", 2018'),
  lomiri('Wine_by_Jakkub_Mede.jpg', 'wine.jpg', 'CC-BY-4.0', 'Jakub Mede, 2018'),
  lomiri('friends_by_Aitzol_Berasategi.jpg', 'friends.jpg', 'CC-BY-4.0', 'Aitzol Berasategi, 2018'),
  lomiri('life_by_Aitzol_Berasategi.jpg', 'life.jpg', 'CC-BY-4.0', 'Aitzol Berasategi, 2018'),
  lomiri('picosdeeuropa_by_Aitzol_Berasategi.jpg', 'picos_de_europa.jpg', 'CC-BY-4.0', 'Aitzol Berasategi, 2018'),
  lomiri('seeding_by_Clements_Engelhardt.jpg', 'seeding.jpg', 'CC0-1.0', 'Clemens Engelhardt, 2018'),
  lomiri('sunset_by_Aitzol_Berasategi.jpg', 'sunset.jpg', 'CC-BY-4.0', 'Aitzol Berasategi, 2018'),
  rmagick('Ballerina.jpg', 'ballerina.jpg'),
  rmagick('Cheetah.jpg', 'cheetah.jpg'),
  rmagick('Gold_Statue.jpg', 'gold_statue.jpg'),
  rmagick('Hot_Air_Balloons.jpg', 'hot_air_balloons.jpg'),
  rmagick('Red_Rocks.jpg', 'red_rocks.jpg'),
  rmagick('Shorts.jpg', 'shorts.jpg'),
  rmagick('Violin.jpg', 'violin.jpg'),
  opencv('data/butterfly.jpg', 'butterfly.jpg'),
  opencv('data/orange.jpg', 'orange.jpg'),
  opencv('data/apple.jpg', 'apple.jpg'),
  opencv('data/aero1.jpg', 'aero1.jpg'),
  opencv('data/leuvenA.jpg', 'leuven_a.jpg'),
  opencv('hfs/data/000.jpg', 'hfs_000.jpg'),
  ...[2, 3, 4, 5, 6].map((n) => opencv(`text/scenetext0${n}.jpg`, `scenetext_0${n}.jpg`)),
  opencv('alphamat/input_images/plant.jpg', 'plant.jpg'),
  opencv('data/chicky_512.png', 'chicky.jpg'),
];

// The benchmark fixtures' source files (listed in the fixtures' manifest.json): never a reference.
const FIXTURE_SOURCES = ['skimage/data/chelsea.png', 'Flower_Hat.jpg', 'Polynesia.jpg', 'fruits.jpg', 'building.jpg', 'home.jpg',
  'squirrel_cls.jpg', 'text/scenetext01.jpg', 'hfs/data/001.jpg', 'LadyBird.jpg', 'aitzgorri_by_Aitzol_Berasategi.jpg', 'parrot.ppm'];
const isFixtureSource = (path: string) => FIXTURE_SOURCES.some((f) => path.toLowerCase().endsWith('/' + f.toLowerCase()));
const MAX_CORRELATION = 0.9;

const LONG_SIDE = 320;
const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const refDir = join(root, 'engines/image/reference');
if (process.argv.includes('--grid')) {
  await writeColourGrid();
  console.log(`wrote ${join(refDir, GRID_FILE)}`);
  process.exit(0);
}
const truthDir = join(FIXTURES_DIR, 'truth');
const named = photoRoot();
if (!named) {
  console.error('Name the unpacked Debian packages: --from <folder> or DAMAGE_PHOTOS=<folder> (see the header).');
  process.exit(1);
}
const from = resolve(named);

/** Same picture, whatever the file: a Plasma wallpaper is identified by its folder, anything else by its path. */
const pictureKey = (e: { package: string; pathInPackage: string }) =>
  `${e.package}:${e.pathInPackage.match(/^\/usr\/share\/wallpapers\/([^/]+)\//)?.[1] ?? e.pathInPackage}`;

/** Warns when the unpacked package is not the version recorded in SOURCES (first line of changelog.Debian.gz). */
async function checkVersion(pkg: string, version: string) {
  const log = join(from, pkg, 'usr/share/doc', pkg, 'changelog.Debian.gz');
  if (!existsSync(log)) return;
  const found = gunzipSync(await readFile(log)).toString('utf8').match(/^\S+ \(([^)]+)\)/)?.[1];
  if (found && found !== version) console.warn(`! ${pkg}: unpacked version ${found}, SOURCES says ${version}`);
}

/** Mean-free, unit-length 32×32 greyscale thumbnail: the dot product of two is their normalised cross-correlation. */
async function thumbnail(input: string | Buffer): Promise<Float64Array> {
  const raw = await sharp(input).flatten({ background: '#ffffff' }).resize(32, 32, { fit: 'fill' }).greyscale().raw().toBuffer();
  if (raw.length !== 32 * 32) throw new Error('unexpected thumbnail size');
  const v = Float64Array.from(raw);
  const mean = v.reduce((s, x) => s + x, 0) / v.length;
  let norm = 0;
  for (let i = 0; i < v.length; i++) { v[i] -= mean; norm += v[i] * v[i]; }
  norm = Math.sqrt(norm) || 1;
  return v.map((x) => x / norm);
}
const dot = (a: Float64Array, b: Float64Array) => a.reduce((s, x, i) => s + x * b[i], 0);

const manifestPath = join(refDir, 'manifest.json');
const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as { description: string; images: Entry[] };
const existing = manifest.images;
const files = new Set(existing.map((e) => e.file));
const pictures = new Set(existing.map(pictureKey));

const refused = [...existing, ...SOURCES].filter((s) => isFixtureSource(s.pathInPackage));
if (refused.length) throw new Error(`Refusing benchmark fixture sources: ${refused.map((s) => s.pathInPackage).join(', ')}`);

// 1. Convert every new source in memory; nothing is written until the guard has passed.
const added: { entry: Entry; jpeg: Buffer }[] = [];
for (const pkg of new Set(SOURCES.map((s) => s.package))) await checkVersion(pkg, SOURCES.find((s) => s.package === pkg)!.packageVersion);
for (const s of SOURCES) {
  if (files.has(s.file) || pictures.has(pictureKey(s))) {
    console.log(`skip ${s.file}: already in the library (${s.pathInPackage})`);
    continue;
  }
  const src = join(from, s.package, s.pathInPackage);
  if (!existsSync(src)) throw new Error(`Missing ${src}: unpack ${s.package} ${s.packageVersion} into ${join(from, s.package)} (see header)`);
  const { data, info } = await sharp(src)
    .autoOrient() // apply EXIF orientation
    .flatten({ background: '#ffffff' }) // drop alpha onto white
    .resize(LONG_SIDE, LONG_SIDE, { fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb') // embedded ICC profiles are converted to sRGB; greyscale becomes 3-channel
    .jpeg({ quality: 85 }) // no keepMetadata(): EXIF, ICC and XMP are stripped
    .toBuffer({ resolveWithObject: true });
  const { file, ...rest } = s;
  added.push({ entry: { file, width: info.width, height: info.height, ...rest }, jpeg: data });
  files.add(s.file);
  pictures.add(pictureKey(s));
}

// 2. Near-duplicate guard against the benchmark's truth images.
if (existsSync(truthDir)) {
  const truths = await Promise.all((await readdir(truthDir)).filter((f) => f.endsWith('.png')).sort()
    .map(async (f) => ({ name: f, t: await thumbnail(join(truthDir, f)) })));
  const refs = [
    ...existing.map((e) => ({ name: e.file, input: join(refDir, e.file) as string | Buffer })),
    ...added.map((a) => ({ name: a.entry.file, input: a.jpeg as string | Buffer })),
  ];
  let best = { r: -Infinity, ref: '', truth: '' };
  const tooClose: string[] = [];
  for (const ref of refs) {
    const t = await thumbnail(ref.input);
    for (const truth of truths) {
      const r = dot(t, truth.t);
      if (r > best.r) best = { r, ref: ref.name, truth: truth.name };
      if (r > MAX_CORRELATION) tooClose.push(`${ref.name} ~ ${truth.name} (r = ${r.toFixed(3)})`);
    }
  }
  console.log(`fixture check: ${refs.length} references × ${truths.length} truths, highest correlation ${best.r.toFixed(3)} (${best.ref} ~ ${best.truth})`);
  if (tooClose.length) throw new Error(`References resemble benchmark fixtures (correlation > ${MAX_CORRELATION}):\n  ${tooClose.join('\n  ')}`);
} else {
  console.log(`fixture check skipped: ${truthDir} not found`);
}

// 3. Write the new files and the manifest (existing entries first, unchanged).
for (const { entry, jpeg } of added) await writeFile(join(refDir, entry.file), jpeg);
manifest.images = [...existing, ...added.map((a) => a.entry)];
await writeFile(manifestPath, JSON.stringify(manifest, null, 2) + '\n');
await writeColourGrid();
console.log(`added ${added.length}, library now has ${manifest.images.length} references; ${GRID_FILE} rewritten`);
