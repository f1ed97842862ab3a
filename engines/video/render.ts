import sharp, { type Sharp } from 'sharp';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkVideoInput, MAX_INPUT_PIXELS } from './input';
import {
  DEFAULT_VIDEO_RESOLUTION,
  RESOLUTION_SHORT_SIDE,
  VIDEO_FPS,
  VIDEO_FRAMES,
  type VideoMode,
  type VideoResolution,
} from '../../src/lib/tool/video-modes';
import { parseMotion, planCameraPath, type CameraPath } from './motion';
import { salientPoint } from './saliency';
import { baseRegion, outputSize } from './frame';
import { cinematicFilter } from './filters';
import { abortError, runFfmpeg, writeFrames } from './ffmpeg';
import { DEFAULT_ENCODE, x264Args, type EncodeOptions } from './encode';
import { rgbToYuv420 } from './yuv';
import { previewEncodeArgs, videoPreviewPass, videoPreviewSeed } from './preview';
import { FrameComposer } from './compose';
import { buildScene } from './parallax/scene';
import { SubjectRenderer } from './parallax/subject-layer';
import { FLAT, Motion, type Depth } from './parallax/plan';
import type { SubjectCue } from './layers/subject';
import type { Box, PhotoAnalysis } from '../vision';
import { fromShares } from '../vision';
import type { DetectedSubject } from '../../src/lib/tool/video-schema';
import { animateFaces, type FacesReport } from './faces';

export { DEFAULT_ENCODE, type EncodeOptions } from './encode';

export type RenderOptions = {
  prompt: string;
  mode: VideoMode;
  /** The clean file's size; the preview is 480p whatever is chosen (preview.ts). Default 720p. */
  resolution?: VideoResolution;
  watermarkText: string;
  /** Faces large enough and facing the camera turn, nod and blink a little ("Bring faces to life"). Default on. */
  animateFaces?: boolean;
  /**
   * The object detector's boxes on the photo (shares of the upright photo, from the tab's defaults): the subject
   * layer's animals and objects, and small figures' crops, where this function does not ship the detector.
   */
  subjects?: DetectedSubject[];
  /** The item's watermark seed (`watermarkSeed(id)`): its preview's layout and grain. */
  watermarkSeed?: number;
  onProgress?: (p: number) => void;
  signal?: AbortSignal;
};

/** How the clip was made, for the job's record: layered parallax (what found the subject, and what it is), or the flat move and why. */
export type DepthReport =
  | { mode: 'parallax'; cue: SubjectCue; found?: string; subjectArea: number; factors: Depth }
  | { mode: 'flat'; reason: string };

/** The embedded render's stages: wall and this process's CPU milliseconds (ffmpeg's own CPU is not in `encode`). */
export type RenderStage = 'decode' | 'vision' | 'layers' | 'render' | 'encode';
export type RenderTimings = Partial<Record<RenderStage, { wallMs: number; cpuMs: number }>>;

export type RenderResult = {
  video: Buffer;
  preview: Buffer;
  width: number;
  height: number;
  frames: number;
  durationSeconds: number;
  /** Set by the embedded engine. */
  depth?: DepthReport;
  /** Set by the embedded engine. */
  timings?: RenderTimings;
  /** The vision models' answer on the still for the layers (coordinates in `vision.width` × `vision.height`), when they ran. */
  vision?: PhotoAnalysis;
  /** Set by the embedded engine when faces were looked for: which move and why the others do not. */
  faces?: FacesReport;
};

/** Encoder settings plus whether to look for layers at all (off: today's flat move, for comparisons). */
export type RenderTuning = EncodeOptions & { parallax?: boolean };

// Working copies never need more than this many pixels on the long side: the output is at most 1080p
// and the camera zooms at most ~1.5×.
const WORK_MAX = 2560;

/** The cinematic grade: a touch more contrast, warm highlights, cool shadows, slightly muted colour. */
function grade(img: Sharp): Sharp {
  return img.modulate({ saturation: 0.9 }).linear([1.1, 1.05, 0.94], [-10, -8, 4]);
}

/** The still and, for boxes found on the photo, the part of it the still shows (shares of the photo). */
type Prepared = { still: Buffer; width: number; height: number; path: CameraPath; shown: Box };

/** Decodes the upload once, finds the focus, plans the camera and renders the still (RGB, output size). */
export async function prepareStill(
  image: Buffer,
  prompt: string,
  mode: VideoMode,
  resolution: VideoResolution = DEFAULT_VIDEO_RESOLUTION,
): Promise<Prepared> {
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
  const { width, height, aspect } = outputSize(sw, sh, RESOLUTION_SHORT_SIDE[resolution]);
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
  const shown = { x: region.left / sw, y: region.top / sh, width: region.width / sw, height: region.height / sh };
  return { still: await still.raw().toBuffer(), width, height, path, shown };
}

/** The filtergraph over the composed frames: the look, then the clean output and the preview's branch. */
function filterGraph(mode: VideoMode, size: { width: number; height: number }, previewFilter: string): string {
  const look = mode === 'cinematic' ? `${cinematicFilter(size.width, size.height)},` : '';
  return `[0:v]settb=expr=1/${VIDEO_FPS},setpts=N,${look}split=2[clean][p];${previewFilter}`;
}

/**
 * Renders the clean video and the watermarked preview in one ffmpeg process. With a clear subject the photo
 * is split into a subject layer (rendered here, frame by frame, into ffmpeg's stdin) over a filled background
 * (moved by ffmpeg), each following the camera path with its own parallax; otherwise the flat move.
 */
export async function renderEmbedded(image: Buffer, opts: RenderOptions, tuning: RenderTuning = {}): Promise<RenderResult> {
  const { crf, previewCrf, preset } = { ...DEFAULT_ENCODE, ...tuning };
  const { signal, onProgress } = opts;
  if (signal?.aborted) throw abortError(signal);
  onProgress?.(0);
  const lap = stageClock();
  const { still, width, height, path, shown } = await prepareStill(image, opts.prompt, opts.mode, opts.resolution);
  lap('decode');
  const known = opts.subjects && { subjects: opts.subjects, shown };
  const vision = tuning.parallax === false && !opts.animateFaces ? undefined : await visionOf(still, width, height, known);
  lap('vision');
  const decision = tuning.parallax === false ? { scene: null, reason: 'parallax off' } : await buildScene(still, width, height, path, vision);
  lap('layers');
  const scene = decision.scene;
  // The face motion finds its faces itself (the vision module's face models); its time is the vision stage's.
  const faces = opts.animateFaces === false ? null : await animateFaces(still, width, height, path, VIDEO_FPS);
  lap('vision');
  if (signal?.aborted) throw abortError(signal);

  const frameTime = { wallMs: 0, cpuMs: 0 };
  const framing = (draw: () => void) => {
    const [t, c] = [performance.now(), process.cpuUsage()];
    draw();
    frameTime.wallMs += performance.now() - t;
    const used = process.cpuUsage(c);
    frameTime.cpuMs += (used.user + used.system) / 1000;
  };
  const motion = new Motion(path, width, height);
  const composer = scene
    ? new FrameComposer(scene.background, motion, scene.depth, new SubjectRenderer(scene.subject, motion, scene.factors, scene.box))
    : new FrameComposer(rgbToYuv420(still, width, height), motion, FLAT);
  const dir = await mkdtemp(join(tmpdir(), 'lumora-video-'));
  try {
    const cleanOut = join(dir, 'clean.mp4');
    const previewOut = join(dir, 'preview.mp4');
    const pass = await videoPreviewPass(dir, { width, height }, { text: opts.watermarkText, seed: videoPreviewSeed(opts.watermarkSeed), firstInput: 1, source: '[p]' });
    // 5 % once everything before ffmpeg is ready: ffmpeg starts next.
    onProgress?.(0.05);
    const raw = (pixFmt: string, w: number, h: number) => ['-f', 'rawvideo', '-pix_fmt', pixFmt, '-video_size', `${w}x${h}`];
    await runFfmpeg(
      [
        '-loglevel', 'error', '-y',
        ...raw('yuv420p', width, height), '-framerate', String(VIDEO_FPS), '-i', 'pipe:0',
        ...pass.inputs,
        '-filter_complex', filterGraph(opts.mode, { width, height }, pass.filter),
        '-map', '[clean]', ...x264Args({ crf, preset, fps: VIDEO_FPS, frames: VIDEO_FRAMES }), cleanOut,
        '-map', '[preview]', ...previewEncodeArgs({ crf: previewCrf, preset, fps: VIDEO_FPS, frames: VIDEO_FRAMES }), previewOut,
      ],
      {
        signal,
        // Frames encoded drive 5 %..95 %; the faststart rewrite and file reads take the rest.
        onFrame: (n) => onProgress?.(0.05 + 0.9 * Math.min(1, n / VIDEO_FRAMES)),
        feed: (stdin) => writeFrames(stdin, VIDEO_FRAMES, composer.frameBytes, (n, frame) => framing(() => {
          composer.render(n, frame);
          faces?.animator?.apply(n, frame);
        }), signal),
      },
    );
    const [video, preview] = await Promise.all([readFile(cleanOut), readFile(previewOut)]);
    lap('encode');
    // Composing frames overlaps the encode (they stream into ffmpeg): its own time is taken out of the encode's.
    const timings = lap.result(frameTime);
    onProgress?.(1);
    const depth: DepthReport = scene
      ? { mode: 'parallax', cue: scene.cue, ...(scene.found && { found: scene.found }), subjectArea: round(scene.area), factors: roundDepth(scene.depth) }
      : { mode: 'flat', reason: decision.reason ?? 'no subject' };
    return { video, preview, width, height, frames: VIDEO_FRAMES, durationSeconds: VIDEO_FRAMES / VIDEO_FPS, depth, timings, ...(vision && { vision }), ...(faces && { faces: faces.report }) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** Long side of the copy the vision models look at: their inputs are 256–416 px; small figures are cropped from it. */
const VISION_SIDE = 640;

/**
 * The vision models on a copy of the still; null answer (saliency alone) when they cannot run here. Boxes found on
 * the photo before (`known`) are the detector's answer, moved into the still's frame.
 */
async function visionOf(still: Buffer, width: number, height: number, known?: { subjects: DetectedSubject[]; shown: Box }): Promise<PhotoAnalysis | undefined> {
  const scale = Math.min(1, VISION_SIDE / Math.max(width, height));
  const w = Math.round(width * scale);
  const h = Math.round(height * scale);
  const data = scale < 1 ? await sharp(still, { raw: { width, height, channels: 3 } }).resize(w, h, { kernel: 'linear' }).raw().toBuffer() : still;
  try {
    // Loaded on first use, as the face motion does: a function need not parse TensorFlow.js to start.
    const { analysePhoto } = await import('../vision');
    const knownSubjects = known && fromShares(known.subjects, w, h, known.shown);
    return await analysePhoto({ data, width: w, height: h }, { faces: false, ...(knownSubjects && { knownSubjects }) });
  } catch (error) {
    console.error('[video] vision models unavailable, using saliency alone:', error);
    return undefined;
  }
}

/** A lap clock over the render's stages, wall and this process's CPU time. */
function stageClock() {
  const timings: RenderTimings = {};
  let [t, c] = [performance.now(), process.cpuUsage()];
  const lap = (stage: RenderStage) => {
    const used = process.cpuUsage(c);
    const before = timings[stage] ?? { wallMs: 0, cpuMs: 0 };
    timings[stage] = { wallMs: before.wallMs + Math.round(performance.now() - t), cpuMs: before.cpuMs + Math.round((used.user + used.system) / 1000) };
    [t, c] = [performance.now(), process.cpuUsage()];
  };
  /** The stages, the frames' own time taken out of the encode's and reported as `render`. */
  lap.result = (frames: { wallMs: number; cpuMs: number }): RenderTimings => {
    const encode = timings.encode ?? { wallMs: 0, cpuMs: 0 };
    return { ...timings, render: { wallMs: Math.round(frames.wallMs), cpuMs: Math.round(frames.cpuMs) }, encode: { wallMs: Math.max(0, Math.round(encode.wallMs - frames.wallMs)), cpuMs: Math.max(0, Math.round(encode.cpuMs - frames.cpuMs)) } };
  };
  return lap;
}

function roundDepth(d: Depth): Depth {
  return { subjectEdge: round(d.subjectEdge), backgroundTop: round(d.backgroundTop), backgroundBottom: round(d.backgroundBottom) };
}
