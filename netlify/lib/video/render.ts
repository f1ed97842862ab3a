import sharp, { type Sharp } from 'sharp';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watermarkOverlay } from '../media/watermark';
import { checkVideoInput, MAX_INPUT_PIXELS } from './input';
import { VIDEO_FPS, VIDEO_FRAMES, type VideoMode } from '../../../src/lib/tool/video-modes';
import { parseMotion, planCameraPath, type CameraPath } from './motion';
import { salientPoint } from './saliency';
import { baseRegion, outputSize } from './frame';
import { cameraFilter, cinematicFilter } from './filters';
import { abortError, runFfmpeg } from './ffmpeg';

export type RenderOptions = {
  prompt: string;
  mode: VideoMode;
  watermarkText: string;
  onProgress?: (p: number) => void;
  signal?: AbortSignal;
};

export type RenderResult = {
  video: Buffer;
  preview: Buffer;
  width: number;
  height: number;
  frames: number;
  durationSeconds: number;
};

/** Encoder knobs; the defaults are the production choice (see bench/video.ts). */
export type EncodeOptions = { crf?: number; previewCrf?: number; preset?: string };

export const DEFAULT_ENCODE: Required<EncodeOptions> = { crf: 22, previewCrf: 24, preset: 'superfast' };

export function x264Args(crf: number, preset: string, frames: number): string[] {
  return [
    '-c:v', 'libx264', '-preset', preset, '-crf', String(crf),
    '-pix_fmt', 'yuv420p', '-r', String(VIDEO_FPS), '-frames:v', String(frames),
    '-movflags', '+faststart', '-an',
  ];
}

// Working copies never need more than this many pixels on the long side: the output is 720p
// and the camera zooms at most ~1.5×.
const WORK_MAX = 2560;

/** The cinematic grade: a touch more contrast, warm highlights, cool shadows, slightly muted colour. */
function grade(img: Sharp): Sharp {
  return img.modulate({ saturation: 0.9 }).linear([1.1, 1.05, 0.94], [-10, -8, 4]);
}

type Prepared = { still: Buffer; width: number; height: number; path: CameraPath };

/** Decodes the upload once, finds the subject, plans the camera and renders the still ffmpeg animates. */
export async function prepareStill(image: Buffer, prompt: string, mode: VideoMode): Promise<Prepared> {
  checkVideoInput(image);
  const work = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
    .rotate() // honour EXIF orientation
    .resize(WORK_MAX, WORK_MAX, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { width: sw, height: sh } = work.info;
  const raw = { width: sw, height: sh, channels: work.info.channels };
  const motion = parseMotion(prompt);
  const { width, height, aspect } = outputSize(sw, sh);
  const needsFocus = motion.auto || Math.abs(sw / sh - aspect) > 0.01;
  const focusInPhoto = needsFocus ? await salientPoint(sharp(work.data, { raw })) : { x: 0.5, y: 0.5 };
  const region = baseRegion(sw, sh, aspect, focusInPhoto);
  // The salient point relative to the base frame the camera moves over.
  const focus = {
    x: (focusInPhoto.x * sw - region.left) / region.width,
    y: (focusInPhoto.y * sh - region.top) / region.height,
  };
  const path = planCameraPath(motion, VIDEO_FRAMES, focus);
  let still = sharp(work.data, { raw })
    .extract(region)
    .resize(width, height, { fit: 'fill', kernel: 'lanczos3' });
  if (mode === 'cinematic') still = grade(still);
  return { still: await still.raw().toBuffer(), width, height, path };
}

/** Renders the clean video and the watermarked preview in one ffmpeg process (split + overlay). */
export async function renderEmbedded(
  image: Buffer,
  opts: RenderOptions,
  encode: EncodeOptions = {},
): Promise<RenderResult> {
  const { crf, previewCrf, preset } = { ...DEFAULT_ENCODE, ...encode };
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw abortError(signal);
  onProgress?.(0);
  const { still, width, height, path } = await prepareStill(image, opts.prompt, opts.mode);
  const overlayPng = await watermarkOverlay(width, height, opts.watermarkText);
  if (signal?.aborted) throw abortError(signal);
  const overlay = await sharp(overlayPng).ensureAlpha().raw().toBuffer();
  onProgress?.(0.05);

  const dir = await mkdtemp(join(tmpdir(), 'lumora-video-'));
  try {
    const src = join(dir, 'still.rgb');
    const wm = join(dir, 'watermark.rgba');
    const cleanOut = join(dir, 'clean.mp4');
    const previewOut = join(dir, 'preview.mp4');
    await Promise.all([writeFile(src, still), writeFile(wm, overlay)]);
    const size = `${width}x${height}`;
    const look = opts.mode === 'cinematic' ? `,${cinematicFilter(width, height)}` : '';
    const graph =
      `[0:v]format=yuv420p,loop=loop=${VIDEO_FRAMES - 1}:size=1:start=0,settb=expr=1/${VIDEO_FPS},setpts=N,` +
      `${cameraFilter(path)}${look},split=2[clean][p];` +
      `[1:v]format=yuva420p[wm];[p][wm]overlay=0:0:format=yuv420[preview]`;
    await runFfmpeg(
      [
        '-loglevel', 'error', '-y',
        '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-video_size', size, '-framerate', String(VIDEO_FPS), '-i', src,
        '-f', 'rawvideo', '-pix_fmt', 'rgba', '-video_size', size, '-i', wm,
        '-filter_complex', graph,
        '-map', '[clean]', ...x264Args(crf, preset, VIDEO_FRAMES), cleanOut,
        '-map', '[preview]', ...x264Args(previewCrf, preset, VIDEO_FRAMES), previewOut,
      ],
      // Frames encoded drive 5 %..95 %; the faststart rewrite and file reads take the rest.
      { signal, onFrame: (n) => onProgress?.(0.05 + 0.9 * Math.min(1, n / VIDEO_FRAMES)) },
    );
    const [video, preview] = await Promise.all([readFile(cleanOut), readFile(previewOut)]);
    onProgress?.(1);
    return { video, preview, width, height, frames: VIDEO_FRAMES, durationSeconds: VIDEO_FRAMES / VIDEO_FPS };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
