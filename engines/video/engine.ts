import { checkFfmpeg } from './ffmpeg';
import { renderEmbedded, type RenderOptions, type RenderResult } from './render';

export type VideoEngineId = 'embedded' | 'replicate';
export type VideoEngineStatus = { available: boolean; engine: VideoEngineId; detail: string };

export type VideoEngine = {
  id: VideoEngineId;
  render(image: Buffer, opts: RenderOptions): Promise<RenderResult>;
  status(): Promise<VideoEngineStatus>;
};

/** The built-in renderer (ffmpeg, no account). A hosted model is the server's choice: netlify/lib/providers/video-engine.ts. */
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
