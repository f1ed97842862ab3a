// One pass over a photo: the image becomes one tensor, the models asked for run on it in turn (the detector and
// the faces first, so the segmentation can look again where they found someone), each stage timed in wall and CPU time.

import sharp from 'sharp';
import { detectFaces } from './faces';
import { detectSubjects } from './objects';
import { segmentPeople } from './people';
import { hasModel, imageTensor, model, ready, timed } from './runtime';
import type { AnalyseOptions, PhotoAnalysis, RgbImage, Subject, VisionModelId } from './types';

export const ALL_MODELS: readonly VisionModelId[] = ['blazeface', 'facemesh', 'selfie', 'nanodet'];

/** The models are small: analysing more pixels than this on the long side only costs time. */
export const VISION_MAX_SIDE = 1280;

let loaded = false;

/** Loads the models named, or every model this deployment ships. */
export async function loadModels(ids: readonly VisionModelId[] = ALL_MODELS.filter(hasModel)): Promise<void> {
  await ready();
  await Promise.all(ids.map((id) => model(id)));
}

function modelsFor(o: Required<Pick<AnalyseOptions, 'people' | 'faces' | 'subjects'>>): VisionModelId[] {
  return [...(o.faces ? (['blazeface', 'facemesh'] as const) : []), ...(o.people ? (['selfie'] as const) : []), ...(o.subjects ? (['nanodet'] as const) : [])];
}

export async function analyse(image: RgbImage, options: AnalyseOptions): Promise<PhotoAnalysis> {
  const { width, height } = image;
  const channels = image.channels ?? 3;
  if (!(width > 0 && height > 0) || image.data.length < width * height * channels) throw new Error('The image for analysis is empty or its pixels do not match its size.');
  const known = options.knownSubjects;
  const asked = { people: options.people ?? true, faces: options.faces ?? true, subjects: !known && (options.subjects ?? true) };
  const unavailable = modelsFor(asked).filter((id) => !hasModel(id));
  const want = {
    people: asked.people && hasModel('selfie'),
    faces: asked.faces && hasModel('blazeface') && hasModel('facemesh'),
    subjects: asked.subjects && hasModel('nanodet'),
  };
  const timings: PhotoAnalysis['timings'] = {};
  const first = !loaded;
  const load = await timed(() => loadModels(modelsFor(want)));
  if (first) timings.load = { wallMs: load.wallMs, cpuMs: load.cpuMs };
  loaded = true;
  const tensor = imageTensor(image.data, width, height, channels);
  const size = { width, height };
  try {
    let subjects: Subject[] = known ?? [];
    if (want.subjects) {
      const t = await timed(() => detectSubjects(tensor, size));
      subjects = t.value;
      timings.subjects = { wallMs: t.wallMs, cpuMs: t.cpuMs };
    }
    let faces: PhotoAnalysis['faces'] = [];
    if (want.faces) {
      const t = await timed(() => detectFaces(tensor, size, options.maxFaces ?? 4));
      faces = t.value;
      timings.faces = { wallMs: t.wallMs, cpuMs: t.cpuMs };
    }
    let people: PhotoAnalysis['people'] = null;
    if (want.people) {
      const t = await timed(() => segmentPeople(tensor, size, want.subjects || known ? subjects : null, faces));
      people = t.value;
      timings.people = { wallMs: t.wallMs, cpuMs: t.cpuMs };
    }
    return { width, height, people, faces, subjects, unavailable, timings };
  } finally {
    tensor.dispose();
  }
}

/** An encoded photo (JPEG, PNG, WebP…) → upright RGB at most VISION_MAX_SIDE on its long side, for analysePhoto. */
export async function decodeForVision(bytes: Buffer, maxSide = VISION_MAX_SIDE): Promise<RgbImage> {
  const { data, info } = await sharp(bytes)
    .rotate()
    .resize(maxSide, maxSide, { fit: 'inside', withoutEnlargement: true })
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: 3 };
}
