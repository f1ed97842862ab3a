// The hosted engine's clip made ready to sell: the clean file as the site serves it and its watermarked preview.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FfmpegError, runFfmpeg } from './ffmpeg';
import { DEFAULT_ENCODE, x264Args } from './encode';
import type { RenderResult } from './render';
import { parseStreamInfo, previewEncodeArgs, videoPreviewPass, videoPreviewSeed, type StreamInfo } from './preview';

/**
 * For videos made elsewhere (the hosted engine): returns the clean video (remuxed with faststart, or re-encoded
 * to H.264/yuv420p if needed) plus the watermarked 480p preview (videoPreviewPass), in one ffmpeg run. The
 * hosted engine's own file is only ever the clean result: stored privately and served after purchase.
 */
export async function finishHostedVideo(
  mp4: Buffer,
  watermarkText: string,
  opts: { signal?: AbortSignal; onProgress?: (p: number) => void; watermarkSeed?: number; maxSeconds?: number } = {},
): Promise<RenderResult> {
  const dir = await mkdtemp(join(tmpdir(), 'lumora-hosted-'));
  try {
    const input = join(dir, 'input.mp4');
    await writeFile(input, mp4);
    const probed = await probe(input, opts.signal);
    // A longer clip is cut to `maxSeconds` (reading stops there: the clean file and the preview both end there).
    const trim = opts.maxSeconds && probed.duration > opts.maxSeconds + 0.01 ? opts.maxSeconds : 0;
    const info = trim ? { ...probed, duration: trim } : probed;
    // 4:2:0 needs even dimensions; crop the odd row/column if a model returns one.
    const width = info.width - (info.width % 2);
    const height = info.height - (info.height % 2);
    const pass = await videoPreviewPass(dir, { width, height }, { text: watermarkText, seed: videoPreviewSeed(opts.watermarkSeed), firstInput: 1, source: '[p]' });
    const expected = Math.max(1, Math.round(info.duration * info.fps));
    const copy = info.codec === 'h264' && info.pixFmt === 'yuv420p' && width === info.width && height === info.height;
    const clean = join(dir, 'clean.mp4');
    const preview = join(dir, 'preview.mp4');
    const { crf, previewCrf, preset } = DEFAULT_ENCODE;
    // Both files end on the same frame when trimmed (a stream copy would otherwise keep the packet that straddles it).
    const cut = trim ? ['-frames:v', String(expected)] : [];
    let frames = 0;
    await runFfmpeg(
      [
        '-loglevel', 'error', '-y', ...(trim ? ['-t', String(trim)] : []), '-i', input,
        ...pass.inputs,
        '-filter_complex',
        `[0:v]crop=${width}:${height}:0:0,format=yuv420p${copy ? '[p]' : ',split=2[clean][p]'};${pass.filter}`,
        ...(copy ? ['-map', '0:v:0', '-c', 'copy', ...cut, '-movflags', '+faststart', '-an', clean] : ['-map', '[clean]', ...x264Args({ crf, preset }), ...cut, clean]),
        '-map', '[preview]', ...previewEncodeArgs({ crf: previewCrf, preset }), ...cut, preview,
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
