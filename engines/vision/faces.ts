// Faces: BlazeFace finds them on the photo letterboxed to 256 × 256, FaceMesh places 468 points on each face's
// square crop (192 × 192), run twice: the second crop is centred on the first mesh, which fits it better.

import { blazefaceAnchors, boundsOf, decodeBlazeface, eyeOf, meshToImage, poseOf, squareAround, suppress } from './decode';
import { MESH } from './mesh';
import { inputSize, model, tf } from './runtime';
import type { Face } from './types';

/** Detector score a face needs. */
const MIN_DETECTION = 0.5;
/** FaceMesh's own confidence that its crop holds a face; under it the face is treated as not there (occluded, not a face). */
const MIN_MESH_SCORE = 0.5;
/** The detector's box grown to the crop FaceMesh was trained on (the face with a margin). */
const DETECTOR_CROP = 1.5;
/** The mesh's own bounds grown to the next crop. */
const MESH_CROP = 1.35;
/** Facing the camera: small enough turn and nod that a warp of the mesh reads as the face moving. */
export const FRONTAL = { yaw: 25, pitch: 20 };

export async function detectFaces(image: tf.Tensor4D, size: { width: number; height: number }, maxFaces: number): Promise<Face[]> {
  const detector = await model('blazeface');
  const input = inputSize(detector).width;
  const side = Math.max(size.width, size.height);
  const boxes = tf.tidy(() => {
    const padded = tf.pad(image, [[0, 0], [0, side - size.height], [0, side - size.width], [0, 0]]);
    const resized = tf.image.resizeBilinear(padded, [input, input]);
    const outs = detector.execute(tf.sub(tf.div(resized, 127.5), 1)) as tf.Tensor[];
    // Four outputs (scores and regressions for the 512 stride-16 anchors and the 384 stride-32 ones): by size.
    const [s384, s512, r384, r512] = [...outs].sort((a, b) => a.size - b.size);
    return tf.squeeze(tf.concat([tf.concat([s512!, r512!], 2), tf.concat([s384!, r384!], 2)], 1));
  });
  const rows = (await boxes.data()) as Float32Array;
  boxes.dispose();
  const scale = side / input;
  const found = suppress(decodeBlazeface(rows, blazefaceAnchors(input), MIN_DETECTION), 0.3, maxFaces * 2).map((b) => ({
    x: b.x * scale,
    y: b.y * scale,
    width: b.width * scale,
    height: b.height * scale,
    score: b.score,
  }));
  const faces: Face[] = [];
  for (const box of found) {
    const first = await meshOn(image, size, squareAround(box, DETECTOR_CROP));
    if (!first || first.score < MIN_MESH_SCORE) continue;
    const second = await meshOn(image, size, squareAround(boundsOf(first.mesh), MESH_CROP));
    const best = second && second.score >= first.score * 0.9 ? second : first;
    faces.push(faceFrom(best.mesh, box.score * best.score));
  }
  return suppress(faces.map((f) => ({ ...f.box, score: f.box.width * f.box.height, face: f })), 0.3, maxFaces).map((f) => f.face);
}

/** FaceMesh on one square crop of the image (regions outside the image read as black). */
async function meshOn(image: tf.Tensor4D, size: { width: number; height: number }, crop: { x: number; y: number; width: number; height: number }) {
  const mesh = await model('facemesh');
  const input = inputSize(mesh).width;
  const [points, flag] = tf.tidy(() => {
    const box = [[crop.y / (size.height - 1), crop.x / (size.width - 1), (crop.y + crop.height) / (size.height - 1), (crop.x + crop.width) / (size.width - 1)]];
    const patch = tf.image.cropAndResize(image, box, [0], [input, input], 'bilinear', 0);
    const outs = mesh.execute(tf.div(patch, 255)) as tf.Tensor[];
    return [outs.find((t) => t.shape[1] === MESH.count * 3)!.clone(), outs.find((t) => t.shape[1] === 1)!.clone()];
  });
  const raw = await points!.data();
  const score = (await flag!.data())[0]!;
  tf.dispose([points!, flag!]);
  if (!Number.isFinite(score)) return null;
  return { mesh: meshToImage(raw, crop, input), score: score > 1 || score < 0 ? 1 / (1 + Math.exp(-score)) : score };
}

function faceFrom(mesh: Face['mesh'], score: number): Face {
  const pose = poseOf(mesh);
  return {
    box: boundsOf(mesh),
    score,
    mesh,
    eyes: { left: eyeOf(mesh, MESH.leftEyeUpper, MESH.leftEyeLower), right: eyeOf(mesh, MESH.rightEyeUpper, MESH.rightEyeLower) },
    pose,
    frontal: Math.abs(pose.yaw) <= FRONTAL.yaw && Math.abs(pose.pitch) <= FRONTAL.pitch,
  };
}
