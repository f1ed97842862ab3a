// The scan splitter's scores (`npm run bench -- batch`, the `batch.splitter` section), on synthetic scans whose
// truth is known (tests/support/scans.ts), beside a plain threshold-and-contour splitter (scans-baseline.ts):
//
//   countRight   share of scans where the buyer gets the right number of images: each print when the scan should
//                be split (and it was, into that many), the scan whole when it should be kept whole (touching
//                prints, an album page, a print cut by the edge: the answer there is one image, the scan, and a
//                split into any number of prints is wrong)
//   iou85        share of the prints of scans that should be split whose found quad overlaps the print, or the
//                picture inside its white border, with IoU ≥ 0.85 (prints matched one to one, best overlap first;
//                a print not found scores 0)
//   tilt1        share of those prints found (IoU ≥ 0.5) with a residual tilt ≤ 1° (angles compared modulo 90°)
//   timings      per scan, the whole split (find, then cut every print to JPEG at full resolution), wall and CPU
//
// Four sets, each its own seed: `fixtures` (the shared photo fixtures' truth images; generated pictures when the
// fixtures are absent): the thresholds were set on it. `library` (the colorizer's reference photos, in the
// repository) and `generated` (made-up pictures): their failures were read while setting them. `heldOut` (the
// reference photos and other made-up pictures, its own seed): never looked at before its figures were taken.
// Plain photos (each set's pictures as JPEGs) are scored apart: they must be kept whole. And one 600-dpi A4 scan
// of six prints is split in a process of its own for its time and peak memory.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { splitScan, type SplitResult } from '../engines/scans';
import { FIXTURES_DIR } from '../scripts/training/training-photos';
import { generatedPictures, loadPictures, makeScan, scoreAnswer, type Answer, type Picture, type Scored, type ScanTruth } from '../tests/support/scans';
import { runCommand } from '../tests/support/command';
import { baselineSplit } from './scans-baseline';
import { cpuClock, hostLoad, quantile } from './timing';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const TARGETS = { countRight: 0.95, iou85: 0.9, tilt1: 0.95 };

/** A generated set: its seed, its pictures, how many scans, and its part in setting the thresholds. */
type SetSpec = {
  name: string;
  seed: number;
  scans: { full: number; quick: number };
  pictures: () => Promise<{ source: string; pictures: Picture[] }>;
  role: 'tuned on' | 'failures read while tuning' | 'held out';
};

async function libraryPictures(): Promise<Picture[]> {
  const dir = path.join(ROOT, 'engines/image/reference');
  return loadPictures(readdirSync(dir).filter((f) => f.endsWith('.jpg')).map((f) => path.join(dir, f)));
}

const SETS: SetSpec[] = [
  {
    name: 'fixtures', seed: 1, scans: { full: 120, quick: 30 }, role: 'tuned on',
    pictures: async () => {
      const dir = path.join(FIXTURES_DIR, 'truth');
      const files = existsSync(dir) ? readdirSync(dir).filter((f) => /\.(jpe?g|png)$/i.test(f)).map((f) => path.join(dir, f)) : [];
      return files.length ? { source: dir, pictures: await loadPictures(files) } : { source: 'generated (no fixtures)', pictures: generatedPictures(1, 12) };
    },
  },
  {
    name: 'library', seed: 2, scans: { full: 100, quick: 20 }, role: 'failures read while tuning',
    pictures: async () => ({ source: 'engines/image/reference', pictures: await libraryPictures() }),
  },
  {
    name: 'generated', seed: 3, scans: { full: 60, quick: 10 }, role: 'failures read while tuning',
    pictures: async () => ({ source: 'generated pictures', pictures: generatedPictures(3, 24) }),
  },
  {
    // Run once, with the thresholds as they are: its scans were never looked at while setting them.
    name: 'heldOut', seed: 4, scans: { full: 100, quick: 20 }, role: 'held out',
    pictures: async () => ({ source: 'engines/image/reference and generated pictures', pictures: [...(await libraryPictures()), ...generatedPictures(4, 24)] }),
  },
];

type Row = { truth: ScanTruth; mine: Scored; base: Scored; wallMs: number; cpuMs: number; baseMs: number; answer: string };

function summarise(rows: Row[], pick: (r: Row) => Scored) {
  const prints = rows.flatMap((r) => pick(r).prints);
  const share = (n: number, d: number) => (d ? Math.round((1000 * n) / d) / 10 : null);
  const byKind: Record<string, string> = {};
  for (const kind of ['split', 'touching', 'album', 'cut']) {
    const of = rows.filter((r) => r.truth.kind === kind);
    if (of.length) byKind[kind] = `${of.filter((r) => pick(r).countRight).length}/${of.length}`;
  }
  const byBed: Record<string, string> = {};
  for (const bed of ['white', 'grey', 'paper', 'black']) {
    const of = rows.filter((r) => r.truth.bed === bed && r.truth.kind === 'split');
    if (of.length) byBed[bed] = `${of.filter((r) => pick(r).countRight).length}/${of.length}`;
  }
  const tilts = prints.map((p) => p.tilt).filter((t): t is number => t !== null);
  return {
    countRightPct: share(rows.filter((r) => pick(r).countRight).length, rows.length),
    iou85Pct: share(prints.filter((p) => p.iou >= 0.85).length, prints.length),
    tilt1Pct: share(prints.filter((p) => p.tilt !== null && p.tilt <= 1).length, prints.length),
    meanIoU: prints.length ? round(prints.reduce((s, p) => s + p.iou, 0) / prints.length, 3) : null,
    medianTiltDeg: tilts.length ? round(quantile(tilts, 0.5), 2) : null,
    p95TiltDeg: tilts.length ? round(quantile(tilts, 0.95), 2) : null,
    countRightByKind: byKind,
    splitScansCountRightByBed: byBed,
  };
}

async function runSet(spec: SetSpec, count: number, scansDir?: string) {
  const { source, pictures } = await spec.pictures();
  const rows: Row[] = [];
  for (let i = 0; i < count; i++) {
    const seed = spec.seed * 100_000 + i;
    const { jpeg, truth } = await cachedScan(seed, pictures, scansDir && path.join(scansDir, spec.name));
    const cpu = cpuClock();
    const t0 = performance.now();
    const result = await splitScan(jpeg);
    const wallMs = performance.now() - t0;
    const cpuMs = cpu();
    const t1 = performance.now();
    const base = await baselineSplit(jpeg);
    const baseMs = performance.now() - t1;
    rows.push({ truth, mine: scoreAnswer(truth, asAnswer(result)), base: scoreAnswer(truth, base), wallMs, cpuMs, baseMs, answer: describe(result) });
  }
  // Plain photos: each picture as a JPEG, as a buyer uploads a photo; every one must be kept whole.
  let plainWhole = 0;
  for (const p of pictures) {
    const jpeg = await sharp(p.data, { raw: { width: p.width, height: p.height, channels: 3 } }).jpeg({ quality: 90 }).toBuffer();
    if ((await splitScan(jpeg)).keptWhole) plainWhole++;
  }
  const scansCount = rows.length;
  const timing = (xs: number[]) => ({ p50: Math.round(quantile(xs, 0.5)), p95: Math.round(quantile(xs, 0.95)), mean: Math.round(xs.reduce((s, v) => s + v, 0) / xs.length) });
  return {
    pictures: `${pictures.length} from ${source}`,
    role: spec.role,
    scans: scansCount,
    prints: rows.filter((r) => !r.truth.whole).reduce((s, r) => s + r.truth.count, 0),
    splitter: summarise(rows, (r) => r.mine),
    baseline: summarise(rows, (r) => r.base),
    plainPhotosKeptWhole: `${plainWhole}/${pictures.length}`,
    perScanMs: { wall: timing(rows.map((r) => r.wallMs)), cpu: timing(rows.map((r) => r.cpuMs)), baselineWall: timing(rows.map((r) => r.baseMs)) },
    sizes: `${Math.min(...rows.map((r) => r.truth.width * r.truth.height)) / 1e6 | 0}–${Math.ceil(Math.max(...rows.map((r) => r.truth.width * r.truth.height)) / 1e6)} MP`,
    // The scans the splitter got wrong, to look at (`--scans-dir` keeps them): seed, kind, bed, truth → answer.
    misses: rows.filter((r) => !r.mine.countRight || r.mine.prints.some((p) => p.iou < 0.85 || p.tilt === null || p.tilt > 1)).slice(0, 25).map((r) => ({
      seed: r.truth.seed, kind: r.truth.kind, bed: r.truth.bed,
      expected: r.truth.whole ? 'whole' : `${r.truth.count} prints`, got: r.answer,
      prints: r.mine.prints.filter((p) => p.iou < 0.85 || p.tilt === null || p.tilt > 1).map((p, k) => `#${k} IoU ${round(p.iou, 3)} tilt ${p.tilt === null ? '-' : round(p.tilt, 2)}`),
    })),
  };
}

function asAnswer(r: SplitResult): Answer {
  return { whole: !!r.keptWhole, prints: r.prints.map((p) => ({ corners: p.corners, angle: p.angle })) };
}

const describe = (r: SplitResult) => (r.keptWhole ? `whole (${r.keptWhole.code})` : `${r.prints.length} prints`);

/** A scan of the set, generated from its seed, or read back from `dir` when an earlier run kept it there. */
async function cachedScan(seed: number, pictures: Picture[], dir?: string): Promise<{ jpeg: Buffer; truth: ScanTruth }> {
  const file = dir && path.join(dir, `scan-${seed}`);
  if (file && existsSync(`${file}.json`)) return { jpeg: readFileSync(`${file}.jpg`), truth: JSON.parse(readFileSync(`${file}.json`, 'utf8')) };
  const made = await makeScan(seed, pictures);
  if (file) {
    mkdirSync(dir!, { recursive: true });
    writeFileSync(`${file}.jpg`, made.jpeg);
    writeFileSync(`${file}.json`, JSON.stringify(made.truth, null, 1));
  }
  return made;
}

/**
 * A 600-dpi A4 scan (4962 × 7014) of six prints, split by `npm run split-scan` in a process of its own: its wall and
 * CPU time and its peak RSS (the process's high-water mark, Node and the TypeScript loader included; `idleRssMB`
 * is the same process before it reads the scan).
 */
async function bigScan() {
  const { pictures } = await SETS[0]!.pictures();
  const { jpeg, truth } = await makeScan(4242, pictures, { kind: 'split', prints: 6, dpi: 600, bed: 'white', paper: 'a4' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'scan-bench-'));
  try {
    const file = path.join(dir, 'scan.jpg');
    writeFileSync(file, jpeg);
    const out = await runCommand(process.execPath, ['--import', 'tsx', 'scripts/tools/split-scan.ts', file, path.join(dir, 'out'), '--stats'], { cwd: ROOT });
    const stats = JSON.parse(out.slice(out.indexOf('{'), out.lastIndexOf('}') + 1));
    const written = JSON.parse(readFileSync(path.join(dir, 'out', 'prints.json'), 'utf8'));
    const mine = scoreAnswer(truth, { whole: !!written.keptWhole, prints: written.prints });
    return { size: `${truth.width}×${truth.height}`, megabytes: round(jpeg.length / 2 ** 20, 1), prints: `${written.prints.length}/${truth.count}`, countRight: mine.countRight, minIoU: round(Math.min(...mine.prints.map((p) => p.iou)), 3), ...stats };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The sets' scores alone (no big scan): `sizes` scans per set named. */
export async function scoreSets(sizes: Record<string, number>, scansDir?: string) {
  const sets: Record<string, Awaited<ReturnType<typeof runSet>>> = {};
  for (const spec of SETS) if (sizes[spec.name]) sets[spec.name] = await runSet(spec, sizes[spec.name]!, scansDir);
  return sets;
}

export async function benchScanSplitter({ quick = false, scansDir }: { quick?: boolean; scansDir?: string } = {}) {
  const load = hostLoad();
  const sets = await scoreSets(Object.fromEntries(SETS.map((s) => [s.name, quick ? s.scans.quick : s.scans.full])), scansDir);
  return {
    targets: { countRightPct: 100 * TARGETS.countRight, iou85Pct: 100 * TARGETS.iou85, tilt1Pct: 100 * TARGETS.tilt1 },
    rules: 'countRight: kept whole where the truth is touching/album/cut, else exactly the truth count; iou85: prints with IoU ≥ 0.85 to the print or its picture; tilt1: prints with residual tilt ≤ 1°',
    sets,
    bigScan: await bigScan(),
    hostLoadBefore: load,
    hostLoadAfter: hostLoad(),
  };
}

const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
