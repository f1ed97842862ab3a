// Other subjects: NanoDet (COCO, 80 classes) on the photo resized to 416 × 416, channels first, normalised as
// NanoDet was trained (BGR, ImageNet mean and deviation; tried against 0..1 RGB on the reference photos: higher
// scores on the animals and people, fewer false ones).

import { decodeNanodet, suppress, type DetectorLevel } from './decode';
import { COCO_LABELS } from './labels';
import { inputSize, model, tf } from './runtime';
import type { Subject } from './types';

const MIN_SCORE = 0.3;
const BGR_MEAN = [103.53, 116.28, 123.675];
const BGR_STD = [57.375, 57.12, 58.395];
const MAX_SUBJECTS = 20;

export async function detectSubjects(image: tf.Tensor4D, size: { width: number; height: number }): Promise<Subject[]> {
  const detector = await model('nanodet');
  const input = inputSize(detector).width;
  const outs = tf.tidy(() => {
    const resized = tf.image.resizeBilinear(image, [input, input]);
    const normalised = tf.div(tf.sub(tf.reverse(resized, -1), BGR_MEAN), BGR_STD);
    return detector.execute(tf.transpose(normalised, [0, 3, 1, 2])) as tf.Tensor[];
  });
  const levels: DetectorLevel[] = [];
  for (const stride of [8, 16, 32]) {
    const grid = input / stride;
    const cells = grid * grid;
    const scores = outs.find((t) => t.shape[1] === cells && t.shape[2] === COCO_LABELS.length)!;
    const distances = outs.find((t) => t.shape[1] === cells && t.shape[2] !== COCO_LABELS.length)!;
    levels.push({ grid, stride, scores: (await scores.data()) as Float32Array, distances: (await distances.data()) as Float32Array });
  }
  tf.dispose(outs);
  const sx = size.width / input;
  const sy = size.height / input;
  const boxes = decodeNanodet(levels, COCO_LABELS.length, MIN_SCORE);
  // Suppression per class: a person standing in front of a chair keeps both boxes.
  const kept = COCO_LABELS.flatMap((_, c) => suppress(boxes.filter((b) => b.label === c), 0.45));
  return kept
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_SUBJECTS)
    .map((b) => {
      const x = Math.max(0, b.x * sx);
      const y = Math.max(0, b.y * sy);
      return {
        label: COCO_LABELS[b.label]!,
        score: Math.round(b.score * 1000) / 1000,
        box: { x, y, width: Math.min(size.width, (b.x + b.width) * sx) - x, height: Math.min(size.height, (b.y + b.height) * sy) - y },
      };
    });
}
