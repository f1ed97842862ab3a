/**
 * `npm run bench -- outputs`: the engines' exact outputs on the public photo fixtures, as MD5 sums. A refactor that
 * must not change behaviour (moving files, new public faces) is checked by running this before and after and
 * comparing the two documents: every restored image and every clip (clean and preview) must be byte-identical.
 * Runs through the engines' public faces only, with the built-in engines (hosted providers switched off here).
 * The fixtures are absent on a newcomer's clone (PHOTO_FIXTURES): then it says so and measures nothing.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { restoreAndColorize } from '../engines/image';
import { renderEmbedded } from '../engines/video';
import { FIXTURES } from './validation';

const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');

/** Clips are slow (tens of seconds each on two cores): two photos, one per motion mode, cover the video engine. */
const CLIPS = [
  { photo: 'street_scene.jpg', mode: 'standard', prompt: 'Slow zoom in on the street' },
  { photo: 'flower_hat.jpg', mode: 'cinematic', prompt: 'Gentle pan to the right' },
] as const;

export async function benchOutputs(opts: { clips?: boolean } = {}) {
  const inputDir = path.join(FIXTURES, 'input');
  if (!existsSync(inputDir)) return { skipped: `the photo fixtures are not at ${inputDir} (set PHOTO_FIXTURES=<folder>)` };
  // The built-in engines only: a configured hosted model would answer differently on every run.
  for (const key of ['REPLICATE_API_TOKEN', 'COLORIZER_ONNX_MODEL']) delete process.env[key];
  const images: Record<string, { md5: string; width: number; height: number; method: string }> = {};
  for (const name of readdirSync(inputDir).filter((f) => f.endsWith('.jpg')).sort()) {
    const out = await restoreAndColorize(readFileSync(path.join(inputDir, name)), { model: 'sd-xl' });
    images[name] = { md5: md5(out.image), width: out.width, height: out.height, method: out.method };
    console.error(`[outputs] ${name} ${images[name].md5}`);
  }
  const clips: Record<string, { video: string; preview: string; frames: number }> = {};
  if (opts.clips !== false) {
    for (const clip of CLIPS) {
      const out = await renderEmbedded(readFileSync(path.join(inputDir, clip.photo)), {
        prompt: clip.prompt,
        mode: clip.mode,
        resolution: '720p',
        watermarkText: 'PREVIEW',
        // A fixed seed: the preview's watermark layout and grain are otherwise drawn per item.
        watermarkSeed: 20261207,
      });
      clips[`${clip.photo} ${clip.mode}`] = { video: md5(out.video), preview: md5(out.preview), frames: out.frames };
      console.error(`[outputs] clip ${clip.photo} ${clips[`${clip.photo} ${clip.mode}`].video}`);
    }
  }
  return { fixtures: inputDir, images, clips };
}
