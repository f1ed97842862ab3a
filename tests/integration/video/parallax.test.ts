import { describe, expect, it } from 'vitest';
import { renderEmbedded } from '../../../engines/video/render';
import { clipTracks, parallaxShare } from '../../support/video-measure';
import { base, expectMovesAsThePathSays, H, layeredClip, portraitScene, W } from './parallax-clips';

// The layered push-in against the same render with parallax off (the other moves: parallax-paths.test.ts).
describe('parallax render', () => {
  it('moves the subject apart from its background: many tracked features leave the best single camera move', async () => {
    const prompt = 'zoom in slowly';
    const { result: layered, tracks: a } = await layeredClip(prompt);
    const flat = await renderEmbedded((await portraitScene()).scene.jpeg, { ...base, prompt }, { parallax: false });
    expect(layered.depth).toMatchObject({ mode: 'parallax', cue: expect.any(String) });
    expect(flat.depth).toEqual({ mode: 'flat', reason: 'parallax off' });
    const b = await clipTracks(flat.video, W, H);
    expect(a.start.length).toBeGreaterThan(150);
    expect(parallaxShare(a)).toBeGreaterThanOrEqual(0.06);
    expect(parallaxShare(b)).toBeLessThan(0.03);
    // No holes: the scene has no near-black pixel, so none may appear in any frame.
    let dark = 0;
    for (const v of a.raw) if (v < 12) dark++;
    expect(dark / a.raw.length).toBeLessThan(1e-5);
  });

  it.each(['zoom in slowly'])('moves subject and background as the camera path says (%s)', expectMovesAsThePathSays);
});
