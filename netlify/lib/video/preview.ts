import sharp from 'sharp';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watermarkOverlay } from '../media/watermark';
import { FfmpegError, runFfmpeg } from './ffmpeg';
import { DEFAULT_ENCODE, x264Args } from './encode';
import type { RenderResult } from './render';

type StreamInfo = { codec: string; pixFmt: string; width: number; height: number; fps: number; duration: number };

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

async function probe(file: string, signal?: AbortSignal): Promise<StreamInfo> {
  // `ffmpeg -i file` with no output prints the banner and exits 1; that's expected here.
  const banner = await runFfmpeg(['-loglevel', 'info', '-i', file], { signal }).then(
    (r) => r.stderr,
    (err) => {
      if (err instanceof FfmpegError) return err.stderr;
      throw err;
    },
  );
  const info = parseStreamInfo(banner);
  if (!info) throw new Error('The video engine returned a file without a video stream');
  return info;
}

/**
 * For videos made elsewhere (the hosted engine): returns the clean video (remuxed with faststart,
 * or re-encoded to H.264/yuv420p if needed) plus the watermarked preview, in one ffmpeg run.
 */
export async function finishHostedVideo(
  mp4: Buffer,
  watermarkText: string,
  opts: { signal?: AbortSignal; onProgress?: (p: number) => void } = {},
): Promise<RenderResult> {
  const dir = await mkdtemp(join(tmpdir(), 'lumora-hosted-'));
  try {
    const input = join(dir, 'input.mp4');
    await writeFile(input, mp4);
    const info = await probe(input, opts.signal);
    // 4:2:0 needs even dimensions; crop the odd row/column if a model returns one.
    const width = info.width - (info.width % 2);
    const height = info.height - (info.height % 2);
    const overlay = await sharp(await watermarkOverlay(width, height, watermarkText)).ensureAlpha().raw().toBuffer();
    const wm = join(dir, 'watermark.rgba');
    await writeFile(wm, overlay);
    const expected = Math.max(1, Math.round(info.duration * info.fps));
    const copy = info.codec === 'h264' && info.pixFmt === 'yuv420p' && width === info.width && height === info.height;
    const clean = join(dir, 'clean.mp4');
    const preview = join(dir, 'preview.mp4');
    const { crf, previewCrf, preset } = DEFAULT_ENCODE;
    const encode = (q: number) => x264Args({ crf: q, preset });
    let frames = 0;
    await runFfmpeg(
      [
        '-loglevel', 'error', '-y', '-i', input,
        '-f', 'rawvideo', '-pix_fmt', 'rgba', '-video_size', `${width}x${height}`, '-i', wm,
        '-filter_complex',
        `[0:v]crop=${width}:${height}:0:0,format=yuv420p${copy ? '[p]' : ',split=2[clean][p]'};` +
          `[1:v]format=yuva420p[wm];[p][wm]overlay=0:0:format=yuv420[preview]`,
        ...(copy ? ['-map', '0:v:0', '-c', 'copy', '-movflags', '+faststart', '-an', clean] : ['-map', '[clean]', ...encode(crf), clean]),
        '-map', '[preview]', ...encode(previewCrf), preview,
      ],
      {
        signal: opts.signal,
        onFrame: (n) => {
          frames = n;
          opts.onProgress?.(Math.min(1, n / expected));
        },
      },
    );
    const [video, previewBuf] = await Promise.all([readFile(clean), readFile(preview)]);
    return { video, preview: previewBuf, width, height, frames: frames || expected, durationSeconds: info.duration };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
