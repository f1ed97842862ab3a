// Faces that move, through the whole render: the astronaut portrait (NASA, public domain; in the repository's
// colour reference library) rendered with and without "Bring faces to life". The real face models find the face;
// the clips differ only on it, and most where the eyes are while they blink.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { renderEmbedded, type RenderResult } from '../../../engines/video/render';
import { cameraRectAt, parseMotion, planCameraPath } from '../../../engines/video/motion';
import { BLINK } from '../../../engines/video/faces/timing';
import { decodeFrames } from '../../support/video';

const SIZE = 720;
const PROMPT = 'zoom in slowly';
const photo = readFileSync('engines/image/reference/astronaut.jpg');
const blinkFrame = Math.round((BLINK.at + BLINK.close + BLINK.hold / 2) * 30);

describe('faces that move in a rendered clip', () => {
  let alive: RenderResult;
  let still: RenderResult;
  beforeAll(async () => {
    [alive, still] = await Promise.all([
      renderEmbedded(photo, { prompt: PROMPT, mode: 'standard', watermarkText: 'Lumora AI' }),
      renderEmbedded(photo, { prompt: PROMPT, mode: 'standard', watermarkText: 'Lumora AI', animateFaces: false }),
    ]);
  }, 240_000);

  it('finds the face and animates it, turn and blink; off, it does not look', () => {
    expect(alive.faces?.found).toBe(1);
    expect(alive.faces?.animated).toBe(1);
    expect(alive.faces?.decisions[0]).toMatchObject({ animated: true, blink: true });
    expect(still.faces).toBeUndefined();
  });

  it('changes the face, the eyes most while they are shut, and nothing away from it', async () => {
    const box = alive.faces!.decisions[0]!.box;
    const path = planCameraPath(parseMotion(PROMPT), 150);
    const diff = async (n: number) => {
      const [a, b] = await Promise.all([decodeFrames(alive.video, { first: n, pixFmt: 'gray' }), decodeFrames(still.video, { first: n, pixFmt: 'gray' })]);
      const r = cameraRectAt(path, n);
      // The face's box in this frame (the camera's window maps still pixels to frame pixels).
      const f = (x: number, y: number) => ({ x: (x - SIZE * r.x) / r.w, y: (y - SIZE * r.y) / r.h });
      const p0 = f(box.x, box.y);
      const p1 = f(box.x + box.width, box.y + box.height);
      const mean = (inside: (x: number, y: number) => boolean) => {
        let s = 0, n = 0;
        for (let y = 0; y < SIZE; y++) for (let x = 0; x < SIZE; x++) if (inside(x, y)) { s += Math.abs(a[y * SIZE + x]! - b[y * SIZE + x]!); n++; }
        return s / n;
      };
      const w = p1.x - p0.x, h = p1.y - p0.y;
      return {
        eyes: mean((x, y) => x > p0.x + 0.1 * w && x < p1.x - 0.1 * w && y > p0.y + 0.25 * h && y < p0.y + 0.5 * h),
        away: mean((x, y) => x < p0.x - 0.6 * w || x > p1.x + 0.6 * w || y > p1.y + 0.6 * h),
      };
    };
    const shut = await diff(blinkFrame);
    const first = await diff(0);
    expect(shut.eyes).toBeGreaterThan(6);
    expect(shut.away).toBeLessThan(1.5);
    expect(first.eyes).toBeLessThan(1.5);
  });
});
