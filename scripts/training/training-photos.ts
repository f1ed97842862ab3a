import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

/**
 * The photos the damage detector learns from: every photograph under the unpacked Debian packages (`root`),
 * one copy each, and never a benchmark fixture — refused by its package path and by likeness (a 32×32 grey
 * thumbnail correlating above 0.9 with a fixture's truth image). Diagrams and flat artwork are left out: a
 * photo has a continuous range of tones and little flat area. Documentation figures (`/html/` folders) are
 * left out too: they are annotated or filtered copies of sample photos, the fixtures' among them.
 */
export type TrainingPhoto = { file: string; width: number; height: number };

/** Every fifth photo (by its place in trainingPhotos' list) is held out: never trained on, used to validate. */
export const isHeldOut = (index: number) => index % 5 === 4;
/** Long sides the photos are painted at, in turn (old prints scanned at different sizes). */
export const PAINT_SIZES = [512, 768, 1024] as const;
/**
 * The benchmark's photo fixtures: `PHOTO_FIXTURES`, by default the project's shared fixtures folder beside the
 * checkout (`shared/fixtures/photos` next to the repository's folder; absent on a newcomer's clone).
 */
export const FIXTURES_DIR = path.resolve(process.env.PHOTO_FIXTURES || path.join(path.dirname(fileURLToPath(import.meta.url)), '../../../shared/fixtures/photos'));

/** The unpacked Debian packages the photos come from: `--from <folder>` on the command line, else `DAMAGE_PHOTOS`. */
export function photoRoot(): string | undefined {
  const i = process.argv.indexOf('--from');
  return (i > 0 ? process.argv[i + 1] : undefined) || process.env.DAMAGE_PHOTOS || undefined;
}

/**
 * The training scripts' two folders, or an exit with what to do: the unpacked packages (how to unpack them is in
 * scripts/training/train-damage-detector.ts's header) and the fixtures, which must be there to be kept out.
 */
export function trainingFolders(): { from: string; fixtures: string } {
  const from = photoRoot();
  const problem = !from
    ? 'Name the unpacked Debian packages: --from <folder> or DAMAGE_PHOTOS=<folder> (scripts/training/train-damage-detector.ts says how to unpack them).'
    : !existsSync(from)
      ? `The training photos' folder ${from} does not exist (scripts/training/train-damage-detector.ts says how to unpack the packages).`
      : !existsSync(fixturesManifest(FIXTURES_DIR))
        ? `The benchmark's fixtures are not at ${FIXTURES_DIR}: set PHOTO_FIXTURES=<folder>; without them they cannot be kept out of the training photos.`
        : undefined;
  if (problem) {
    console.error(problem);
    process.exit(1);
  }
  return { from: from!, fixtures: FIXTURES_DIR };
}

const IMAGE = /\.(jpe?g|png|ppm|tiff?|bmp|webp)$/i;

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    const st = statSync(p);
    if (st.isDirectory()) walk(p, out);
    else if (IMAGE.test(name) && st.size > 30_000 && !p.includes('/html/')) out.push(p);
  }
  return out;
}

async function thumb(file: string | Buffer): Promise<Float64Array> {
  const data = await sharp(file).greyscale().resize(32, 32, { fit: 'fill' }).raw().toBuffer();
  const v = Float64Array.from(data);
  const mean = v.reduce((a, b) => a + b, 0) / v.length;
  let ss = 0;
  for (let i = 0; i < v.length; i++) { v[i] -= mean; ss += v[i]! * v[i]!; }
  const norm = Math.sqrt(ss) || 1;
  return v.map((x) => x / norm);
}
const correlation = (a: Float64Array, b: Float64Array) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** Tone range and flatness on a 256-px copy: photos have many grey levels and few flat 3×3 patches. */
async function looksLikePhoto(file: string): Promise<boolean> {
  const { data, info } = await sharp(file).greyscale().resize(256, 256, { fit: 'inside' }).raw().toBuffer({ resolveWithObject: true });
  const levels = new Set(data).size;
  let flat = 0, total = 0;
  for (let y = 1; y < info.height - 1; y += 2) for (let x = 1; x < info.width - 1; x += 2) {
    let lo = 255, hi = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) { const v = data[(y + dy) * info.width + x + dx]!; lo = Math.min(lo, v); hi = Math.max(hi, v); }
    if (hi - lo <= 1) flat++;
    total++;
  }
  return levels > 120 && flat / total < 0.25;
}

/** The fixtures' manifest, without which the fixtures cannot be refused (see trainingPhotos). */
export const fixturesManifest = (fixturesDir: string) => path.join(fixturesDir, 'manifest.json');

/**
 * The training photos under `root`, the fixtures in `fixturesDir` refused. Throws when the fixtures are not there:
 * the list would then take them in (they come from the same packages), and every photo's place in it, so which
 * ones are held out, would change — a validation set measured so is another set, and training on it could learn
 * the benchmark.
 */
export async function trainingPhotos(root: string, fixturesDir: string): Promise<TrainingPhoto[]> {
  const refusedPaths = new Set<string>();
  const fixtureThumbs: Float64Array[] = [];
  if (!existsSync(fixturesManifest(fixturesDir))) throw new Error(`The benchmark's fixtures are not at ${fixturesDir}: without them they cannot be kept out of the training photos`);
  const m = JSON.parse(readFileSync(fixturesManifest(fixturesDir), 'utf8')) as { photos: { name: string; source: { path: string } }[] };
  for (const p of m.photos) {
    refusedPaths.add(p.source.path);
    fixtureThumbs.push(await thumb(path.join(fixturesDir, 'truth', `${p.name}.png`)));
  }
  const kept: (TrainingPhoto & { t: Float64Array })[] = [];
  // Largest first, so of several sizes of one picture the biggest is kept.
  const files = walk(root).map((f) => ({ f, size: statSync(f).size })).sort((a, b) => b.size - a.size);
  for (const { f } of files) {
    if ([...refusedPaths].some((p) => f.endsWith(p))) continue;
    let meta;
    try { meta = await sharp(f).metadata(); } catch { continue; }
    const width = meta.width ?? 0, height = meta.height ?? 0;
    if (Math.min(width, height) < 320 || !(await looksLikePhoto(f))) continue;
    const t = await thumb(f);
    if (fixtureThumbs.some((x) => correlation(x, t) > 0.9)) continue;
    if (kept.some((k) => correlation(k.t, t) > 0.95)) continue;
    kept.push({ file: f, width, height, t });
  }
  return kept.map(({ file, width, height }) => ({ file, width, height }));
}
