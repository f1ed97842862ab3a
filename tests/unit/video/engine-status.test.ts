import { afterEach, describe, expect, it } from 'vitest';
import { resetFfmpegCheck } from '../../../engines/video/ffmpeg';
import { videoEngineStatus, selectVideoEngine } from '../../../netlify/lib/providers/video-engine';

describe('videoEngineStatus', () => {
  const saved = process.env.FFMPEG_PATH;
  afterEach(() => {
    if (saved === undefined) delete process.env.FFMPEG_PATH;
    else process.env.FFMPEG_PATH = saved;
    resetFfmpegCheck();
  });

  it('reports the embedded engine available after running ffmpeg', async () => {
    resetFfmpegCheck();
    const s = await videoEngineStatus();
    expect(s).toMatchObject({ available: true, engine: 'embedded' });
    expect(s.detail).toMatch(/ffmpeg version/);
  });

  it('reports unavailable when the binary is missing', async () => {
    process.env.FFMPEG_PATH = '/nonexistent/ffmpeg';
    resetFfmpegCheck();
    const s = await selectVideoEngine({}).status();
    expect(s.available).toBe(false);
    expect(s.detail).toMatch(/not found/);
  });

  it('selects replicate only when a token and a model are configured', () => {
    expect(selectVideoEngine({}).id).toBe('embedded');
    expect(selectVideoEngine({ REPLICATE_API_TOKEN: 't' }).id).toBe('embedded');
    expect(selectVideoEngine({ REPLICATE_API_TOKEN: 't', REPLICATE_VIDEO_MODEL: 'a/b' }).id).toBe('replicate');
    expect(selectVideoEngine({ REPLICATE_API_TOKEN: 't', REPLICATE_VIDEO_MODEL: 'a/b', VIDEO_ENGINE: 'embedded' }).id).toBe('embedded');
  });
});
