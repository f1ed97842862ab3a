import type { SoftHints } from '../hints';
import type { PhotoAnalysis } from '../../vision';
import { faceRegions } from './regions';
import { SKIN_PRIOR, skinChroma } from './skin-prior';

// Colour where families look first: the faces the vision module finds become soft hints for the colour
// stage's propagation (hints.ts), so the automatic chroma there leans to skin, lips and hair colours while L*
// edges still bound them. Skin takes the prior's chroma at each pixel's own L* (skin-prior.ts); the neck, arms
// and hands are the person mask's pixels of the face's skin lightness that connect to it; lips are the skin's
// chroma shifted by the prior's lips offset; the eye openings are kept nearly neutral; hair (the person's
// pixels above and beside the face, darker than its skin) takes a darker, less saturated share of the skin's
// chroma. Clothes and background get no hint: the colour stage's own chroma stays there.

/** Soft weights (see SoftHints): strong on the mesh's own regions, weaker where the person mask extends them. */
export const PORTRAIT = {
  face: 1,
  lips: 1,
  eyes: 0.6,
  /** Skin the person mask connects to the face (neck, arms, hands). */
  body: 0.5,
  hair: 0.4,
  /** Hair chroma as a share of the skin's at the same L*: "darker and less saturated". */
  hairChroma: 0.35,
  /** The eye opening's chroma as a share of the skin's (whites and iris: little colour). */
  eyeChroma: 0.2,
  /** Lightness range of skin beyond the face: its 10th to 90th percentile, widened by this many L*. */
  bodyMargin: 4,
  /** Person-mask probability from which a pixel belongs to the person. */
  person: 0.5,
  /** The pull of the automatic chroma in the propagation: the hints' colour fades within a few pixels past their regions. */
  lambda: 0.05,
} as const;

function percentile(v: number[], q: number): number {
  const s = v.slice().sort((p, r) => p - r);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1)))]!;
}

/** Pixels reached from `seed` through 4-neighbours for which `ok` holds (the seed itself included). */
function grown(seed: Uint8Array, ok: (i: number) => boolean, w: number, h: number): Uint8Array {
  const reached = seed.slice();
  const stack: number[] = [];
  for (let i = 0; i < seed.length; i++) if (seed[i]) stack.push(i);
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % w, y = (i - x) / w;
    for (const j of [x > 0 ? i - 1 : -1, x < w - 1 ? i + 1 : -1, y > 0 ? i - w : -1, y < h - 1 ? i + w : -1]) {
      if (j < 0 || reached[j] || !ok(j)) continue;
      reached[j] = 1;
      stack.push(j);
    }
  }
  return reached;
}

/**
 * Soft hints for the faces of `analysis` on the chroma plane L (w × h; `scale` = plane px per analysed-image px),
 * `person` the probability of a person there (portrait/index.ts `personPlane`), or null when it found no face.
 */
export function portraitHints(analysis: PhotoAnalysis, L: Float32Array, w: number, h: number, scale: number, person?: Float32Array, prior = SKIN_PRIOR): SoftHints | null {
  const faces = analysis.faces.filter((f) => f.mesh.length >= 468);
  if (!faces.length) return null;
  const r = faceRegions(faces, w, h, scale);
  const skinL: number[] = [];
  for (let i = 0; i < w * h; i++) if (r.skin[i]) skinL.push(L[i]!);
  if (skinL.length < 4) return null;
  const lo = percentile(skinL, 0.1) - PORTRAIT.bodyMargin, hi = percentile(skinL, 0.9) + PORTRAIT.bodyMargin;
  const isPerson = (i: number) => person !== undefined && person[i]! >= PORTRAIT.person;
  // Neck, arms and hands: the person's pixels of skin lightness connected to the face's skin.
  const body = grown(r.skin, (i) => isPerson(i) && !r.face[i] && L[i]! >= lo && L[i]! <= hi, w, h);
  // Hair: the person's pixels darker than the skin in the band above and beside each face.
  const hair = new Uint8Array(w * h);
  for (const f of faces) {
    const bx = f.box.x * scale, by = f.box.y * scale, bw = f.box.width * scale, bh = f.box.height * scale;
    const x0 = Math.max(0, Math.floor(bx - 0.3 * bw)), x1 = Math.min(w - 1, Math.ceil(bx + 1.3 * bw));
    const y0 = Math.max(0, Math.floor(by - 0.6 * bh)), y1 = Math.min(h - 1, Math.ceil(by + 0.6 * bh));
    for (let y = y0; y <= y1; y++) for (let x = x0; x <= x1; x++) {
      const i = y * w + x;
      if (isPerson(i) && !r.face[i] && !body[i] && L[i]! < lo) hair[i] = 1;
    }
  }
  const a = new Float32Array(w * h), b = new Float32Array(w * h), weight = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const [sa, sb] = skinChroma(L[i]!, prior);
    // [share of the skin's chroma, weight] of the region the pixel is in.
    const part: readonly [number, number] | null = r.lips[i] ? [1, PORTRAIT.lips]
      : r.eyes[i] ? [PORTRAIT.eyeChroma, PORTRAIT.eyes]
      : r.skin[i] ? [1, PORTRAIT.face]
      : body[i] ? [1, PORTRAIT.body]
      : hair[i] ? [PORTRAIT.hairChroma, PORTRAIT.hair]
      : null;
    if (!part) continue;
    const [k, wt] = part;
    a[i] = k * sa + (r.lips[i] ? prior.lips.da : 0);
    b[i] = k * sb + (r.lips[i] ? prior.lips.db : 0);
    weight[i] = wt;
  }
  return { a, b, weight };
}
