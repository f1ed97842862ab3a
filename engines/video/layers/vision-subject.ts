// The subject from the vision models (engines/vision): people first — the person segmentation, every person
// in one layer group — then an animal or object the detector boxed, cut out along the photo's edges by GrabCut
// seeded from its box. The same rules as the saliency path keep only a clear subject; what the models found and
// why it was not used goes to the job's record when the saliency path (the fallback) decides instead.

import { resize } from '../../shared';
import type { PhotoAnalysis, Subject as Detected } from '../../vision';
import { grabCut, type Seeds } from './grabcut';
import { hasColour } from './people';
import type { Rgb } from './planes';
import type { SaliencyMap } from './saliency-map';
import { rejection, score, SUBJECT_RULES, textureFeatures, tidy, type SubjectSearch } from './subject';

export const VISION_RULES = {
  /** A segmentation's person probability that counts as person. */
  personProbability: 0.5,
  /** The detector's confidence below which a box is not a subject. */
  minObjectScore: 0.35,
  /** Share of the frame the detector's box must cover (smaller: a detail), and at most (larger: the scene). */
  minBoxArea: 0.03,
  maxBoxArea: 0.8,
  /** The box grown by this share of its size on each side before what lies outside is certain background. */
  boxMargin: 0.06,
} as const;

/** COCO classes that are the setting rather than a subject to lift off it. */
const SETTING = new Set(['dining table', 'bed', 'couch', 'bench', 'train', 'airplane', 'boat', 'tv', 'refrigerator', 'oven', 'sink', 'toilet']);

export function visionSubject(image: Rgb, vision: PhotoAnalysis, map: SaliencyMap): SubjectSearch {
  const people = peopleSubject(image, vision, map);
  if (people.subject) return people;
  const object = objectSubject(image, vision, map);
  if (object.subject) return object;
  return { subject: null, reason: [people.reason, object.reason].filter(Boolean).join('; ') };
}

/** Every person of the segmentation as one mask, kept when it is a clear subject by the person rules. */
function peopleSubject(image: Rgb, vision: PhotoAnalysis, map: SaliencyMap): SubjectSearch {
  const seg = vision.people;
  if (!seg || seg.people.length === 0) return { subject: null, reason: 'no person found' };
  const { width, height } = image;
  const small = resize(seg.mask, seg.width, seg.height, width, height);
  const raw = new Uint8Array(width * height);
  for (let i = 0; i < raw.length; i++) raw[i] = small[i]! >= VISION_RULES.personProbability ? 1 : 0;
  const mask = tidy(raw, new Int8Array(raw.length), width, height);
  const scores = score(image, mask, map.saliency);
  // A segmentation outlines a person: only its size and how much of the border it covers can rule it out.
  const reason = rejection({ ...scores, weakEdge: 0, edgeContrast: Infinity, saliencyGap: Infinity }, true);
  const count = seg.people.length;
  if (reason) return { subject: null, reason: `${count === 1 ? 'a person' : `${count} people`} found, but ${reason}`, scores };
  return {
    subject: {
      mask,
      width,
      height,
      faces: [],
      cue: 'people',
      found: count === 1 ? '1 person' : `${count} people`,
      soft: { mask: seg.mask, width: seg.width, height: seg.height },
      focus: map.focus,
      scores,
    },
  };
}

/** The detector's best animal or object, cut out by GrabCut inside its box; kept by the saliency path's rules. */
function objectSubject(image: Rgb, vision: PhotoAnalysis, map: SaliencyMap): SubjectSearch {
  const { width, height } = image;
  const sx = width / vision.width;
  const sy = height / vision.height;
  const boxArea = (d: Detected) => (d.box.width * d.box.height) / (vision.width * vision.height);
  const best = vision.subjects.find(
    (d) => d.label !== 'person' && !SETTING.has(d.label) && d.score >= VISION_RULES.minObjectScore && boxArea(d) >= VISION_RULES.minBoxArea && boxArea(d) <= VISION_RULES.maxBoxArea,
  );
  if (!best) return { subject: null, reason: 'no animal or object found' };
  const { x, y, width: bw, height: bh } = best.box;
  const m = VISION_RULES.boxMargin;
  const [x0, x1] = [(x - bw * m) * sx, (x + bw * (1 + m)) * sx];
  const [y0, y1] = [(y - bh * m) * sy, (y + bh * (1 + m)) * sy];
  const prior = new Float32Array(width * height);
  const seeds: Seeds = new Int8Array(width * height);
  for (let py = 0; py < height; py++) {
    for (let px = 0; px < width; px++) {
      const i = py * width + px;
      const inside = px + 0.5 >= x * sx && px + 0.5 <= (x + bw) * sx && py + 0.5 >= y * sy && py + 0.5 <= (y + bh) * sy;
      if (px + 0.5 < x0 || px + 0.5 > x1 || py + 0.5 < y0 || py + 0.5 > y1) seeds[i] = -1;
      prior[i] = inside ? 0.35 + 0.5 * map.saliency[i]! : 0.05;
    }
  }
  const raw = grabCut(hasColour(image) ? image : textureFeatures(image), prior, seeds);
  const mask = tidy(raw, seeds, width, height);
  const scores = score(image, mask, map.saliency);
  const reason = scores.area < SUBJECT_RULES.minArea ? 'no subject found' : rejection(scores, false);
  if (reason) return { subject: null, reason: `a ${best.label} found, but ${reason}`, scores };
  return { subject: { mask, width, height, faces: [], cue: 'object', found: best.label, focus: map.focus, scores } };
}
