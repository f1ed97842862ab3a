import type { PhotoAnalysis } from '../../vision';
import type { Rgb } from './planes';
import { saliencyMap } from './saliency-map';
import { findSalientSubject, type SubjectSearch } from './subject';
import { visionSubject } from './vision-subject';

/**
 * The subject of a small copy of the still: from the vision models' answer when there is one (people first, then
 * a detected object), otherwise (or when they find nothing usable) from faces in the colours and saliency.
 */
export function findSubject(image: Rgb, vision?: PhotoAnalysis): SubjectSearch {
  const map = saliencyMap(image);
  if (!vision) return findSalientSubject(image, map);
  const seen = visionSubject(image, vision, map);
  if (seen.subject) return seen;
  const fallback = findSalientSubject(image, map);
  return fallback.subject ? { subject: { ...fallback.subject, found: `${fallback.subject.cue} (vision: ${seen.reason})` } } : { ...fallback, reason: `${seen.reason}; ${fallback.reason}` };
}
