// People: MediaPipe's selfie segmentation (256 × 256, one channel: the probability of a person) on the whole
// photo, then again on each detected person too small for it (it was trained on close-ups; a full figure a
// third of the frame tall is mostly missed) and on the head and shoulders below each face no detected person
// holds (a close portrait the detector misses), the crop's mask merged into the photo's by the larger value.

import { squareAround } from './decode';
import { inputSize, model, tf } from './runtime';
import type { Box, Face, PeopleResult, Person, Subject } from './types';

/** A detected person shorter than this share of the photo's height is segmented again on their own crop. */
const SMALL_FIGURE = 0.55;
/** The crop around a small figure: its box's larger side times this. */
const FIGURE_CROP = 1.25;
const MIN_PERSON_SCORE = 0.4;

export async function segmentPeople(
  image: tf.Tensor4D,
  size: { width: number; height: number },
  subjects: Subject[] | null,
  faces: Face[] = [],
): Promise<PeopleResult> {
  const { width, height } = size;
  const mask = await segment(image, size, { x: 0, y: 0, width, height }, width, height);
  const persons: Person[] = (subjects ?? [])
    .filter((s) => s.label === 'person' && s.score >= MIN_PERSON_SCORE)
    .map((s) => ({ box: s.box, score: s.score, source: 'detector' as const }));
  for (const f of faces) {
    const c = { x: f.box.x + f.box.width / 2, y: f.box.y + f.box.height / 2 };
    if (persons.some((p) => c.x >= p.box.x && c.x <= p.box.x + p.box.width && c.y >= p.box.y && c.y <= p.box.y + p.box.height)) continue;
    persons.push({ box: headAndShoulders(f.box), score: f.score, source: 'face' });
  }
  for (const p of persons) {
    if (p.source === 'detector' && p.box.height >= SMALL_FIGURE * height) continue;
    const crop = clip(squareAround(p.box, FIGURE_CROP), width, height);
    if (crop.width < 8 || crop.height < 8) continue;
    const part = await segment(image, size, crop, crop.width, crop.height);
    // Only inside the person's own box: the crop's mask may find the neighbours too, at their own scale.
    const b = clip(p.box, width, height);
    for (let y = b.y; y < b.y + b.height; y++)
      for (let x = b.x; x < b.x + b.width; x++) {
        const v = part[(y - crop.y) * crop.width + (x - crop.x)]!;
        const i = y * width + x;
        if (v > mask[i]!) mask[i] = v;
      }
  }
  let on = 0;
  for (let i = 0; i < mask.length; i++) if (mask[i]! >= 0.5) on++;
  const coverage = on / mask.length;
  const people = persons.filter((p) => share(mask, width, clip(p.box, width, height)) >= 0.2);
  if (people.length === 0 && coverage >= 0.01) {
    const box = maskBounds(mask, width, height);
    if (box) people.push({ box, score: Math.round(coverage * 1000) / 1000, source: 'segmentation' });
  }
  return { mask, width, height, coverage, people };
}

/** Where the body of a face's owner probably is: the head with a margin and the shoulders below it. */
function headAndShoulders(face: Box): Box {
  return { x: face.x - face.width * 1.1, y: face.y - face.height * 0.5, width: face.width * 3.2, height: face.height * 3.5 };
}

/** The model's mask for `region` of the image, at outW × outH. */
async function segment(image: tf.Tensor4D, size: { width: number; height: number }, region: Box, outW: number, outH: number): Promise<Float32Array> {
  const net = await model('selfie');
  const { width: iw, height: ih } = inputSize(net);
  const out = tf.tidy(() => {
    const box = [[region.y / size.height, region.x / size.width, (region.y + region.height) / size.height, (region.x + region.width) / size.width]];
    const patch = tf.image.cropAndResize(image, box, [0], [ih, iw], 'bilinear');
    const prob = net.execute(tf.div(patch, 255)) as tf.Tensor4D;
    return tf.clipByValue(tf.image.resizeBilinear(prob, [outH, outW]), 0, 1);
  });
  const data = (await out.data()) as Float32Array;
  out.dispose();
  return data;
}

function clip(b: Box, width: number, height: number): Box {
  const x = Math.max(0, Math.floor(b.x));
  const y = Math.max(0, Math.floor(b.y));
  return { x, y, width: Math.max(0, Math.min(width, Math.ceil(b.x + b.width)) - x), height: Math.max(0, Math.min(height, Math.ceil(b.y + b.height)) - y) };
}

function share(mask: Float32Array, width: number, b: Box): number {
  let on = 0;
  for (let y = b.y; y < b.y + b.height; y++) for (let x = b.x; x < b.x + b.width; x++) if (mask[y * width + x]! >= 0.5) on++;
  return b.width * b.height > 0 ? on / (b.width * b.height) : 0;
}

function maskBounds(mask: Float32Array, width: number, height: number): Box | null {
  let x0 = width, y0 = height, x1 = -1, y1 = -1;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++)
      if (mask[y * width + x]! >= 0.5) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        if (y > y1) y1 = y;
      }
  return x1 < 0 ? null : { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1 };
}
