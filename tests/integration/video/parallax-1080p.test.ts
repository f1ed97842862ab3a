import { describe, expect, it } from 'vitest';
import { renderEmbedded } from '../../../netlify/lib/video/render';
import { makeScene } from '../../../bench/video/scenes';
import { probe } from '../../support/video';
import { base, portraitScene } from './parallax-clips';

describe('parallax render', () => {
  it('renders 1080p with a 720p preview, and falls back to the flat move (saying why) when there is no subject', async () => {
    const hd = await renderEmbedded((await portraitScene()).scene.jpeg, { ...base, prompt: 'pan right', resolution: '1080p' });
    expect(hd).toMatchObject({ width: 1440, height: 1080, frames: 150, durationSeconds: 5 });
    expect(hd.depth?.mode).toBe('parallax');
    const [video, preview] = await Promise.all([probe(hd.video), probe(hd.preview)]);
    expect(video).toMatchObject({ width: 1440, height: 1080, frames: 150, codec: 'h264', pixFmt: 'yuv420p' });
    expect(Math.abs(video.duration - 5)).toBeLessThanOrEqual(0.05);
    expect(preview).toMatchObject({ width: 960, height: 720, frames: 150 });
    const empty = await makeScene('none', 1600, 1200);
    const flat = await renderEmbedded(empty.jpeg, { ...base, prompt: 'zoom in' });
    expect(flat.depth).toEqual({ mode: 'flat', reason: 'no subject found' });
  }, 120_000);
});
