import type { ChromaPlanes } from '../colorizer';
import { propagateHints } from '../hints';
import { labToRgbBuffer, downsample, fitSize, resize } from '../../shared';
import type { PhotoAnalysis, Subject } from '../../vision';
import { PORTRAIT, portraitHints } from './hints';

// The colour stage's view of who is in a grey or sepia photo: the vision module run once on the restored L*
// (as a grey image), its person mask handed to the exemplar transfer and its faces turned into soft hints.

/** Long side the restored photo is analysed at: the face and person models gain nothing from more. */
export const PORTRAIT_SIDE = 1024;

export type Portrait = { analysis: PhotoAnalysis; /** Analysed pixels per photo pixel. */ scale: number };

/**
 * The vision module's reading of the restored L* (W × H), or null when it found no face. `known`: the detector's
 * boxes found on the photo before (shares of it), taken as its answer.
 */
export async function analysePortrait(L: Float32Array, W: number, H: number, known?: Subject[]): Promise<Portrait | null> {
  const { width, height } = fitSize(W, H, Math.min(PORTRAIT_SIDE, Math.max(W, H)));
  const small = width === W && height === H ? L : downsample(L, W, H, width, height);
  const zero = new Float32Array(small.length);
  const data = labToRgbBuffer(small, zero, zero);
  // Loaded on first use: TensorFlow.js and the models are needed only for grey and sepia photos.
  const { analysePhoto, fromShares } = await import('../../vision/index');
  const image = { data, width, height, channels: 3 as const };
  // Faces first, alone (the cheap models): a photo without a face is coloured as the exemplar transfer alone
  // colours it, and pays neither the object detector nor the segmentation (most of the vision stage's time).
  const found = await analysePhoto(image, { faces: true, people: false, subjects: false });
  if (!found.faces.length) return null;
  // Then everything together: the segmentation looks again around the faces and the detector's people.
  return { analysis: await analysePhoto(image, known ? { knownSubjects: fromShares(known, width, height) } : {}), scale: width / W };
}

/**
 * The people someone other than the segmentation vouches for: the object detector's person boxes, or the head
 * and shoulders of a face. On grey photos without anyone in them the segmentation alone marks most of the frame
 * at times (a bowl of fruit 88 %, a leaf 98 % of the fixtures), so its own regions are not used.
 */
function vouchedPeople(analysis: PhotoAnalysis) {
  return analysis.people?.people.filter((p) => p.source !== 'segmentation') ?? [];
}

/** The person probability at w × h inside the vouched people's boxes (0 elsewhere), or undefined without any. */
export function personPlane(p: Portrait | null, w: number, h: number): Float32Array | undefined {
  const people = p?.analysis.people;
  const vouched = p ? vouchedPeople(p.analysis) : [];
  if (!people || !vouched.length) return undefined;
  const inBoxes = new Float32Array(people.mask.length);
  for (const { box } of vouched) {
    const x0 = Math.max(0, Math.floor(box.x)), x1 = Math.min(people.width, Math.ceil(box.x + box.width));
    const y0 = Math.max(0, Math.floor(box.y)), y1 = Math.min(people.height, Math.ceil(box.y + box.height));
    for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) inBoxes[y * people.width + x] = people.mask[y * people.width + x]!;
  }
  return resize(inBoxes, people.width, people.height, w, h);
}

/** The chroma with the faces' soft hints propagated (unchanged, and `faces` 0, when there is no face). */
export function withFaceColours(p: Portrait | null, L: Float32Array, w: number, h: number, chroma: ChromaPlanes, W: number): { chroma: ChromaPlanes; faces: number } {
  if (!p?.analysis.faces.length) return { chroma, faces: 0 };
  const soft = portraitHints(p.analysis, L, w, h, w / (W * p.scale), personPlane(p, w, h));
  if (!soft) return { chroma, faces: 0 };
  return { chroma: propagateHints(L, w, h, chroma, [], { soft, lambda: PORTRAIT.lambda }), faces: p.analysis.faces.length };
}
