// The people fixtures through the whole clip, raw and restored first: how the clip was made (depth mode, cue,
// what was found), its parallax share on the clean file, whether a face was found (and facing the camera), and
// each stage's wall and CPU time — the tab's defaults (their own request, outside the job's total), restore (the
// image engine, for the restored run), then the render's own stages (decode, vision, layers, render, encode;
// ffmpeg's CPU beside the encode).
import path from 'node:path';
import sharp from 'sharp';
import { existsSync } from 'node:fs';
import { renderEmbedded, type RenderResult, restoreFirst } from '../../engines/video';
import { videoDefaults } from '../../netlify/lib/tool/video-source';
import { DEFAULTS_UPLOAD_SIDE } from '../../src/lib/tool/constants';
import { clipTracks, parallaxShare } from '../../tests/support/video-measure';
import { cpuClock } from '../timing';
import { childCpuSeconds } from './process';

/** The public fixtures with people in them (their manifest's `people` category). */
export const PEOPLE_FIXTURES = ['flower_hat', 'polynesian_dancers', 'street_scene'] as const;

/** The move every people clip is rendered with: the default automatic one (its first frame shows the whole still). */
export const PEOPLE_PROMPT = 'a gentle cinematic move';

const round = (v: number, digits = 3) => Number(v.toFixed(digits));

type Stage = { wallMs: number; cpuMs: number };

/**
 * One photo's bytes as the product makes its clip: the tab's defaults first (their own request, while the buyer
 * chooses; timed as `defaults`, outside the job's total), then the job: an optional restore-first and the render,
 * given the defaults' detector boxes as the deployed video function is.
 */
export async function measureClip(photo: Buffer, restored: boolean, prompt = PEOPLE_PROMPT, resolution: '720p' | '1080p' = '720p') {
  const stages: Record<string, Stage> = {};
  const [t0, c0] = [performance.now(), cpuClock()];
  // The reduced copy the browser sends (api.ts reducedCopy: upright, JPEG at 0.9).
  const copy = await sharp(photo).rotate().resize(DEFAULTS_UPLOAD_SIDE, DEFAULTS_UPLOAD_SIDE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 90 }).toBuffer();
  const { subjects } = await videoDefaults(copy);
  const defaults = { wallMs: Math.round(performance.now() - t0), cpuMs: Math.round(c0()) };
  const wall = performance.now();
  const cpu = cpuClock();
  const children = childCpuSeconds();
  let still = photo;
  if (restored) {
    const [t, c] = [performance.now(), cpuClock()];
    still = (await restoreFirst(photo, undefined, subjects)).image;
    stages.restore = { wallMs: Math.round(performance.now() - t), cpuMs: Math.round(c()) };
  }
  const result = await renderEmbedded(still, { prompt, mode: 'standard', resolution, watermarkText: 'Lumora AI', animateFaces: true, subjects });
  const total = { wallMs: Math.round(performance.now() - wall), cpuMs: Math.round(cpu() + (childCpuSeconds() - children) * 1000) };
  Object.assign(stages, result.timings, { defaults });
  stages.encode = { ...stages.encode!, ffmpegCpuMs: Math.round((childCpuSeconds() - children) * 1000) } as Stage;
  return { result, stages, total, still };
}

/** One fixture's clip as the people measure rendered it: the still it animated (restored or the upload) and the render. */
export type FixtureClip = { photo: string; restored: boolean; still: Buffer; result: RenderResult };

/** `onClip` gets each clip rendered, so other measures can reuse the renders. */
export async function peopleClips(fixtures: string, onClip?: (clip: FixtureClip) => void) {
  if (!existsSync(path.join(fixtures, 'input', 'flower_hat.jpg'))) return { skipped: `no fixtures at ${fixtures}` };
  const out: Record<string, unknown>[] = [];
  for (const name of PEOPLE_FIXTURES) {
    const photo = await sharp(path.join(fixtures, 'input', `${name}.jpg`)).jpeg({ quality: 95 }).toBuffer();
    for (const restored of [false, true]) {
      const { result, stages, total, still } = await measureClip(photo, restored);
      onClip?.({ photo: name, restored, still, result });
      const tracks = await clipTracks(result.video, result.width, result.height);
      const faces = result.faces;
      out.push({
        photo: name,
        run: restored ? 'restored first' : 'raw',
        depth: result.depth,
        parallaxShare: round(parallaxShare(tracks)),
        tracks: tracks.start.length,
        // Per face: the reason it stays still, or how it moves (the share of the turn and nod, and whether it blinks).
        face: faces
          ? {
              found: faces.found,
              animated: faces.animated,
              ...(faces.error && { error: faces.error }),
              decisions: faces.decisions.map((d) => (d.animated ? `animated at ${d.scale} of the turn, ${d.blink ? 'with' : 'without'} the blink` : d.reason)),
            }
          : { found: 0 },
        stages,
        total,
      });
    }
  }
  return out;
}
