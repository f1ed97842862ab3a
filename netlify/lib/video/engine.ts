import { checkFfmpeg } from './ffmpeg';
import { renderEmbedded, type RenderOptions, type RenderResult } from './render';
import { renderReplicate, replicateConfigFromEnv } from './replicate-video';

export type VideoEngineId = 'embedded' | 'replicate';
export type VideoEngineStatus = { available: boolean; engine: VideoEngineId; detail: string };

export type VideoEngine = {
  id: VideoEngineId;
  render(image: Buffer, opts: RenderOptions): Promise<RenderResult>;
  status(): Promise<VideoEngineStatus>;
};

export const embeddedEngine: VideoEngine = {
  id: 'embedded',
  render: (image, opts) => renderEmbedded(image, opts),
  async status() {
    const ff = await checkFfmpeg();
    return {
      available: ff.ok,
      engine: 'embedded',
      detail: ff.ok ? `Embedded camera-motion renderer (${ff.version})` : ff.detail,
    };
  },
};

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
