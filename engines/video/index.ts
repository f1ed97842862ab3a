// Public surface of the video engine. Functions import from here; the island imports src/lib/tool/video-schema.
export { VIDEO_MODES, VIDEO_DURATION_SECONDS, VIDEO_FPS, VIDEO_FRAMES, type VideoMode } from '../../src/lib/tool/video-modes';
export { processVideoRequestSchema, parseImageDataUrl, type ProcessVideoRequest } from '../../src/lib/tool/video-schema';
export {
  parseMotion,
  planCameraPath,
  cameraRectAt,
  type CameraMotion,
  type CameraPath,
  type CameraRect,
} from './motion';
export { checkVideoInput, readImageHeader, VideoInputError, INVALID_IMAGE_MESSAGE, MAX_INPUT_BYTES, MAX_INPUT_PIXELS } from './input';
export { outputSize } from './frame';
export { checkFfmpeg } from './ffmpeg';
export { embeddedEngine, type VideoEngine, type VideoEngineId, type VideoEngineStatus } from './engine';
export { renderEmbedded, type RenderOptions, type RenderResult } from './render';
export { abortError, ffmpegPath } from './ffmpeg';
export { MAX_ASPECT, MIN_ASPECT } from './frame';
export type { ImageHeader } from './input';
export { releaseJobMemory } from './job-memory';
export { distanceTo, sample } from './layers/planes';
export type { Rgb } from './layers/planes';
export { progressRect } from './motion';
export type { Depth } from './parallax/plan';
export { buildScene } from './parallax/scene';
export { previewSize } from './preview';
export { finishHostedVideo } from './hosted';
export { DEFAULT_ENCODE, prepareStill } from './render';
export { restoreFirst } from './restore-first';
