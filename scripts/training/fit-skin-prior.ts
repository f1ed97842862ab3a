/**
 * Fits the skin and lips chroma prior of the colour stage (engines/image/portrait/skin-prior.json) on the
 * faces of colour photos: the public fixtures' colour originals that show people (../shared/fixtures/photos,
 * category "people") and every photo of the colour reference library (engines/image/reference) the face
 * mesh finds a face in. Skin is the mesh's face outline without lips, mouth, eyes and brows; per L* bin of
 * `STEP`, the median a*, b* over every photo's skin, each photo weighing alike (at most SAMPLES pixels each).
 * Run: npx tsx scripts/training/fit-skin-prior.ts   (needs the fixtures beside the repository for their share)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rgbToLab } from '../../engines/shared';
import { faceRegions } from '../../engines/image';
import { analysePhoto, decodeForVision } from '../../engines/vision/index';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FIXTURES = path.resolve(ROOT, '../shared/fixtures/photos');
const REFERENCE = path.join(ROOT, 'engines/image/reference');
const OUT = path.join(ROOT, 'engines/image/portrait/skin-prior.json');
const STEP = 5;
const BINS = 100 / STEP;
/** Pixels taken from one photo's skin (evenly spaced), so a close portrait does not outweigh a group. */
const SAMPLES = 4000;
/** A bin needs this many pixels (over all photos) to stand on its own; thinner ones take their neighbours'. */
const MIN_BIN = 40;
/** Faces the mesh finds that are not skin: a gilded statue. */
const NOT_SKIN = new Set(['gold_statue.jpg']);

function photos(): { name: string; file: string }[] {
  const list: { name: string; file: string }[] = [];
  if (existsSync(path.join(FIXTURES, 'manifest.json'))) {
    const m = JSON.parse(readFileSync(path.join(FIXTURES, 'manifest.json'), 'utf8')) as { photos: { name: string; category: string }[] };
    for (const p of m.photos) if (p.category === 'people') list.push({ name: `fixture ${p.name}`, file: path.join(FIXTURES, 'truth', `${p.name}.png`) });
  } else console.warn(`fixtures not found at ${FIXTURES}: fitting on the reference library alone`);
  const lib = JSON.parse(readFileSync(path.join(REFERENCE, 'manifest.json'), 'utf8')) as { images: { file: string }[] };
  for (const { file } of lib.images) if (!NOT_SKIN.has(file)) list.push({ name: `reference ${file}`, file: path.join(REFERENCE, file) });
  return list;
}

const median = (v: number[]) => {
  const s = v.slice().sort((p, q) => p - q);
  return s.length ? s[s.length >> 1]! : NaN;
};

const skin: { L: number; a: number; b: number }[] = [];
const lips: { L: number; a: number; b: number }[] = [];
const used: string[] = [];
for (const p of photos()) {
  const image = await decodeForVision(readFileSync(p.file));
  const { faces } = await analysePhoto(image, { faces: true, people: false, subjects: false });
  if (!faces.length) continue;
  const r = faceRegions(faces, image.width, image.height, 1);
  const take = (mask: Uint8Array, into: typeof skin) => {
    const idx: number[] = [];
    for (let i = 0; i < mask.length; i++) if (mask[i]) idx.push(i);
    const stride = Math.max(1, idx.length / SAMPLES);
    for (let k = 0; k < idx.length; k += stride) {
      const i = idx[Math.floor(k)]! * 3;
      const [L, a, b] = rgbToLab(image.data[i]!, image.data[i + 1]!, image.data[i + 2]!);
      into.push({ L, a, b });
    }
    return idx.length;
  };
  const n = take(r.skin, skin);
  take(r.lips, lips);
  used.push(`${p.name} (${faces.length} face${faces.length > 1 ? 's' : ''}, ${n} skin px)`);
  console.log(used.at(-1));
}
if (!skin.length) throw new Error('No face found in any photo: nothing to fit');

const a: number[] = [], b: number[] = [], counts: number[] = [];
for (let k = 0; k < BINS; k++) {
  const inBin = skin.filter((s) => Math.min(BINS - 1, Math.floor(s.L / STEP)) === k);
  counts.push(inBin.length);
  a.push(inBin.length >= MIN_BIN ? median(inBin.map((s) => s.a)) : NaN);
  b.push(inBin.length >= MIN_BIN ? median(inBin.map((s) => s.b)) : NaN);
}
// Thin bins: linear between the nearest filled ones, the ends held at the last filled value.
for (const v of [a, b]) {
  const filled = v.map((x, k) => (Number.isNaN(x) ? -1 : k)).filter((k) => k >= 0);
  for (let k = 0; k < BINS; k++) {
    if (!Number.isNaN(v[k]!)) continue;
    const lo = filled.filter((j) => j < k).at(-1), hi = filled.find((j) => j > k);
    v[k] = lo === undefined ? v[hi!]! : hi === undefined ? v[lo]! : v[lo]! + ((k - lo) / (hi - lo)) * (v[hi]! - v[lo]!);
  }
}
const round = (x: number) => Math.round(x * 100) / 100;
const at = (L: number) => {
  const t = Math.min(BINS - 1, Math.max(0, L / STEP - 0.5));
  const k = Math.min(BINS - 2, Math.floor(t)), f = t - k;
  return [a[k]! + f * (a[k + 1]! - a[k]!), b[k]! + f * (b[k + 1]! - b[k]!)] as const;
};
const out = {
  description: 'Skin and lips chroma (CIELAB a*, b*) by L* bin, fitted by scripts/training/fit-skin-prior.ts on the face mesh regions of the photos listed.',
  photos: used,
  step: STEP,
  a: a.map(round),
  b: b.map(round),
  samples: counts,
  lips: { da: round(median(lips.map((l) => l.a - at(l.L)[0]))), db: round(median(lips.map((l) => l.b - at(l.L)[1]))) },
};
writeFileSync(OUT, JSON.stringify(out, null, 2) + '\n');
console.log(JSON.stringify({ ...out, photos: used.length }));
