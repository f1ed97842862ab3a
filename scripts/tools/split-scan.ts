/**
 * `npm run split-scan -- SCAN.jpg OUTDIR`: splits a flatbed scan of several prints (engines/scans) and writes
 * each print, straightened and cropped, as OUTDIR/<scan>-1.jpg, -2.jpg … in reading order, and OUTDIR/prints.json:
 *
 *   { "scan": "SCAN.jpg", "width": 4961, "height": 7016,
 *     "prints": [{ "file": "SCAN-1.jpg", "corners": [[x, y] × 4], "angle": -7.25, "width": 1210, "height": 1802 }, …],
 *     "keptWhole": null }
 *
 * corners: the print's top left, top right, bottom right and bottom left in the scan's pixels; angle: its turn on
 * the scan in degrees, clockwise. A scan kept whole has an empty list and `keptWhole: { code, reason }`.
 * `--stats` also prints the run's wall and CPU time and peak memory as JSON (the bench reads them).
 */
import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { splitScan } from '../../engines/scans';

const args = process.argv.slice(2);
const [scan, outDir] = args.filter((a) => !a.startsWith('--'));
if (!scan || !outDir) {
  console.error('Usage: npm run split-scan -- SCAN.jpg OUTDIR [--stats]');
  process.exit(2);
}

const idleRss = process.memoryUsage.rss();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
let bytes: Buffer;
try {
  bytes = await readFile(scan);
} catch (err) {
  console.error(`Cannot read ${scan}: ${(err as Error).message}`);
  process.exit(1);
}
let result;
try {
  result = await splitScan(bytes);
} catch (err) {
  console.error(`${scan}: ${(err as Error).message}`);
  process.exit(1);
}
const wallMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);

await mkdir(outDir, { recursive: true });
const stem = path.basename(scan, path.extname(scan));
const prints = [];
for (const [k, p] of result.prints.entries()) {
  const file = `${stem}-${k + 1}.jpg`;
  await writeFile(path.join(outDir, file), p.jpeg);
  prints.push({ file, corners: p.corners, angle: p.angle, width: p.width, height: p.height });
}
const keptWhole = result.keptWhole ? { code: result.keptWhole.code, reason: result.keptWhole.reason } : null;
await writeFile(
  path.join(outDir, 'prints.json'),
  `${JSON.stringify({ scan: path.basename(scan), width: result.width, height: result.height, prints, keptWhole }, null, 2)}\n`,
);

if (keptWhole) console.log(`${scan}: kept whole — ${keptWhole.reason}`);
else console.log(`${scan}: ${prints.length} print${prints.length === 1 ? '' : 's'} → ${outDir}/ (${prints.map((p) => `${p.file} ${p.angle}°`).join(', ')})`);
/**
 * This process's peak resident memory (MB): the kernel's high-water mark of its own memory map (VmHWM). Not
 * getrusage's maxRSS, which a process started by another keeps from its parent's size at the fork.
 */
function peakRssMB(): number {
  try {
    const kb = /VmHWM:\s*(\d+)\s*kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kb) return Math.round(Number(kb) / 1024);
  } catch {
    // Not Linux: the rusage figure, which is right for a process started from a shell.
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

if (args.includes('--stats')) {
  console.log(JSON.stringify({
    wallMs: Math.round(wallMs),
    cpuMs: Math.round((cpu.user + cpu.system) / 1000),
    findMs: result.timings.findMs,
    cutMs: result.timings.cutMs,
    // The peak for this process (Node and the TypeScript loader included), and its memory before it read the scan.
    peakRssMB: peakRssMB(),
    idleRssMB: Math.round(idleRss / 2 ** 20),
  }));
}
