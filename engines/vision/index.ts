// Public surface of the vision module: real pretrained models (MediaPipe BlazeFace, FaceMesh and Selfie
// segmentation, NanoDet COCO detection; files in ./models with their licences) run on TensorFlow.js with the
// WebAssembly backend. Models load once per process, on first use (`loadVision` loads them ahead of it).
// Both engines call it with interleaved RGB: the video engine's `Rgb`, or the image engine's sharp raw buffers.

import { analyse, loadModels, decodeForVision } from './analyse';
import type { AnalyseOptions, Face, PeopleResult, PhotoAnalysis, RgbImage, Subject, VisionModelId } from './types';

export type * from './types';
export { MESH } from './mesh';
export { decodeForVision };
export { asShares, fromShares } from './known-subjects';
export { hasModel, ModelUnavailableError } from './runtime';

/** Loads (once) the models named, by default every one this deployment ships; call it at cold start so the first request does not pay for it. */
export function loadVision(models?: readonly VisionModelId[]): Promise<void> {
  return loadModels(models);
}

/** Everything asked for in one pass over the image (the object detector's person boxes help the segmentation). */
export function analysePhoto(image: RgbImage, options: AnalyseOptions = {}): Promise<PhotoAnalysis> {
  return analyse(image, options);
}

/** Faces, largest first: box, score, 468-point mesh in image pixels, eyes and head pose. */
export async function findFaces(image: RgbImage, options: { maxFaces?: number } = {}): Promise<Face[]> {
  return (await analyse(image, { faces: true, people: false, subjects: false, maxFaces: options.maxFaces })).faces;
}

/**
 * A person mask at image size (small figures segmented again on their detected crop, close portraits around
 * their faces) and the people in it; null where the segmentation model is not shipped.
 */
export async function findPeople(image: RgbImage): Promise<PeopleResult | null> {
  return (await analyse(image, { faces: true, people: true, subjects: true })).people;
}

/** COCO objects (people, animals, things) with boxes, best first. */
export async function findSubjects(image: RgbImage): Promise<Subject[]> {
  return (await analyse(image, { faces: false, people: false, subjects: true })).subjects;
}
export { ALL_MODELS, loadModels } from './analyse';
export { boundsOf, eyeOf, poseOf } from './decode';
export { MODELS_DIR } from './runtime';
export type { Face, MeshPoint, PhotoAnalysis, Subject } from './types';
