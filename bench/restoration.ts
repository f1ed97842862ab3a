// Restoration quality of one damaged photo against its truth, and the summary over a set of them: the fixtures'
// revised damage-removal score (also with the true strokes, the fill's ceiling), the detector's precision and
// recall, and the fixture metrics (SSIM, CIEDE2000…). The public fixtures and the generated validation set
// (bench/validation.ts) are scored by the same code.
import sharp from 'sharp';
import { restoreAndColorize } from '../engines/image';
import type { Colorizer } from '../engines/image';
import type { ImageModel } from '../src/lib/tool/image-schema';
import { DAMAGED, damageRemoval, deltaE2000Inside, detectionScore, scoreImage, type DetectionScore, type Scores } from '../tests/support/image-metrics';

/** A damaged photo with what it should have been: `truth` is interleaved RGB at width × height, `damage` the mask there. */
export type PhotoCase = {
  name: string;
  input: Buffer;
  truth: Uint8Array;
  damage: Uint8Array;
  width: number;
  height: number;
  /** The input's own scores (the floor an output has to beat), when known. */
  baseline?: { ssim: number; deltaE2000: number };
  /** The faces' region (0/1 at width × height, bench/faces.ts) of a photo showing people. */
  faces?: Uint8Array;
};

export type RestoreCaseOptions = { model: ImageModel; colorizer: Colorizer; reference?: Buffer; portrait?: boolean };

export type PhotoScore = Scores & {
  name: string;
  tone: string;
  method: string;
  removal: number;
  removalWithTrueMask: number;
  damagedPixels: number;
  detector: DetectionScore;
  /** The input scored as an output (SSIM, CIEDE2000), when the case does not carry its baseline. */
  baseline: { ssim: number; deltaE2000: number };
  /** Mean CIEDE2000 inside the faces' region, output and input, when the case has one. */
  faces?: { deltaE2000: number; input: number; pixels: number };
};

export const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

/** Interleaved RGB of an encoded image at w × h. */
export async function rgbAt(buf: Buffer, w: number, h: number): Promise<Uint8Array> {
  return sharp(buf).rotate().removeAlpha().toColourspace('srgb').resize(w, h, { fit: 'fill' }).raw().toBuffer();
}

/** Nearest-neighbour resampling of a 0/1 mask. */
export function nearestResize(m: Uint8Array, w: number, h: number, W: number, H: number): Uint8Array {
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    const sy = Math.min(h - 1, Math.floor(((y + 0.5) * h) / H));
    for (let x = 0; x < W; x++) {
      const sx = Math.min(w - 1, Math.floor(((x + 0.5) * w) / W));
      out[y * W + x] = m[sy * w + sx]!;
    }
  }
  return out;
}

/**
 * Restores one case twice: as a buyer's photo (the damage detected), and given the painted strokes' bodies
 * (mask ≥ 64) instead of detecting them, which measures the fill apart from the detection.
 */
export async function scoreCase(c: PhotoCase, opts: RestoreCaseOptions): Promise<PhotoScore> {
  const { width, height } = c;
  let detected: Uint8Array | null = null;
  const res = await restoreAndColorize(c.input, {
    ...opts,
    onDamageMask: (m, mw, mh) => {
      detected = mw === width && mh === height ? m.slice() : nearestResize(m, mw, mh, width, height);
    },
  });
  const [out, input] = await Promise.all([rgbAt(res.image, width, height), rgbAt(c.input, width, height)]);
  const scores = scoreImage(out, c.truth, width, height);
  const removal = damageRemoval(out, input, c.truth, c.damage, width, height);
  const { width: iw = 0, height: ih = 0 } = await sharp(c.input).metadata();
  const strokes = Uint8Array.from(c.damage, (v) => (v >= DAMAGED ? 1 : 0));
  const knownDamage = iw === width && ih === height ? strokes : nearestResize(strokes, width, height, iw, ih);
  const known = await restoreAndColorize(c.input, { ...opts, knownDamage });
  const ceiling = damageRemoval(await rgbAt(known.image, width, height), input, c.truth, c.damage, width, height);
  const detector = detectionScore(detected ?? new Uint8Array(width * height), c.damage, width, height);
  let baseline = c.baseline;
  if (!baseline) {
    const own = scoreImage(input, c.truth, width, height);
    baseline = { ssim: own.ssim, deltaE2000: own.deltaE2000 };
  }
  return {
    ...scores,
    name: c.name,
    tone: res.tone,
    method: res.method,
    removal: removal.removal,
    removalWithTrueMask: ceiling.removal,
    damagedPixels: removal.damagedPixels,
    detector,
    baseline,
    faces: c.faces && { deltaE2000: deltaE2000Inside(out, c.truth, c.faces), input: deltaE2000Inside(input, c.truth, c.faces), pixels: c.faces.reduce((s, v) => s + v, 0) },
  };
}

/** Means, pooled detector figures and the engine's quality targets over a set of scored photos. */
export function summarise(photos: PhotoScore[]) {
  const n = photos.length;
  const mean = (f: (p: PhotoScore) => number) => round(photos.reduce((s, p) => s + f(p), 0) / n);
  const pooled = photos.reduce(
    (s, p) => ({
      detected: s.detected + p.detector.counts.detected,
      hits: s.hits + p.detector.counts.hits,
      damaged: s.damaged + p.detector.counts.damaged,
      found: s.found + p.detector.counts.found,
    }),
    { detected: 0, hits: 0, damaged: 0, found: 0 },
  );
  const ssimBetter = photos.filter((p) => p.ssim > p.baseline.ssim).length;
  const portraits = photos.filter((p) => p.faces);
  const deltaEBetter = photos.filter((p) => p.deltaE2000 < p.baseline.deltaE2000).length;
  const meanRemoval = mean((p) => p.removal);
  const lowest = photos.reduce((lo, p) => (p.removal < lo.removal ? p : lo), photos[0]!);
  const detector = {
    meanPrecision: mean((p) => p.detector.precision),
    meanRecall: mean((p) => p.detector.recall),
    pooledPrecision: round(pooled.detected ? pooled.hits / pooled.detected : 1),
    pooledRecall: round(pooled.damaged ? pooled.found / pooled.damaged : 1),
    meanFlaggedPct: mean((p) => p.detector.flaggedPct),
  };
  return {
    count: n,
    mean: {
      removal: meanRemoval,
      removalWithTrueMask: mean((p) => p.removalWithTrueMask),
      ssim: mean((p) => p.ssim),
      deltaE2000: mean((p) => p.deltaE2000),
      psnr: mean((p) => p.psnr),
      colourfulnessOutput: mean((p) => p.colourfulnessOutput),
      colourfulnessTruth: mean((p) => p.colourfulnessTruth),
      colourfulnessRatio: round(photos.reduce((s, p) => s + p.colourfulnessOutput, 0) / photos.reduce((s, p) => s + p.colourfulnessTruth, 0)),
    },
    // Colour where families look first: mean CIEDE2000 inside the faces the mesh finds on the truth, per photo
    // showing people, and over them (each photo alike).
    faces: portraits.length
      ? {
          meanDeltaE2000: round(portraits.reduce((s, p) => s + p.faces!.deltaE2000, 0) / portraits.length),
          inputMeanDeltaE2000: round(portraits.reduce((s, p) => s + p.faces!.input, 0) / portraits.length),
          photos: portraits.map((p) => ({ name: p.name, deltaE2000: round(p.faces!.deltaE2000), input: round(p.faces!.input), pixels: p.faces!.pixels })),
        }
      : undefined,
    baselineMean: { removal: 0, ssim: mean((p) => p.baseline.ssim), deltaE2000: mean((p) => p.baseline.deltaE2000) },
    detector,
    targets: {
      meanRemovalAtLeast93: meanRemoval >= 0.93,
      everyPhotoAtLeast85: `${photos.filter((p) => p.removal >= 0.85).length}/${n} (lowest ${lowest.name} ${(100 * lowest.removal).toFixed(1)} %)`,
      ssimBetterOnEvery: `${ssimBetter}/${n}`,
      deltaE2000Better: `${deltaEBetter}/${n}`,
      detectorPrecisionAtLeast40AtRecall85: detector.pooledPrecision >= 0.4 && detector.pooledRecall >= 0.85,
    },
    table: photos.map((p) => [
      p.name.padEnd(19),
      `removal ${(100 * p.removal).toFixed(1).padStart(5)} % (true strokes ${(100 * p.removalWithTrueMask).toFixed(1).padStart(5)} %)`,
      `SSIM ${p.ssim.toFixed(4)} (input ${p.baseline.ssim.toFixed(4)})`,
      `ΔE2000 ${p.deltaE2000.toFixed(2)} (input ${p.baseline.deltaE2000.toFixed(2)})`,
      `P ${(100 * p.detector.precision).toFixed(0)} % R ${(100 * p.detector.recall).toFixed(0)} %`,
    ].join('  ')),
    images: photos.map((p) => ({
      name: p.name,
      tone: p.tone,
      method: p.method,
      removal: round(p.removal, 3),
      removalWithTrueMask: round(p.removalWithTrueMask, 3),
      damagedPixels: p.damagedPixels,
      detector: {
        precision: round(p.detector.precision, 3),
        recall: round(p.detector.recall, 3),
        flaggedPct: round(p.detector.flaggedPct, 3),
        precisionAnyDamage: round(p.detector.precisionAnyDamage, 3),
      },
      ssim: round(p.ssim),
      deltaE2000: round(p.deltaE2000),
      psnr: round(p.psnr),
      baseline: { ssim: round(p.baseline.ssim), deltaE2000: round(p.baseline.deltaE2000) },
      better: { ssim: p.ssim > p.baseline.ssim, deltaE2000: p.deltaE2000 < p.baseline.deltaE2000 },
    })),
  };
}
