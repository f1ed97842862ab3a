import { renderEmbedded, type RenderResult } from '../../../engines/video/render';
import { parseMotion, planCameraPath } from '../../../engines/video/motion';
import { makeScene, sceneMask, type Scene } from '../../support/video-scenes';
import { clipTracks, followsPath, groupMoves } from '../../support/video-measure';
import { expect } from 'vitest';

// Rendered clips of a generated scene (a sitter over a textured background), measured the way a viewer sees
// them: features tracked from the first frame to the last. Each render takes seconds, so the parallax tests
// are split over a few files that run side by side; within a file a clip is rendered and tracked once.
export const base = { watermarkText: 'Lumora AI', mode: 'standard' } as const;
export const [W, H] = [960, 720];

let scene: Promise<{ scene: Scene; truth: Uint8Array }> | undefined;
/** The generated portrait scene and its subject's true mask at the output size, made once per file. */
export const portraitScene = () =>
  (scene ??= (async () => {
    const made = await makeScene('portrait', 1600, 1200);
    return { scene: made, truth: await sceneMask(made, W, H) };
  })());

type Tracked = { result: RenderResult; tracks: Awaited<ReturnType<typeof clipTracks>> };
const clips = new Map<string, Promise<Tracked>>();
/** The layered clip of the portrait for `prompt`, rendered and tracked by the first test that needs it. */
export function layeredClip(prompt: string): Promise<Tracked> {
  if (!clips.has(prompt)) {
    clips.set(prompt, (async () => {
      const result = await renderEmbedded((await portraitScene()).scene.jpeg, { ...base, prompt });
      return { result, tracks: await clipTracks(result.video, W, H) };
    })());
  }
  return clips.get(prompt)!;
}

/** Subject and background each move between what the camera path gives their nearest and farthest parts. */
export async function expectMovesAsThePathSays(prompt: string): Promise<void> {
  const { result, tracks } = await layeredClip(prompt);
  if (result.depth?.mode !== 'parallax') throw new Error(`flat render: ${JSON.stringify(result.depth)}`);
  const path = planCameraPath(parseMotion(prompt), 150);
  const moves = groupMoves(tracks, (await portraitScene()).truth, path, W, H);
  expect(moves.subject.count).toBeGreaterThan(20);
  expect(moves.background.count).toBeGreaterThan(20);
  // Each group moves between what the path gives its nearest and its farthest part, the subject ahead.
  expect(followsPath(moves, path, result.depth.factors, W, H), JSON.stringify(moves)).toEqual({ subject: true, background: true, subjectAhead: true });
}
