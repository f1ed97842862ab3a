// Batches of a package, through `npm start`'s own server (its background functions in their bounded pool):
//  • throughput: 24 one-megapixel photos as one batch, wall time against one photo's time × 24 (target ≤ 0.65 on
//    2 cores), the CPU time of the server and its function instances beside it, their peak RSS (≤ 1.2 GB), and how
//    many cores one restore keeps busy on its own (its CPU time over its wall time, in this process);
//  • zip: a ZIP of 100 results streamed (netlify/lib/batches/zip.ts), this process's RSS growth (< 100 MB).
// Run: npm run bench -- batch [--quick]   (prints JSON; the scan splitter's section, bench/scans.ts, comes first)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import '../scripts/platform/embedded/local-storage';
import { startEmbeddedServices } from '../scripts/platform/embedded/embedded-services';
import { startSiteServer } from '../scripts/platform/server';
import { restoreAndColorize } from '../engines/image';
import { closePool } from '../netlify/lib/db';
import { getStorage } from '../netlify/lib/storage';
import { planParts, zipStream } from '../netlify/lib/batches/zip';
import { PACKAGE_KEY_HEADER } from '../src/lib/packages';
import { syntheticOldPhoto } from './image';
import { cpuClock, hostLoad, quantile } from './timing';
import { benchScanSplitter } from './scans';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROMPT = 'Restore this family photo';
const TICK_MS = 1000 / 100; // USER_HZ on Linux

/** This process and every process below it (the server's function instances), from /proc. */
function tree(root = process.pid): number[] {
  const parent = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parent.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const out = [root];
  for (let i = 0; i < out.length; i++) for (const [pid, ppid] of parent) if (ppid === out[i]) out.push(pid);
  return out;
}

/** CPU milliseconds (user + system) the processes have used, each from /proc/<pid>/stat. */
function treeCpuMs(pids: number[]): Map<number, number> {
  const cpu = new Map<number, number>();
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) * TICK_MS);
    } catch {
      /* gone */
    }
  }
  return cpu;
}

const rssMb = (pid: number) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
};

/** The function a local instance runs (scripts/platform/functions/instance.ts passes its entry in the environment). */
const functionOf = (pid: number) => {
  try {
    return /NETLIFY_PLAY_ENTRY_PATH=([^\0]*)/.exec(readFileSync(`/proc/${pid}/environ`, 'utf8'))?.[1] ?? '';
  } catch {
    return '';
  }
};

/**
 * Samples RSS every 100 ms until stopped; returns the peaks in MB: the whole tree (this process holds the embedded
 * database, storage and the site server; every local function is a process of its own, most of them idle), and the
 * batch's own work — the photo jobs' instances (process-batch-item-background) and the batches function.
 */
function rssPeak(): () => { tree: number; batchJobs: number } {
  let peak = 0;
  let jobs = 0;
  const timer = setInterval(() => {
    const pids = tree();
    peak = Math.max(peak, pids.reduce((sum, pid) => sum + rssMb(pid), 0));
    jobs = Math.max(jobs, pids.filter((pid) => /process-batch-item|[/\\]batches\./.test(functionOf(pid))).reduce((sum, pid) => sum + rssMb(pid), 0));
  }, 100);
  return () => {
    clearInterval(timer);
    return { tree: Math.round(peak), batchJobs: Math.round(jobs) };
  };
}

async function ok(res: Promise<Response>): Promise<Response> {
  const r = await res;
  if (!r.ok) throw new Error(`${r.url}: HTTP ${r.status} ${await r.text()}`);
  return r;
}

/** A 1 MP old photo, different each time (so nothing is cached between photos). */
async function photo(i: number): Promise<Buffer> {
  const base = await syntheticOldPhoto(1);
  return sharp(base).modulate({ brightness: 0.9 + (i % 7) * 0.03 }).jpeg({ quality: 90 }).toBuffer();
}

async function runBatch(site: string, key: string, photos: Buffer[]): Promise<{ wallMs: number; cpuMs: number; peakRssMb: number; batchJobsPeakRssMb: number; done: number }> {
  const headers = { [PACKAGE_KEY_HEADER]: key };
  const pids = tree();
  const cpuBefore = treeCpuMs(pids);
  const peak = rssPeak();
  const t0 = performance.now();
  const { batchId } = (await (await ok(fetch(`${site}/api/batches`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ model: 'sd-xl', prompt: PROMPT }) }))).json()) as { batchId: string };
  for (const [i, bytes] of photos.entries()) {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), `photo-${i}.jpg`);
    await ok(fetch(`${site}/api/batches/${batchId}/items`, { method: 'POST', headers, body: form }));
  }
  let answer: { counts: Record<string, number> };
  for (;;) {
    answer = (await (await ok(fetch(`${site}/api/batches/${batchId}`, { headers }))).json()) as typeof answer;
    if (answer.counts.waiting! + answer.counts.working! === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  const wallMs = performance.now() - t0;
  const { tree: peakRssMb, batchJobs: batchJobsPeakRssMb } = peak();
  const cpuAfter = treeCpuMs(tree());
  let cpuMs = 0;
  for (const [pid, after] of cpuAfter) cpuMs += after - (cpuBefore.get(pid) ?? 0);
  if (answer.counts.failed) throw new Error(`${answer.counts.failed} photos failed`);
  return { wallMs: Math.round(wallMs), cpuMs: Math.round(cpuMs), peakRssMb, batchJobsPeakRssMb, done: answer.counts.done! };
}

export async function benchBatchThroughput({ quick = false } = {}) {
  const count = quick ? 8 : 24;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-bench-batch-'));
  const services = await startEmbeddedServices({ dataDir });
  const server = await startSiteServer({ root: ROOT, port: 0 });
  try {
    const order = (await (await ok(fetch(`${server.url}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'family-package' }], idempotencyKey: `bench-${Date.now()}` }) }))).json()) as { allowances: { link: string }[] };
    const key = decodeURIComponent(order.allowances[0]!.link.split('#package=')[1]!);
    const photos = await Promise.all(Array.from({ length: count + 3 }, (_, i) => photo(i)));
    // Warm both pool instances, then one photo alone, three times: one photo's time through the same path.
    await runBatch(server.url, key, photos.slice(0, 2));
    const singles = [];
    for (let i = 0; i < 3; i++) singles.push(await runBatch(server.url, key, [photos[2 + i]!]));
    const one = quantile(singles.map((s) => s.wallMs), 0.5);
    const oneCpu = quantile(singles.map((s) => s.cpuMs), 0.5);
    const batch = await runBatch(server.url, key, photos.slice(3, 3 + count));

    // How many cores one restore keeps busy on its own, in this process (engine only).
    const bytes = photos[0]!;
    await restoreAndColorize(bytes, { model: 'sd-xl', prompt: PROMPT });
    const cpu = cpuClock();
    const t0 = performance.now();
    await restoreAndColorize(bytes, { model: 'sd-xl', prompt: PROMPT });
    const engineWall = performance.now() - t0;
    const engineCpu = cpu();

    const ratio = batch.wallMs / (count * one);
    return {
      photos: count,
      megapixels: 1,
      onePhoto: { wallMs: one, cpuMs: oneCpu, runs: singles.length },
      batch: { ...batch, ratio: Number(ratio.toFixed(3)), cpuRatio: Number((batch.cpuMs / (count * oneCpu)).toFixed(3)) },
      oneRestoreInProcess: { wallMs: Math.round(engineWall), cpuMs: Math.round(engineCpu), coresBusy: Number((engineCpu / engineWall).toFixed(2)) },
      cores: os.availableParallelism(),
      hostLoad: hostLoad(),
      targets: { ratio: 0.65, peakRssMb: 1200 },
      // The RSS target is read on the batch's own processes; the whole tree (every idle local function too) beside it.
      met: { ratio: ratio <= 0.65, peakRss: batch.batchJobsPeakRssMb <= 1200 },
    };
  } finally {
    await server.close();
    await closePool();
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A ZIP of 100 results streamed to nowhere: this process's RSS before and at its peak. */
export async function benchBatchZip({ results = 100 } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-bench-zip-'));
  const services = await startEmbeddedServices({ dataDir });
  try {
    const storage = getStorage();
    const entries = [];
    for (let i = 0; i < results; i++) {
      // About a megapixel of noise as JPEG: ~0.5–1 MB each, like a restored 1 MP photo (JPEG gains nothing in a ZIP).
      const raw = Buffer.alloc(1152 * 864 * 3);
      for (let j = 0; j < raw.length; j++) raw[j] = (j * 2654435761 + i * 97) >>> 24;
      const bytes = await sharp(raw, { raw: { width: 1152, height: 864, channels: 3 } }).jpeg({ quality: 85 }).toBuffer();
      const resultPath = `results/bench-${i}.jpg`;
      await storage.put(resultPath, bytes, 'image/jpeg');
      entries.push({ transformationId: `bench-${i}`, name: `Photo ${i % 10}.jpg`, resultPath, bytes: bytes.length, createdAt: new Date() });
    }
    const [plan] = planParts(entries, Number.MAX_SAFE_INTEGER);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
    const cpu = cpuClock();
    const t0 = performance.now();
    let written = 0;
    const reader = zipStream(plan!).getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      written += value.length;
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    clearInterval(timer);
    const growthMb = (peak - before) / 1024 / 1024;
    return {
      results,
      zipMb: Number((written / 1024 / 1024).toFixed(1)),
      wallMs: Math.round(performance.now() - t0),
      cpuMs: Math.round(cpu()),
      rssBeforeMb: Math.round(before / 1024 / 1024),
      rssGrowthMb: Number(growthMb.toFixed(1)),
      target: { rssGrowthMb: 100 },
      met: growthMb < 100,
      parts: planParts(entries).length,
    };
  } finally {
    await closePool();
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** `batch`: the scan splitter's scores (bench/scans.ts), then the batch's throughput and its ZIP's memory. */
export async function benchBatch({ quick = false, scansDir }: { quick?: boolean; scansDir?: string } = {}) {
  const splitter = await benchScanSplitter({ quick, scansDir });
  const throughput = await benchBatchThroughput({ quick });
  console.error(`[bench] batch.throughput ${JSON.stringify(throughput)}`);
  return { splitter, throughput, zip: await benchBatchZip({ results: quick ? 40 : 100 }) };
}
