import sharp from 'sharp';
import type { ChromaPlanes, Colorizer } from './colorizer';
import { exemplarColorizer } from './exemplar';
import type { HealMark } from './heal';
import { propagateHints, type ColorHint } from './hints';
import { inspectImage, openImage } from './inspect';
import { labToRgbBuffer, rgbBufferToL, rgbBufferToLab } from './lab';
import { PIPELINES } from './pipelines';
import { downsample, fitSize, guidedUpsampleRows, resize } from './planes';
import { detectTone, restoreLuminance } from './restore';
import type { ImageModel, Tone } from '../../../src/lib/tool/image-schema';
import { createColorizer } from './select';

export type RestoreResult = {
  image: Buffer;
  width: number;
  height: number;
  tone: Tone;
  method: string;
  timings: Record<string, number>;
  /** With `originalViewSide`: the original as a display JPEG of at most that side, from the same decode. */
  originalView?: Buffer;
};

export type RestoreOpts = {
  model: ImageModel;
  prompt?: string;
  hints?: ColorHint[];
  /** Overrides the environment's choice (tests, benchmark). */
  colorizer?: Colorizer;
  /**
   * A colour photo (validated bytes) whose colours a grey or sepia photo takes, by exemplar transfer from
   * that one photo instead of the library or a configured model. Ignored for colour photos.
   */
  reference?: Buffer;
  /** Damage the buyer marked by hand (heal brush), removed after the automatic pass; kept through re-renders. */
  heal?: HealMark[];
  /** The caller already inspected these bytes (inspectImage): not again. */
  inspected?: boolean;
  /** Also return the original as a display JPEG of at most this side (the tool shows it beside the result). */
  originalViewSide?: number;
  /**
   * Diagnostics (benchmark): the damage to remove, when it is known, instead of the automatic detection: 0/1 at
   * the photo's size, for photos within the model's working size. Measures the filling apart from the detection.
   */
  knownDamage?: Uint8Array;
  /** Diagnostics (benchmark): receives the mask of the damage the restoration removed. */
  onDamageMask?: (mask: Uint8Array, width: number, height: number) => void;
};

/** Removes the colour cast of a colour photo: shifts chroma so near-neutral pixels average to grey. */
function correctCast(ch: ChromaPlanes): void {
  let sa = 0, sb = 0, n = 0;
  for (let i = 0; i < ch.a.length; i++) {
    if (Math.hypot(ch.a[i], ch.b[i]) < 18) { sa += ch.a[i]; sb += ch.b[i]; n++; }
  }
  if (n < ch.a.length * 0.05) return;
  const da = (0.8 * sa) / n, db = (0.8 * sb) / n;
  for (let i = 0; i < ch.a.length; i++) { ch.a[i] -= da; ch.b[i] -= db; }
}

/** Stylised grade for the artistic pipeline: chroma gain, warm highlights, cool shadows. */
function grade(L: Float32Array, ch: ChromaPlanes, saturation: number, splitTone: boolean): void {
  for (let i = 0; i < ch.a.length; i++) {
    let a = ch.a[i] * saturation, b = ch.b[i] * saturation;
    if (splitTone) {
      const t = (L[i] - 50) / 50; // −1 shadows … +1 highlights
      a += 4 * t; b += 10 * t;
    }
    ch.a[i] = a; ch.b[i] = b;
  }
}

/** Whether a photo is grey, sepia or in colour, from a small copy (tone needs only statistics). */
export async function photoTone(bytes: Buffer): Promise<Tone> {
  const { data, info } = await openImage(bytes).resize(128, 128, { fit: 'inside' }).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  const lab = rgbBufferToLab(data, info.width, info.height, info.channels);
  return detectTone(lab.a, lab.b);
}

/**
 * Restores an old photo and, when it is grey or sepia, colorizes it. Returns a full-resolution JPEG
 * without metadata. Throws ImageInputError for files the buyer must replace.
 */
export async function restoreAndColorize(bytes: Buffer, opts: RestoreOpts): Promise<RestoreResult> {
  const timings: Record<string, number> = {};
  let t = performance.now();
  const lap = (k: string) => { const now = performance.now(); timings[k] = (timings[k] ?? 0) + now - t; t = now; };
  const pipe = PIPELINES[opts.model];
  if (!pipe) throw new Error(`Unknown model ${opts.model}`);

  if (!opts.inspected) await inspectImage(bytes, ['jpeg', 'png', 'tiff']);
  const img = openImage(bytes).flatten({ background: '#ffffff' }).toColourspace('srgb');
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const W = info.width, H = info.height, N = W * H;
  // The display copy of the original comes from this one decode (a 12 MP TIFF is not decoded twice).
  const originalView = opts.originalViewSide
    ? await sharp(data, { raw: { width: W, height: H, channels: info.channels } })
        .resize(opts.originalViewSide, opts.originalViewSide, { fit: 'inside', withoutEnlargement: true })
        .jpeg({ quality: 88 })
        .toBuffer()
    : undefined;
  lap('decode');

  // Chroma and tone from a small copy: tone needs only statistics, chroma is rebuilt guided by L*.
  const cs = fitSize(W, H, pipe.colourSide);
  const small = await sharp(data, { raw: { width: W, height: H, channels: info.channels } })
    .resize(cs.width, cs.height, { kernel: 'linear' })
    .raw()
    .toBuffer();
  const smallLab = rgbBufferToLab(small, cs.width, cs.height, info.channels);
  const tone = detectTone(smallLab.a, smallLab.b);
  const L0 = rgbBufferToL(data, N, info.channels);
  lap('analyse');

  const { L, report } = await restoreLuminance(L0, W, H, pipe.restore, timings, opts.heal, opts.knownDamage);
  opts.onDamageMask?.(report.mask, report.maskWidth, report.maskHeight);
  t = performance.now();
  const Llow = downsample(L, W, H, cs.width, cs.height);
  lap('downsample');

  let chroma: ChromaPlanes;
  let method: string;
  if (tone === 'colour') {
    chroma = { a: smallLab.a, b: smallLab.b, width: cs.width, height: cs.height };
    correctCast(chroma);
    method = 'restoration; original colours kept (cast corrected)';
  } else {
    const colorizer = opts.reference
      ? exemplarColorizer({ reference: opts.reference })
      : opts.colorizer ?? createColorizer(process.env, opts.prompt ? { prompt: opts.prompt } : {});
    try {
      chroma = await colorizer.colorize({ L: Llow, width: cs.width, height: cs.height }, { quality: pipe.quality });
      method = opts.reference ? 'restoration + colour transfer from the reference photo' : `restoration + ${colorizer.id} colorization`;
    } catch (e) {
      // The buyer's own cancel is not a failure to hide behind the offline method.
      if (colorizer.id === 'exemplar' || (e instanceof Error && e.name === 'AbortError')) throw e;
      // A configured backend failed: deliver the offline result rather than nothing, and say so.
      chroma = await exemplarColorizer().colorize({ L: Llow, width: cs.width, height: cs.height }, { quality: pipe.quality });
      method = `restoration + exemplar colorization (fallback: ${e instanceof Error ? e.message : String(e)})`;
    }
    if (chroma.width !== cs.width || chroma.height !== cs.height) {
      chroma = {
        a: resize(chroma.a, chroma.width, chroma.height, cs.width, cs.height),
        b: resize(chroma.b, chroma.width, chroma.height, cs.width, cs.height),
        width: cs.width,
        height: cs.height,
      };
    }
  }
  lap('colorize');

  if (opts.hints?.length) {
    chroma = propagateHints(Llow, cs.width, cs.height, chroma, opts.hints);
    method += ` + ${opts.hints.length} colour hint${opts.hints.length > 1 ? 's' : ''}`;
    lap('hints');
  }
  grade(Llow, chroma, pipe.saturation, pipe.splitTone);

  // Chroma back to full resolution, edges taken from the restored full-resolution L*.
  const r = 2, eps = 16;
  const rgb = new Uint8Array(N * 3);
  guidedUpsampleRows(L, W, H, Llow, [chroma.a, chroma.b], cs.width, cs.height, r, eps, (Y, [a, b]) =>
    labToRgbBuffer(L.subarray(Y * W, (Y + 1) * W), a, b, rgb, Y * W * 3));
  lap('compose');
  const image = await sharp(rgb, { raw: { width: W, height: H, channels: 3 } })
    .jpeg({ quality: 90, chromaSubsampling: '4:4:4' })
    .toBuffer();
  lap('encode');
  return { image, width: W, height: H, tone, method, timings, originalView };
}
