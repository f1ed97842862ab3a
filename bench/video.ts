// The video engine's benchmark (`npm run bench -- video`, or `npx tsx bench/video.ts`), as JSON:
// - timing: a finished 5-s clip plus its watermarked preview at 720p and 1080p, standard and cinematic:
//   p50/p95 wall time, CPU seconds (this process and ffmpeg), peak RSS of both;
// - parallax: the share of tracked features whose motion departs by more than 8 px from the best single
//   camera move, layered against today's flat move, on the portrait fixture and on generated scenes, and
//   whether each scene's subject and background moved as the camera path says;
// - restoreFirst: a 1 MP old photo restored first, then the clip (the speed targets' case), per stage;
// - people: each public fixture with people, raw and restored first: depth, cue, parallax share, face, stage times;
// - restoredClipDamage: on those clips' first frames, the fixtures' damage-removal score beside the image engine's
//   own figure for the restored still, the raw clip's and the upload merely resampled (bench/video/damage.ts);
// - fallback: on the old-photo fixtures, which photos got layers and which the flat move, and why.
// The machine's load average is reported before and after: timings on a shared machine are noisy.
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderEmbedded, prepareStill, DEFAULT_ENCODE, type RenderResult, buildScene } from '../engines/video';
import type { VideoMode, VideoResolution } from '../src/lib/tool/video-modes';
import { makeScene, sceneMask, type SceneKind } from '../tests/support/video-scenes';
import { clipTracks, followsPath, groupMoves, parallaxShare } from '../tests/support/video-measure';
import { FIXTURES } from './image';
import { cpuClock, hostLoad as load, quantile } from './timing';
import { childCpuSeconds, rssWithChildren } from './video/process';
import { measureClip, peopleClips, type FixtureClip } from './video/people';
import { restoredClipDamage } from './video/damage';

const round = (v: number, digits = 3) => Number(v.toFixed(digits));

async function timing(image: Buffer, resolution: VideoResolution, mode: VideoMode, runs: number, parallax = true) {
  const times: number[] = [];
  const cpu: number[] = [];
  let peak = 0;
  let depth: RenderResult['depth'];
  const timer = setInterval(() => (peak = Math.max(peak, rssWithChildren())), 50);
  for (let i = 0; i < runs; i++) {
    const ownCpu = cpuClock();
    const children = childCpuSeconds();
    const t = performance.now();
    const prompt = i % 2 ? 'pan left' : 'zoom in slowly';
    const result = await renderEmbedded(image, { prompt, mode, resolution, watermarkText: 'Lumora AI' }, { parallax });
    times.push(performance.now() - t);
    cpu.push(ownCpu() / 1000 + childCpuSeconds() - children);
    depth = result.depth;
  }
  clearInterval(timer);
  return { runs, p50Ms: Math.round(quantile(times, 0.5)), p95Ms: Math.round(quantile(times, 0.95)), cpuSecondsP50: round(quantile(cpu, 0.5), 2), peakRssMiB: Math.round(peak), depth: depth?.mode };
}

/** Layered against flat on one photo and prompt: the departing share of each. */
async function share(image: Buffer, prompt: string) {
  const layered = await renderEmbedded(image, { prompt, mode: 'standard', watermarkText: 'Lumora AI' });
  const flat = await renderEmbedded(image, { prompt, mode: 'standard', watermarkText: 'Lumora AI' }, { parallax: false });
  const [a, b] = [await clipTracks(layered.video, layered.width, layered.height), await clipTracks(flat.video, flat.width, flat.height)];
  return { prompt, depth: layered.depth, tracks: a.start.length, departingShare: round(parallaxShare(a)), flatDepartingShare: round(parallaxShare(b)) };
}

async function portraits(quick: boolean) {
  const dir = path.join(FIXTURES, 'truth');
  if (!existsSync(path.join(dir, 'flower_hat.png'))) return { skipped: `no portrait fixture at ${dir}` };
  const out: Record<string, unknown>[] = [];
  const photos = [['flower_hat (clean colour)', path.join(dir, 'flower_hat.png')], ['flower_hat (old greyscale input)', path.join(FIXTURES, 'input', 'flower_hat.jpg')]];
  for (const [name, file] of photos) {
    const image = await sharp(file!).jpeg({ quality: 95 }).toBuffer();
    for (const prompt of quick ? ['a gentle cinematic move'] : ['a gentle cinematic move', 'zoom in slowly', 'pan right']) out.push({ photo: name, ...(await share(image, prompt)) });
  }
  return out;
}

async function scenes(quick: boolean) {
  const kinds: SceneKind[] = quick ? ['portrait'] : ['portrait', 'object', 'figure'];
  const prompts = quick ? ['zoom in slowly', 'pan left'] : ['a gentle move', 'zoom in slowly', 'zoom out', 'pan left', 'pan right', 'tilt up', 'tilt down'];
  const out: Record<string, unknown>[] = [];
  for (const kind of kinds) {
    const scene = await makeScene(kind, 1600, 1200);
    for (const prompt of prompts) {
      const result = await renderEmbedded(scene.jpeg, { prompt, mode: 'standard', watermarkText: 'Lumora AI' });
      const tracks = await clipTracks(result.video, result.width, result.height);
      const entry: Record<string, unknown> = { scene: kind, prompt, departingShare: round(parallaxShare(tracks)), depth: result.depth };
      if (result.depth?.mode === 'parallax') {
        const truth = await sceneMask(scene, result.width, result.height);
        const { path: camera } = await prepareStill(scene.jpeg, prompt, 'standard');
        const moves = groupMoves(tracks, truth, camera, result.width, result.height);
        const roundMove = (m: { scale: number; dx: number; dy: number }) => ({ scale: round(m.scale, 4), dx: round(m.dx, 1), dy: round(m.dy, 1) });
        entry.subject = { tracks: moves.subject.count, ...roundMove(moves.subject.move) };
        entry.background = { tracks: moves.background.count, ...roundMove(moves.background.move) };
        entry.asPath = followsPath(moves, camera, result.depth.factors, result.width, result.height);
      }
      out.push(entry);
    }
  }
  return out;
}

/** Which fixtures get layers (analysis only, no encode), for the default automatic move. */
async function fallback() {
  const out: Record<string, { layered: string[]; flat: Record<string, string> }> = {};
  for (const set of ['input', 'truth']) {
    const dir = path.join(FIXTURES, set);
    if (!existsSync(dir)) continue;
    const layered: string[] = [];
    const flat: Record<string, string> = {};
    for (const file of readdirSync(dir).sort()) {
      const image = await sharp(path.join(dir, file)).jpeg({ quality: 95 }).toBuffer();
      const { still, width, height, path: camera } = await prepareStill(image, 'a gentle cinematic move', 'standard');
      const decision = await buildScene(still, width, height, camera);
      const name = file.replace(/\.\w+$/, '');
      if (decision.scene) layered.push(name);
      else flat[name] = decision.reason;
    }
    out[set] = { layered, flat };
  }
  const counts = Object.values(out).map((s) => [s.layered.length, Object.keys(s.flat).length]);
  const total = counts.reduce((t, [a, b]) => t + a! + b!, 0);
  const flatCount = counts.reduce((t, [, b]) => t + b!, 0);
  return total ? { fallbackRate: round(flatCount / total), ...out } : { skipped: `no fixtures at ${FIXTURES}` };
}

/**
 * The speed targets' case: a 1 MP old (greyscale) photo restored and colorized first, then the vision models,
 * layers, frames and encode, at 720p and 1080p: p50 wall and CPU (ffmpeg's included), peak RSS, the stages of the median run.
 */
async function restoredSpeed(runs: number) {
  const photo = await sharp((await makeScene('portrait', 1224, 816)).jpeg).greyscale().jpeg({ quality: 90 }).toBuffer();
  const out: Record<string, unknown> = {};
  for (const resolution of ['720p', '1080p'] as const) {
    const runsOut: Awaited<ReturnType<typeof measureClip>>[] = [];
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, rssWithChildren())), 50);
    for (let i = 0; i < runs; i++) runsOut.push(await measureClip(photo, true, i % 2 ? 'pan left' : 'zoom in slowly', resolution));
    clearInterval(timer);
    const byWall = [...runsOut].sort((a, b) => a.total.wallMs - b.total.wallMs);
    const median = byWall[Math.floor((byWall.length - 1) / 2)]!;
    out[resolution] = {
      runs,
      p50Ms: Math.round(quantile(runsOut.map((r) => r.total.wallMs), 0.5)),
      cpuP50Ms: Math.round(quantile(runsOut.map((r) => r.total.cpuMs), 0.5)),
      peakRssMiB: Math.round(peak),
      depth: median.result.depth?.mode,
      medianRunStages: median.stages,
    };
  }
  return { input: '1224×816 greyscale JPEG (generated portrait), restored and colorized first', ...out };
}

export async function benchVideo({ runs = 5, quick = false } = {}) {
  const loadBefore = load();
  const photo = (await makeScene('portrait', 3000, 2000)).jpeg;
  const results: Record<string, unknown> = {};
  for (const resolution of ['720p', '1080p'] as const) {
    for (const mode of ['standard', 'cinematic'] as const) results[`${resolution} ${mode}`] = await timing(photo, resolution, mode, runs);
  }
  // The same clip with the flat move, under the same load: what the layers cost.
  results['720p standard, flat move'] = await timing(photo, '720p', 'standard', runs, false);
  const restoreFirst = await restoredSpeed(quick ? 2 : 3);
  const clips: FixtureClip[] = [];
  const people = await peopleClips(FIXTURES, (clip) => clips.push(clip));
  const restoredDamage = await restoredClipDamage(FIXTURES, clips);
  clips.length = 0;
  const parallax = { portrait: await portraits(quick), generated: await scenes(quick) };
  return {
    name: 'video',
    input: 'generated 3000×2000 JPEG portrait (a sitter over a textured background) → 1280×720 or 1920×1080, 150 frames + 720p preview; prompts alternate "zoom in slowly" and "pan left"',
    encode: DEFAULT_ENCODE,
    cpus: os.cpus().length,
    loadBefore,
    timing: results,
    loadAfterTiming: load(),
    restoreFirst,
    people,
    restoredClipDamage: restoredDamage,
    parallax,
    fallback: await fallback(),
    loadAfter: load(),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  benchVideo({ quick: process.argv.includes('--quick') }).then((r) => console.log(JSON.stringify(r, null, 2)));
}
