// Whether a restored-first clip still shows the old photo's painted scratches: the first frame of the clean file,
// mapped back onto the photo (the camera's first window), scored with the fixtures' revised damage-removal score
// beside the image engine's own figure for the restored still it animates, the raw clip's first frame, and the
// upload merely resized to the clip's size and back: the last two say how much of a frame's "removal" is only
// the round trip through 720p (and x264) softening thin strokes, not the scratches being gone.
// Run alone: npx tsx bench/video/damage.ts [--all] (the people fixtures, or all 12), JSON.
import path from 'node:path';
import sharp from 'sharp';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { prepareStill, MAX_ASPECT, MIN_ASPECT } from '../../engines/video';
import { damageRemoval } from '../../tests/support/image-metrics';
import { fixtureCases, FIXTURES } from '../image';
import { rgbAt, type PhotoCase } from '../restoration';
import { decodeFrames } from '../../tests/support/video';
import { cpuClock } from '../timing';
import { childCpuSeconds } from './process';
import { measureClip, PEOPLE_FIXTURES, PEOPLE_PROMPT, type FixtureClip } from './people';

const round = (v: number, digits = 3) => Number(v.toFixed(digits));

/** How far (removal, 0..1) the clip's first frame may fall below the restored still's own figure: x264 and the 720p resampling. */
export const CLIP_REMOVAL_TOLERANCE = 0.02;

type Window = { left: number; top: number; width: number; height: number };

/** Interleaved pixels (`channels` per pixel) of a w-wide image inside `win`. */
function crop(data: Uint8Array, w: number, channels: number, win: Window): Uint8Array {
  const out = new Uint8Array(win.width * win.height * channels);
  for (let y = 0; y < win.height; y++) {
    const from = ((win.top + y) * w + win.left) * channels;
    out.set(data.subarray(from, from + win.width * channels), y * win.width * channels);
  }
  return out;
}

/**
 * The part of the photo the clip's first frame shows, in the photo's pixels: the camera path's first window
 * over the base frame, which is the whole photo when its aspect is within the output's limits (otherwise a crop
 * placed by the salient point, which this measure does not reconstruct: null).
 */
async function firstWindow(still: Buffer, c: PhotoCase): Promise<Window | null> {
  const aspect = c.width / c.height;
  if (aspect > MAX_ASPECT || aspect < MIN_ASPECT) return null;
  const { from } = (await prepareStill(still, PEOPLE_PROMPT, 'standard')).path;
  const left = Math.round(from.x * c.width), top = Math.round(from.y * c.height);
  return { left, top, width: Math.min(c.width - left, Math.round(from.w * c.width)), height: Math.min(c.height - top, Math.round(from.h * c.height)) };
}

/** Damage removal of a frame (RGB at width × height; resized onto the window it shows) against the photo's truth and damage mask. */
async function frameRemoval(frame: Uint8Array, width: number, height: number, c: PhotoCase, input: Uint8Array, win: Window): Promise<number> {
  const png = await sharp(frame, { raw: { width, height, channels: 3 } }).png().toBuffer();
  const out = await rgbAt(png, win.width, win.height);
  return damageRemoval(out, crop(input, c.width, 3, win), crop(c.truth, c.width, 3, win), crop(c.damage, c.width, 1, win), win.width, win.height).removal;
}

const firstFrame = (clip: FixtureClip) => decodeFrames(clip.result.video, { first: 0, count: 1, pixFmt: 'rgb24' });

/** The upload's window resized to the clip's size (as the still is) and back, no encode: what resampling alone scores. */
async function resampled(input: Uint8Array, c: PhotoCase, win: Window, width: number, height: number): Promise<Uint8Array> {
  return sharp(crop(input, c.width, 3, win), { raw: { width: win.width, height: win.height, channels: 3 } }).resize(width, height, { fit: 'fill', kernel: 'lanczos3' }).raw().toBuffer();
}

/**
 * Per photo: the image engine's removal on the restored still (`imageEngineRemoval`), on the restored-first
 * clip's first frame and on the raw clip's first frame. `clips` are renders to reuse (the people measure's);
 * the others are rendered here (720p, the default move).
 */
export async function restoredClipDamage(fixtures: string, clips: FixtureClip[] = [], names: readonly string[] = PEOPLE_FIXTURES) {
  if (!existsSync(path.join(fixtures, 'damage'))) return { skipped: `no damage masks at ${path.join(fixtures, 'damage')}: restored-first clips not scored` };
  const wall = performance.now();
  const cpu = cpuClock();
  const children = childCpuSeconds();
  const photos: Record<string, unknown> = {};
  for (const c of await fixtureCases([...names], { faces: false })) {
    const upload = await sharp(path.join(fixtures, 'input', `${c.name}.jpg`)).jpeg({ quality: 95 }).toBuffer();
    const clipOf = async (restored: boolean) =>
      clips.find((k) => k.photo === c.name && k.restored === restored) ?? { photo: c.name, restored, ...(await measureClip(upload, restored)) };
    const [restored, raw] = [await clipOf(true), await clipOf(false)];
    const input = await rgbAt(c.input, c.width, c.height);
    const win = await firstWindow(restored.still, c);
    if (!win) {
      photos[c.name] = { skipped: `aspect ${round(c.width / c.height, 2)} outside the output's limits: the first frame is a crop this measure does not map back` };
      continue;
    }
    const imageEngineRemoval = damageRemoval(await rgbAt(restored.still, c.width, c.height), input, c.truth, c.damage, c.width, c.height).removal;
    const { width, height } = restored.result;
    const clipFirstFrameRemoval = await frameRemoval(await firstFrame(restored), width, height, c, input, win);
    photos[c.name] = {
      imageEngineRemoval: round(imageEngineRemoval),
      clipFirstFrameRemoval: round(clipFirstFrameRemoval),
      rawClipFirstFrameRemoval: round(await frameRemoval(await firstFrame(raw), raw.result.width, raw.result.height, c, input, win)),
      inputResampledRemoval: round(await frameRemoval(await resampled(input, c, win, width, height), width, height, c, input, win)),
      clipSize: `${width}×${height}`,
      asImageEngine: clipFirstFrameRemoval >= imageEngineRemoval - CLIP_REMOVAL_TOLERANCE,
      window: win.width === c.width && win.height === c.height ? 'whole photo' : win,
    };
  }
  return {
    measure: `fixtures' revised damage-removal score (mask ≥ 64, residual / fitted slope) of the clean 720p file's first frame, resized onto the photo region it shows; asImageEngine: within ${CLIP_REMOVAL_TOLERANCE * 100} points of the restored still's own figure`,
    photos,
    // Renders reused from the people measure cost nothing here.
    wallMs: Math.round(performance.now() - wall),
    cpuMs: Math.round(cpu() + (childCpuSeconds() - children) * 1000),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dir = path.join(FIXTURES, 'input');
  const all = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.jpg')).map((f) => f.slice(0, -4)) : [];
  console.log(JSON.stringify(await restoredClipDamage(FIXTURES, [], process.argv.includes('--all') ? all : PEOPLE_FIXTURES), null, 2));
}
