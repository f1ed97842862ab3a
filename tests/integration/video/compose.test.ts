import { beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { parseMotion, planCameraPath, progressAt, type CameraPath } from '../../../engines/video/motion';
import { Motion, subjectSource } from '../../../engines/video/parallax/plan';
import { buildScene, type ParallaxScene } from '../../../engines/video/parallax/scene';
import { SubjectRenderer } from '../../../engines/video/parallax/subject-layer';
import { FrameComposer } from '../../../engines/video/compose';
import { sample } from '../../../engines/video/layers/planes';
import { makeScene } from '../../support/video-scenes';

// Whole clips composed by the parallax engine (150 frames each): the layer split, the fill and every frame.
const FRAMES = 150;
const path = (prompt: string, focus = { x: 0.62, y: 0.4 }) => planCameraPath(parseMotion(prompt), FRAMES, focus);

describe('composed frames of a generated scene', () => {
  const [W, H] = [480, 360];
  let still: Uint8Array;
  beforeAll(async () => {
    const scene = await makeScene('portrait', W * 2, H * 2);
    still = await sharp(scene.jpeg).resize(W, H).raw().toBuffer();
  });

  async function compose(prompt: string): Promise<{ frames: Uint8Array[]; scene: ParallaxScene; path: CameraPath }> {
    const p = path(prompt, { x: 0.5, y: 0.4 });
    const decision = await buildScene(still, W, H, p);
    expect(decision.reason).toBeUndefined();
    const scene = decision.scene!;
    const motion = new Motion(p, W, H);
    const composer = new FrameComposer(scene.background, motion, scene.depth, new SubjectRenderer(scene.subject, motion, scene.factors, scene.box));
    const frames: Uint8Array[] = [];
    for (let n = 0; n < FRAMES; n++) {
      // Zero is no valid yuv420p value (limited range starts at 16): any pixel left unwritten stays 0.
      const frame = new Uint8Array(composer.frameBytes);
      composer.render(n, frame);
      frames.push(frame);
    }
    return { frames, scene, path: p };
  }

  it.each(['zoom in slowly', 'pan left', 'tilt up', 'a gentle move'])('covers every pixel, shows no trace of the subject where it was, and never pops (%s)', async (prompt) => {
    const { frames, scene, path: p } = await compose(prompt);
    const motion = new Motion(p, W, H);
    const uv = new Float64Array(3);
    const cw = W / 2;
    const area = W * H;
    for (let n = 0; n < FRAMES; n++) {
      const frame = frames[n]!;
      let unwritten = 0;
      for (let i = 0; i < frame.length; i++) if (frame[i]! < 16) unwritten++;
      expect(unwritten, `frame ${n}`).toBe(0);
      // The subject is warm (skin, hair, red and orange cloth: Cr 140 and up), the background cool (Cr below 125):
      // outside where the subject's matte is now, nothing warm may show.
      let ghosts = 0;
      for (let cy = 0; cy < H / 2; cy += 2) {
        for (let cx = 0; cx < cw; cx += 2) {
          if (frame[area + area / 4 + cy * cw + cx]! < 135) continue;
          let near = 0;
          for (const [dx, dy] of [[0, 0], [-3, 0], [3, 0], [0, -3], [0, 3]] as const) {
            subjectSource(motion, scene.factors, progressAt(p, n), cx * 2 + dx, cy * 2 + dy, uv);
            near = Math.max(near, sample(scene.subject.a, W, H, uv[0]!, uv[1]!));
          }
          if (near === 0) ghosts++;
        }
      }
      expect(ghosts, `frame ${n}`).toBe(0);
    }
    // No pops: each frame differs from the last by no more than the move of that step can explain (the mean
    // gradient times the largest displacement of any layer), and no step stands out from its neighbours.
    const diffs: number[] = [];
    for (let n = 1; n < FRAMES; n++) {
      const [a, b] = [frames[n - 1]!, frames[n]!];
      let diff = 0;
      let gradient = 0;
      for (let y = 1; y < H - 1; y++) {
        for (let x = 1; x < W - 1; x++) {
          const i = y * W + x;
          diff += Math.abs(b[i]! - a[i]!);
          gradient += Math.abs(a[i + 1]! - a[i - 1]!) / 2 + Math.abs(a[i + W]! - a[i - W]!) / 2;
        }
      }
      const pixels = (W - 2) * (H - 2);
      const [x0, y0, w0] = motion.window(progressAt(p, n - 1));
      const [x1, y1, w1] = motion.window(progressAt(p, n));
      const step = Math.max(...[[0, 0], [W, 0], [0, H], [W, H]].map(([x, y]) => Math.hypot(x1! + x! * w1! - x0! - x! * w0!, y1! + y! * w1! - y0! - y! * w0!) / w1!));
      expect(diff / pixels, `frame ${n}`).toBeLessThanOrEqual((gradient / pixels) * step + 0.75);
      diffs.push(diff / pixels);
    }
    for (let n = 2; n < diffs.length - 2; n++) {
      const around = Math.max(diffs[n - 2]!, diffs[n - 1]!, diffs[n + 1]!, diffs[n + 2]!);
      expect(diffs[n]!, `step ${n}`).toBeLessThanOrEqual(around * 1.5 + 0.2);
    }
  }, 60_000);
});
