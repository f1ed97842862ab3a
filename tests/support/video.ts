import sharp from 'sharp';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ffmpegPath } from '../../engines/video';
import type { Rgb } from '../../engines/video';
import { makeScene, sceneMask, type SceneKind } from './video-scenes';

const require = createRequire(import.meta.url);
export const FFPROBE: string = (require('@ffprobe-installer/ffprobe') as { path: string }).path;

function exec(bin: string, args: string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile(bin, args, { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 }, (err, stdout, stderr) =>
      err ? reject(new Error(`${err.message}\n${stderr.toString()}`)) : resolve(stdout),
    );
    // ffmpeg may stop reading once it has the frames it needs; that EPIPE is expected.
    child.stdin!.on('error', () => {});
    if (input) child.stdin!.end(input);
  });
}

export type Probe = {
  codec: string;
  pixFmt: string;
  width: number;
  height: number;
  frames: number;
  duration: number;
};

/** ffprobe on an in-memory MP4 (fed through stdin); counts decoded frames. */
export async function probe(mp4: Buffer): Promise<Probe> {
  const out = await exec(
    FFPROBE,
    ['-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries',
      'stream=codec_name,pix_fmt,width,height,nb_read_frames:format=duration', '-of', 'json', '-i', 'pipe:0'],
    mp4,
  );
  const j = JSON.parse(out.toString());
  const s = j.streams[0];
  return {
    codec: s.codec_name,
    pixFmt: s.pix_fmt,
    width: s.width,
    height: s.height,
    frames: Number(s.nb_read_frames),
    duration: Number(j.format.duration),
  };
}

/** Top-level MP4 box types in file order (e.g. ftyp, moov, mdat). */
export function topLevelBoxes(mp4: Buffer): string[] {
  const boxes: string[] = [];
  for (let i = 0; i + 8 <= mp4.length; ) {
    let size = mp4.readUInt32BE(i);
    const type = mp4.toString('latin1', i + 4, i + 8);
    if (size === 1) size = Number(mp4.readBigUInt64BE(i + 8));
    else if (size === 0) size = mp4.length - i;
    boxes.push(type);
    if (size < 8) break;
    i += size;
  }
  return boxes;
}

/** Decodes frames [first, first+count) to raw pixels (rgb24 or gray), optionally cropped first. */
export async function decodeFrames(
  mp4: Buffer,
  opts: { first?: number; count?: number; pixFmt?: 'rgb24' | 'gray'; crop?: string } = {},
): Promise<Buffer> {
  const { first = 0, count = 1, pixFmt = 'rgb24', crop } = opts;
  const vf = [`select='between(n\\,${first}\\,${first + count - 1})'`, ...(crop ? [`crop=${crop}`] : [])].join(',');
  return exec(
    ffmpegPath(),
    ['-v', 'error', '-i', 'pipe:0', '-vf', vf, '-vsync', '0', '-frames:v', String(count), '-f', 'rawvideo', '-pix_fmt', pixFmt, 'pipe:1'],
    mp4,
  );
}

/** A photo-like test image: smooth gradient plus texture, JPEG-encoded. */
export async function texturedImage(width: number, height: number, extraSvg = ''): Promise<Buffer> {
  const dots = Array.from({ length: 120 }, (_, i) => {
    const x = (i * 193) % width;
    const y = (i * 131) % height;
    return `<circle cx="${x}" cy="${y}" r="${4 + (i % 9)}" fill="hsl(${(i * 37) % 360},60%,55%)"/>`;
  }).join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <defs><linearGradient id="g" x1="0" x2="1" y1="0" y2="1"><stop offset="0" stop-color="#8fb3d9"/><stop offset="1" stop-color="#e6c79c"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#g)"/>${dots}${extraSvg}</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** Live ffmpeg children of this test process (zombies excluded). */
export function ffmpegChildren(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const m = /^\d+ \((.*)\) (\S) (\d+)/.exec(stat);
      if (m && m[1] === 'ffmpeg' && m[2] !== 'Z' && Number(m[3]) === process.pid) pids.push(Number(entry));
    } catch {
      /* process ended while scanning */
    }
  }
  return pids;
}

/** A generated scene at working size (drawn at twice the size, then reduced) and its subject's true mask. */
export async function sceneAt(kind: SceneKind, width: number, height: number, seed = 7): Promise<{ image: Rgb; truth: Uint8Array }> {
  const scene = await makeScene(kind, width * 2, height * 2, seed);
  const data = await sharp(scene.jpeg).resize(width, height).raw().toBuffer();
  return { image: { data, width, height }, truth: await sceneMask(scene, width, height) };
}
