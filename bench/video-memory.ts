// `npm run bench -- video-memory`: the memory of one warm video-job process across 20 sequential 1080p
// restore-first jobs (a 1 MP old photo restored and colorized, then the clip), as a background function instance
// that is reused makes them. Netlify gives a function 1,024 MB; the target is a peak under 900 MB over all 20 jobs,
// this process and its ffmpeg children together (the function's sandbox counts both). Prints, per job, its wall
// and CPU time and the peak RSS while it ran, and the heap left after it.
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { makeScene } from '../tests/support/video-scenes';
import { measureClip } from './video/people';
import { rssWithChildren } from './video/process';
import { releaseJobMemory } from '../engines/video';

const MiB = 1024 * 1024;

/** `keep`: measure without the release between jobs (what an instance did before it). */
export async function benchVideoMemory({ jobs = 20, keep = false } = {}) {
  const photos = await Promise.all(
    (['portrait', 'figure', 'object'] as const).map(async (kind, i) =>
      sharp((await makeScene(kind, 1224 - i * 40, 816 + i * 24)).jpeg).greyscale().jpeg({ quality: 90 }).toBuffer(),
    ),
  );
  const perJob: { job: number; wallMs: number; cpuMs: number; peakRssMiB: number; peakNodeRssMiB: number; heapAfterMiB: number; rssAfterMiB: number }[] = [];
  const loadBefore = os.loadavg().map((l) => Math.round(l * 100) / 100);
  const cpu0 = process.cpuUsage();
  for (let job = 1; job <= jobs; job++) {
    let peak = 0;
    let peakNode = 0;
    const sample = () => {
      peak = Math.max(peak, rssWithChildren());
      peakNode = Math.max(peakNode, process.memoryUsage().rss / MiB);
    };
    const timer = setInterval(sample, 25);
    const t = performance.now();
    const c = process.cpuUsage();
    const run = await measureClip(photos[(job - 1) % photos.length]!, true, job % 2 ? 'pan left' : 'zoom in slowly', '1080p');
    // As the background function does after each job (netlify/functions/process-video-background.mts).
    if (!keep) releaseJobMemory();
    clearInterval(timer);
    sample();
    const used = process.cpuUsage(c);
    perJob.push({
      job,
      wallMs: Math.round(performance.now() - t),
      cpuMs: run.total.cpuMs ?? Math.round((used.user + used.system) / 1000),
      peakRssMiB: Math.round(peak),
      peakNodeRssMiB: Math.round(peakNode),
      heapAfterMiB: Math.round(process.memoryUsage().heapUsed / MiB),
      rssAfterMiB: Math.round(process.memoryUsage().rss / MiB),
    });
    console.error(`[video-memory] job ${job}/${jobs}: peak ${Math.round(peak)} MiB (node ${Math.round(peakNode)}), after ${perJob.at(-1)!.rssAfterMiB} MiB`);
  }
  const total = process.cpuUsage(cpu0);
  return {
    name: 'video-memory',
    input: '1224×816-ish greyscale JPEGs (generated portrait, figure, object), restored and colorized first, then a 1080p clip each; 20 jobs in one process',
    node: process.version,
    execArgv: process.execArgv,
    nodeOptions: process.env.NODE_OPTIONS ?? '',
    cpus: os.cpus().length,
    loadBefore,
    loadAfter: os.loadavg().map((l) => Math.round(l * 100) / 100),
    jobs,
    releaseBetweenJobs: !keep,
    peakRssMiB: Math.max(...perJob.map((j) => j.peakRssMiB)),
    peakNodeRssMiB: Math.max(...perJob.map((j) => j.peakNodeRssMiB)),
    firstJobPeakRssMiB: perJob[0]!.peakRssMiB,
    lastJobPeakRssMiB: perJob.at(-1)!.peakRssMiB,
    nodeCpuSeconds: Math.round((total.user + total.system) / 1e4) / 100,
    perJob,
  };
}
