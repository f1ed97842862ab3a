// Public surface of the video engine. Functions import from here; the island imports src/lib/tool/video-schema.
import { selectVideoEngine, type VideoEngineStatus } from './engine';
import type { RenderOptions, RenderResult } from './render';

export { VIDEO_MODES, VIDEO_DURATION_SECONDS, VIDEO_FPS, VIDEO_FRAMES, type VideoMode } from '../../../src/lib/tool/video-modes';
export { processVideoRequestSchema, parseImageDataUrl, type ProcessVideoRequest } from '../../../src/lib/tool/video-schema';
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
export { embeddedEngine, selectVideoEngine, type VideoEngine, type VideoEngineId, type VideoEngineStatus } from './engine';
export { renderEmbedded, type RenderOptions, type RenderResult } from './render';
export { VideoEngineError } from './replicate-video';

/** Renders with the engine the environment selects (see selectVideoEngine). */
export function renderVideo(image: Buffer, opts: RenderOptions): Promise<RenderResult> {
  return selectVideoEngine(process.env).render(image, opts);
}

/** Whether the selected engine can render right now (cached ffmpeg check; no network call). */
export function videoEngineStatus(): Promise<VideoEngineStatus> {
  return selectVideoEngine(process.env).status();
}
