// Public surface of the vision module: real pretrained models (MediaPipe BlazeFace, FaceMesh and Selfie
// segmentation, NanoDet COCO detection; files in ./models with their licences) run on TensorFlow.js with the
// WebAssembly backend. Models load once per process, on first use or at a function's cold start (`loadVision`).
// Both engines call it with interleaved RGB: the video engine's `Rgb`, or the image engine's sharp raw buffers.

import { analyse, loadModels, decodeForVision } from './analyse';
import type { AnalyseOptions, Face, PeopleResult, PhotoAnalysis, RgbImage, Subject, VisionModelId } from './types';

export type * from './types';
export { MESH } from './mesh';
export { decodeForVision };

/** Loads (once) the models the options need; call it at cold start so the first request does not pay for it. */
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

/** A person mask at image size (small figures segmented again on their detected crop) and the people in it. */
export async function findPeople(image: RgbImage): Promise<PeopleResult> {
  const result = await analyse(image, { faces: false, people: true, subjects: true });
  return result.people!;
}

/** COCO objects (people, animals, things) with boxes, best first. */
export async function findSubjects(image: RgbImage): Promise<Subject[]> {
  return (await analyse(image, { faces: false, people: false, subjects: true })).subjects;
}
