import { checkFfmpeg, embeddedEngine, type RenderOptions, type RenderResult, type VideoEngine, type VideoEngineStatus } from '../../../engines/video';
import { renderReplicate, replicateConfigFromEnv } from './replicate-video';

export { VideoEngineError } from './replicate-video';

/**
 * Replicate when REPLICATE_API_TOKEN and REPLICATE_VIDEO_MODEL are both set (VIDEO_ENGINE=embedded
 * forces the embedded engine anyway); otherwise the embedded ffmpeg renderer, which needs no account.
 */
export function selectVideoEngine(env: Record<string, string | undefined> = process.env): VideoEngine {
  const config = env.VIDEO_ENGINE?.trim() === 'embedded' ? null : replicateConfigFromEnv(env);
  if (!config) return embeddedEngine;
  return {
    id: 'replicate',
    render: (image, opts) => renderReplicate(image, opts, config),
    async status() {
      // ffmpeg is still needed locally for the watermarked preview. The token is not spent on a
      // network round-trip here; a bad token surfaces as an error on the first render.
      const ff = await checkFfmpeg();
      return {
        available: ff.ok,
        engine: 'replicate',
        detail: ff.ok ? `Replicate model ${config.model} at ${config.baseUrl}` : `Preview encoder unavailable: ${ff.detail}`,
      };
    },
  };
}

/** Renders with the engine the environment selects (see selectVideoEngine). */
export function renderVideo(image: Buffer, opts: RenderOptions): Promise<RenderResult> {
  return selectVideoEngine(process.env).render(image, opts);
}

/** Whether the selected engine can render right now (cached ffmpeg check; no network call). */
export function videoEngineStatus(): Promise<VideoEngineStatus> {
  return selectVideoEngine(process.env).status();
}
