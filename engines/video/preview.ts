import sharp from 'sharp';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { watermarkCoverage, watermarkOverlay, watermarkSeed } from '../shared';
import { WATERMARK } from '../../src/lib/watermark-spec';
import { PREVIEW_SHORT_SIDE } from '../../src/lib/tool/video-modes';
import { x264Args } from './encode';
import { scaledSize } from './frame';

/**
 * The watermarked preview of a video, for both engines (the embedded renderer and the hosted engine's
 * finishing pass), as one branch of the ffmpeg graph that also writes the clean file:
 * - at PREVIEW_SHORT_SIDE (480p), below the cheapest paid file (720p), and at most two thirds of the clean
 *   file's short side (previewSize), with a capped bitrate;
 * - the pixels under the letters destroyed before the letters go on, as on image previews: replaced by the
 *   mean of their square plus grain drawn afresh on every frame (`WATERMARK.videoDestroy`), so solving the
 *   known overlay `(p − 255α)/(1 − α)` gives back that noisy coarse copy, not the frames;
 * - the layout (angle, spacing, offset, centre line) and the grain seeded per item with APP_SECRET
 *   (`watermarkSeed`), unknown to anyone without the secret.
 */
export const VIDEO_PREVIEW_BITRATE = { maxrate: '1M', bufsize: '2M' } as const;

/**
 * The preview's size: a short side of PREVIEW_SHORT_SIDE, and never more than two thirds of the clean file's
 * (a hosted model may itself deliver 480p or less), so the preview is always smaller than what is bought.
 */
export function previewSize(clean: { width: number; height: number }): { width: number; height: number } {
  const short = Math.min(clean.width, clean.height);
  return scaledSize(clean.width, clean.height, Math.min(PREVIEW_SHORT_SIDE, Math.floor((short * 2) / 3)));
}

export interface PreviewPass {
  /** ffmpeg input arguments for the overlay and the mask (append after the graph's other inputs). */
  inputs: string[];
  /** The graph's preview branch: reads `source` (a label such as `[p]`), ends in `[preview]`. */
  filter: string;
  width: number;
  height: number;
}

/** The 4:2:0 mask of the marked pixels: 255 where the watermark covers anything (chroma: any of its 2×2). */
function markedMask(cover: Uint8Array, width: number, height: number): Buffer {
  const cw = width / 2;
  const ch = height / 2;
  const out = Buffer.alloc(width * height + 2 * cw * ch);
  for (let i = 0; i < cover.length; i++) if (cover[i]! > 0) out[i] = 255;
  const u = width * height;
  for (let y = 0; y < ch; y++) {
    for (let x = 0; x < cw; x++) {
      const i = 2 * y * width + 2 * x;
      const any = cover[i]! | cover[i + 1]! | cover[i + width]! | cover[i + width + 1]!;
      if (any > 0) out[u + y * cw + x] = out[u + cw * ch + y * cw + x] = 255;
    }
  }
  return out;
}

/**
 * Writes the preview pass's overlay and mask into `dir` and returns its inputs and filter, for a clean video
 * of `clean` size. `firstInput` is the index the overlay gets among ffmpeg's inputs (the mask follows it).
 */
export async function videoPreviewPass(
  dir: string,
  clean: { width: number; height: number },
  opts: { text: string; seed: number; firstInput: number; source: string },
): Promise<PreviewPass> {
  const { width, height } = previewSize(clean);
  const cover = await watermarkCoverage(width, height, opts.text, opts.seed);
  const overlay = await sharp(await watermarkOverlay(width, height, opts.text, opts.seed)).ensureAlpha().raw().toBuffer();
  const wm = join(dir, 'preview-watermark.rgba');
  const mask = join(dir, 'preview-mask.yuv');
  await Promise.all([writeFile(wm, overlay), writeFile(mask, markedMask(cover, width, height))]);
  const { cellShare, grain } = WATERMARK.videoDestroy;
  const cell = Math.max(4, Math.round(Math.min(width, height) * cellShare));
  const coarse = { width: Math.max(1, Math.round(width / cell)), height: Math.max(1, Math.round(height / cell)) };
  const raw = (pixFmt: string) => ['-f', 'rawvideo', '-pix_fmt', pixFmt, '-video_size', `${width}x${height}`];
  const [w, m] = [opts.firstInput, opts.firstInput + 1];
  const filter =
    `${opts.source}scale=${width}:${height}:flags=bicubic,format=yuv420p,split=2[pv_base][pv_src];` +
    `[pv_src]scale=${coarse.width}:${coarse.height}:flags=area,scale=${width}:${height}:flags=neighbor,` +
    `noise=all_seed=${opts.seed & 0x7fffffff}:alls=${grain}:allf=t+u[pv_coarse];` +
    // A single-frame mask and overlay hold for every frame (the filters repeat their last frame).
    `[pv_base][pv_coarse][${m}:v]maskedmerge[pv_hidden];` +
    `[${w}:v]format=yuva420p[pv_wm];[pv_hidden][pv_wm]overlay=0:0:format=yuv420[preview]`;
  return { inputs: [...raw('rgba'), '-i', wm, ...raw('yuv420p'), '-i', mask], filter, width, height };
}

/** The preview's x264 arguments: the clean file's encoder at the preview's quality, its bitrate capped. */
export function previewEncodeArgs(opts: { crf: number; preset: string; fps?: number; frames?: number }): string[] {
  return [...x264Args(opts), '-maxrate', VIDEO_PREVIEW_BITRATE.maxrate, '-bufsize', VIDEO_PREVIEW_BITRATE.bufsize];
}

/** The seed of a video's preview: the item's, else (samples, benches) a fixed one of the site's secret. */
export const videoPreviewSeed = (seed: number | undefined) => seed ?? watermarkSeed('video-preview');


export type StreamInfo = { codec: string; pixFmt: string; width: number; height: number; fps: number; duration: number };

/** Reads the first video stream's basics from ffmpeg's input banner (no ffprobe in production). */
export function parseStreamInfo(banner: string): StreamInfo | null {
  const v = /Stream #\d+:\d+.*?: Video: (\w+)[^,]*, (\w+)[^,]*?(?:\([^)]*\))?,.*?(\d{2,5})x(\d{2,5})/.exec(banner);
  if (!v) return null;
  const fps = /, ([\d.]+) fps/.exec(banner);
  const d = /Duration: (\d+):(\d+):([\d.]+)/.exec(banner);
  return {
    codec: v[1],
    pixFmt: v[2],
    width: Number(v[3]),
    height: Number(v[4]),
    fps: fps ? Number(fps[1]) : 30,
    duration: d ? Number(d[1]) * 3600 + Number(d[2]) * 60 + Number(d[3]) : 0,
  };
}

