// The face regions of the fixtures that show people, for the benchmark's colour-on-faces figure: the vision
// module's face mesh found on the colour original (the truth), its outline filled at the truth's size. Found on
// the truth, not on an output, so every engine version is scored over the same pixels.
import { faceRegions } from '../engines/image';
import { analysePhoto } from '../engines/vision/index';

/** The faces' outline mask (0/1) of an interleaved RGB truth image, or null when no face is found. */
export async function faceMaskOf(truth: Uint8Array, width: number, height: number): Promise<Uint8Array | null> {
  const { faces } = await analysePhoto({ data: truth, width, height, channels: 3 }, { faces: true, people: false, subjects: false });
  if (!faces.length) return null;
  const { face } = faceRegions(faces, width, height, 1);
  return face.some((v) => v) ? face : null;
}
