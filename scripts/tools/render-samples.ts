// Renders the marketing sample videos with the real embedded engine:
//   npx tsx scripts/tools/render-samples.ts
// Reads public/media/samples/*.jpg (see LICENSES.md there) and writes, per sample, the clean MP4,
// a poster JPEG (first frame) and samples.json describing them for the pages.
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { renderEmbedded, ffmpegPath } from '../../engines/video';
import type { VideoMode } from '../../src/lib/tool/video-modes';

const DIR = fileURLToPath(new URL('../../public/media/samples/', import.meta.url));

export const SAMPLES: { id: string; photo: string; mode: VideoMode; prompt: string; label: string; credit: string }[] = [
  { id: 'autumn-valley-cinematic', photo: 'autumn-valley.jpg', mode: 'cinematic', prompt: 'Slow cinematic pan right across the autumn valley', label: 'Autumn valley — cinematic pan', credit: 'Photo: Aitzol Berasategi, CC BY 4.0' },
  { id: 'spaniel-window-standard', photo: 'spaniel-window.jpg', mode: 'standard', prompt: 'The dog looks out of the window, soft afternoon light', label: 'Curious spaniel — gentle push-in', credit: 'Photo: Aitzol Berasategi, CC BY 4.0' },
  { id: 'fig-bowl-standard', photo: 'fig-bowl.jpg', mode: 'standard', prompt: 'Zoom in slowly on the ripe fig', label: 'Ripe fig — slow zoom', credit: 'Photo: Trevor "Freespace", CC BY 4.0' },
  { id: 'dandelion-meadow-cinematic', photo: 'dandelion-meadow.jpg', mode: 'cinematic', prompt: 'Pull back gently to reveal the meadow at golden hour', label: 'Dandelion meadow — cinematic reveal', credit: 'Photo: Clemens Engelhardt, CC0' },
  { id: 'mountain-sunset-cinematic', photo: 'mountain-sunset.jpg', mode: 'cinematic', prompt: 'Tilt up slowly toward the setting sun', label: 'Mountain sunset — cinematic tilt', credit: 'Photo: Aitzol Berasategi, CC BY 4.0' },
];

// Samples ship in the site bundle: a higher CRF and a slower preset keep each under ~1 MB.
const SAMPLE_ENCODE = { crf: 29, preset: 'medium' };

function poster(mp4: string, jpg: string): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile(ffmpegPath(), ['-v', 'error', '-y', '-i', mp4, '-frames:v', '1', '-q:v', '4', jpg], (err) => (err ? reject(err) : resolve())),
  );
}

export async function renderSamples(): Promise<void> {
  const manifest = [];
  for (const s of SAMPLES) {
    const started = performance.now();
    const image = await readFile(join(DIR, s.photo));
    const r = await renderEmbedded(image, { prompt: s.prompt, mode: s.mode, watermarkText: 'Lumora AI' }, SAMPLE_ENCODE);
    const video = `${s.id}.mp4`;
    const posterFile = `${s.id}-poster.jpg`;
    await writeFile(join(DIR, video), r.video);
    await poster(join(DIR, video), join(DIR, posterFile));
    manifest.push({ ...s, video, poster: posterFile, width: r.width, height: r.height, durationSeconds: r.durationSeconds, bytes: r.video.length });
    console.log(`${video}: ${r.width}x${r.height}, ${(r.video.length / 1024).toFixed(0)} KiB, ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  await writeFile(join(DIR, 'samples.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  renderSamples().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
