// Time to a finished 5-s 720p video + watermarked preview with the embedded engine.
//   npx tsx bench/video.ts   → prints JSON; `benchVideo()` is used by `npm run bench`.
import sharp from 'sharp';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEmbedded, DEFAULT_ENCODE } from '../netlify/lib/video/render';

/** RSS of this process plus its live children (ffmpeg), from /proc, in MiB. */
function rssWithChildren(): number {
  const page = 4096;
  let total = process.memoryUsage().rss;
  try {
    const children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    for (const pid of children) {
      try {
        total += Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * page;
      } catch {
        /* exited */
      }
    }
  } catch {
    /* not Linux */
  }
  return total / 1024 / 1024;
}

export async function benchVideo(runs = 5) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="3000" height="2000"><defs><linearGradient id="g"><stop offset="0" stop-color="#234"/><stop offset="1" stop-color="#fc9"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/>${Array.from({ length: 400 }, (_, i) => `<circle cx="${(i * 197) % 3000}" cy="${(i * 131) % 2000}" r="${6 + (i % 30)}" fill="hsl(${(i * 37) % 360},60%,55%)"/>`).join('')}</svg>`;
  const image = await sharp(Buffer.from(svg)).jpeg({ quality: 88 }).toBuffer();
  const results: Record<string, unknown> = {};
  for (const mode of ['standard', 'cinematic'] as const) {
    const times: number[] = [];
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, rssWithChildren())), 50);
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      await renderEmbedded(image, { prompt: i % 2 ? 'pan left' : 'zoom in slowly', mode, watermarkText: 'Lumora AI' });
      times.push(performance.now() - t);
    }
    clearInterval(timer);
    times.sort((a, b) => a - b);
    const q = (p: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]);
    results[mode] = { runs, p50Ms: q(0.5), p95Ms: q(0.95), peakRssMiB: Math.round(peak) };
  }
  return { name: 'video', input: '3000x2000 JPEG → 1280x720, 150 frames + preview', encode: DEFAULT_ENCODE, ...results };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchVideo().then((r) => console.log(JSON.stringify(r, null, 2)));
}
