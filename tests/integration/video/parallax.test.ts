import { beforeAll, describe, expect, it } from 'vitest';
import { renderEmbedded, type RenderResult } from '../../../netlify/lib/video/render';
import { parseMotion, planCameraPath } from '../../../netlify/lib/video/motion';
import { makeScene, sceneMask, type Scene } from '../../../bench/video/scenes';
import { clipTracks, followsPath, groupMoves, parallaxShare } from '../../../bench/video/measure';
import { probe } from '../../support/video';

// Rendered clips of a generated scene (a sitter over a textured background), measured the way a viewer sees
// them: features tracked from the first frame to the last.
const base = { watermarkText: 'Lumora AI', mode: 'standard' } as const;
const [W, H] = [960, 720];

let scene: Scene;
let truth: Uint8Array;
beforeAll(async () => {
  scene = await makeScene('portrait', 1600, 1200);
  truth = await sceneMask(scene, W, H);
});

// Each layered clip is rendered and tracked once, by the first test that needs it (a render and its tracking
// take many seconds).
type Tracked = { result: RenderResult; tracks: Awaited<ReturnType<typeof clipTracks>> };
const clips = new Map<string, Promise<Tracked>>();
function layeredClip(prompt: string): Promise<Tracked> {
  if (!clips.has(prompt)) {
    clips.set(prompt, (async () => {
      const result = await renderEmbedded(scene.jpeg, { ...base, prompt });
      return { result, tracks: await clipTracks(result.video, W, H) };
    })());
  }
  return clips.get(prompt)!;
}

describe('parallax render', () => {
  it('moves the subject apart from its background: many tracked features leave the best single camera move', async () => {
    const prompt = 'zoom in slowly';
    const { result: layered, tracks: a } = await layeredClip(prompt);
    const flat = await renderEmbedded(scene.jpeg, { ...base, prompt }, { parallax: false });
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
  }, 120_000);

  it.each(['zoom in slowly', 'pan left', 'tilt down'])('moves subject and background as the camera path says (%s)', async (prompt) => {
    const { result, tracks } = await layeredClip(prompt);
    if (result.depth?.mode !== 'parallax') throw new Error(`flat render: ${JSON.stringify(result.depth)}`);
    const path = planCameraPath(parseMotion(prompt), 150);
    const moves = groupMoves(tracks, truth, path, W, H);
    expect(moves.subject.count).toBeGreaterThan(20);
    expect(moves.background.count).toBeGreaterThan(20);
    // Each group moves between what the path gives its nearest and its farthest part, the subject ahead.
    expect(followsPath(moves, path, result.depth.factors, W, H), JSON.stringify(moves)).toEqual({ subject: true, background: true, subjectAhead: true });
  }, 120_000);
  it('renders 1080p with a 720p preview, and falls back to the flat move (saying why) when there is no subject', async () => {
    const hd = await renderEmbedded(scene.jpeg, { ...base, prompt: 'pan right', resolution: '1080p' });
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
