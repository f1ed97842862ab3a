// "Restore & colorize first": the clip's still is the image engine's restoration of the photo (the same pipeline
// and model the image tab uses), so scratches and dust are gone before the camera moves and the clip is in colour.
// Engine-agnostic: the job hands the restored JPEG to whichever video engine renders.

import { restoreAndColorize, type Colorizer } from '../image';
import type { ImageModel } from '../../src/lib/tool/image-schema';
import type { Subject } from '../vision';

/** The image tab's default model: what a buyer restoring the same photo there gets. */
export const RESTORE_FIRST_MODEL: ImageModel = 'sd-xl';

export type RestoredStill = { image: Buffer; tone: string; method: string; timings: Record<string, number> };

/**
 * The restored, colorized photo as a JPEG (full size, no metadata). Throws ImageInputError for a bad file.
 * `subjects`: the detector's boxes from the tab's defaults (shares of the photo), for the colouring's portrait analysis.
 * `colorizer`: the server's choice (a hosted model when configured); the engine's built-in one without it.
 */
export async function restoreFirst(bytes: Buffer, signal?: AbortSignal, subjects?: Subject[], colorizer?: Colorizer): Promise<RestoredStill> {
  if (signal?.aborted) throw signal.reason;
  const result = await restoreAndColorize(bytes, { model: RESTORE_FIRST_MODEL, colorizer, ...(subjects && { knownSubjects: subjects }) });
  return { image: result.image, tone: result.tone, method: result.method, timings: result.timings };
}
