import { HttpError } from '../http';
import { getStorage } from '../storage';
import { MAX_INPUT_PIXELS, photoAge, photoAgeOfPixels } from '../../../engines/image';
import { analysePhoto, asShares } from '../../../engines/vision';
import { restoreFirst } from '../../../engines/video';
import { makePreview } from '../media/image-preview';
import { colorizerFor } from '../providers/colorizer';
import { getTransformation, type Transformation } from '../transformations';
import { MSG } from '../../../src/lib/messages';
import { DEFAULTS_UPLOAD_SIDE } from '../../../src/lib/tool/constants';
import { jobOptions, jobSubjects, MAX_DETECTED_SUBJECTS, type VideoDefaults } from '../../../src/lib/tool/video-schema';
import { decodeReduced } from './image-bounds';
import { withRenderSlot } from './render-slots';
import { paths } from './media';

// What a video job's clip is made from: the upload as it is, the image engine's restoration of it ("Restore &
// colorize first"), or a finished image result ("Animate this photo"). The buyer's choices are stored with the
// job as given; a choice left out is decided here from the photo, the same way the tab's defaults were.

/** Long side of the copy the tab's defaults are judged on (faces, subjects, tone): the size the tab sends. */
const DEFAULTS_SIDE = DEFAULTS_UPLOAD_SIDE;

/**
 * The video tab's defaults for a photo: restore first when it looks old, faces brought to life when one faces the
 * camera, and the object detector's boxes, which the tab sends back with the job (the video function has no room
 * for the detector beside ffmpeg; this one has). The photo is decoded once, to a DEFAULTS_SIDE copy both read;
 * libvips refuses more than `maxPixels` (the caller's bound) from its header.
 */
export async function videoDefaults(bytes: Buffer, maxPixels = MAX_INPUT_PIXELS): Promise<VideoDefaults> {
  const pixels = await decodeReduced(bytes, DEFAULTS_SIDE, maxPixels);
  const [age, vision] = await Promise.all([photoAgeOfPixels(pixels), analysePhoto(pixels, { people: false })]);
  const frontal = vision.faces.filter((f) => f.frontal).length;
  const subjects = asShares(vision.subjects.slice(0, MAX_DETECTED_SUBJECTS), vision.width, vision.height);
  return { success: true, restoreFirst: age.old, restoreReason: age.why, animateFaces: frontal > 0, faces: frontal, subjects };
}

/** A finished, unbought-or-bought image result that may be animated: its clean file is read at render time. */
export async function sourceImage(id: string): Promise<Transformation> {
  const image = await getTransformation(id);
  if (!image || image.kind !== 'image' || image.status !== 'completed' || !image.resultPath || !image.originalPath) throw new HttpError(404, MSG.videoSourceImage);
  return image;
}

/** A finished image result's clean restored file, as "Animate this photo" animates it (read on the server only). */
export async function sourceImageStill(id: string): Promise<Buffer> {
  const image = await sourceImage(id);
  const still = await getStorage().get(image.resultPath!);
  if (!still) throw new HttpError(404, MSG.videoSourceImage);
  return still;
}

export type JobStill = {
  /** The bytes the engine animates. */
  still: Buffer;
  /** What the job records of it (merged into its hints on completion). */
  hints: Record<string, unknown>;
};

/**
 * The job's still. A restored still is also kept as a watermarked copy (`originalViewPath`), which the status
 * answer shows as the clip's poster: the clean restoration is the image tab's product and is never served here.
 */
export async function jobStill(t: Transformation, original: Buffer, signal?: AbortSignal): Promise<JobStill> {
  const storage = getStorage();
  const chosen = jobOptions(t.hints);
  const animateFaces = chosen.animateFaces ?? true;
  const sourceId = typeof t.hints.sourceImageId === 'string' ? t.hints.sourceImageId : null;
  if (sourceId) {
    const still = await sourceImageStill(sourceId);
    await storage.put(paths.originalView(t.id), await makePreview(still, t.id), 'image/jpeg');
    return { still, hints: { restoreFirst: true, restoreReason: 'image result', animateFaces, originalViewPath: paths.originalView(t.id) } };
  }
  const age = chosen.restoreFirst === null ? await photoAge(original) : null;
  const restore = chosen.restoreFirst ?? age!.old;
  const restoreReason = age ? age.why : 'chosen';
  if (!restore) return { still: original, hints: { restoreFirst: false, restoreReason, animateFaces } };
  const restored = await withRenderSlot(() => restoreFirst(original, signal, jobSubjects(t.hints), colorizerFor()));
  await storage.put(paths.originalView(t.id), await makePreview(restored.image, t.id), 'image/jpeg');
  return {
    still: restored.image,
    hints: { restoreFirst: true, restoreReason, restoreMethod: restored.method, animateFaces, originalViewPath: paths.originalView(t.id) },
  };
}
