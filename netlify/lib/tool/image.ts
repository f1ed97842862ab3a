import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { HttpError } from '../http';
import { withRenderSlot } from './render-slots';
import { query } from '../db';
import { getStorage } from '../storage';
import { ColorizerError, decodePass, encodePass, ImageInputError, inspectImage, recolourPass, renderPass, restoreAndColorize, type AutomaticPass, type ColorHint, type HealMark, type ImageModel, photoAgeOfPixels } from '../../../engines/image';
import { makePreview, PREVIEW_MAX_SIDE } from '../media/image-preview';
import { uploadWatermarkSeed } from '../../../engines/shared';
import { withoutMetadata } from '../media/strip-metadata';
import { colorizerFor } from '../providers/colorizer';
import type { ImageAnswer } from '../../../src/lib/tool/image-schema';
import { healWork } from '../../../src/lib/tool/heal-budget';
import {
  completeTransformation,
  createTransformation,
  failTransformation,
  getTransformation,
  HEARTBEAT_MS,
  setTransformationPaths,
  touchTransformation,
  type Transformation,
} from '../transformations';

import { MSG } from '../../../src/lib/messages';
import { extensionFor, mimeFor, paths, viewUrl } from './media';
import { newOwnerSecret } from './ownership';
import { TAKEN_BY_LIVE_PACKAGE } from '../packages/allowance';
import { decodeReduced, inspectWithin } from './image-bounds';
import { REFERENCE_MAX_SIDE, REFERENCE_UPLOAD_SIDE } from '../../../src/lib/tool/constants';

/** Maps engine errors to HTTP errors with a message the buyer can act on. */
export function toHttpError(error: unknown): unknown {
  if (error instanceof ImageInputError) return new HttpError(error.status === 413 ? 413 : 400, error.message);
  if (error instanceof ColorizerError) return new HttpError(502, MSG.imageError(error.message));
  return error;
}

export async function answerFor(t: Transformation): Promise<ImageAnswer> {
  const { meta } = t;
  return {
    success: true,
    transformationId: t.id,
    originalUrl: (await viewUrl(meta.originalViewPath ?? t.originalPath))!,
    processedUrl: (await viewUrl(t.previewPath))!,
    width: meta.width ?? null,
    height: meta.height ?? null,
    hints: meta.colorHints,
    healMarks: meta.healMarks,
    tone: meta.tone ?? null,
    reference: !!meta.referencePath,
    error: null,
  };
}

export const hintsOf = (t: Transformation): ColorHint[] => t.meta.colorHints;
export const healMarksOf = (t: Transformation): HealMark[] => t.meta.healMarks;

/**
 * Validates the image by content, stores it (upright, without its metadata: no location is kept or served
 * back), restores and colorizes it, stores the clean result and the watermarked preview and completes the
 * transformation. Nothing is written before validation passes.
 */
export async function processImage(upload: Buffer, opts: { model: ImageModel; prompt: string }, job: BatchOwner = {}): Promise<ImageAnswer> {
  let format: 'jpeg' | 'png' | 'tiff';
  try {
    ({ format } = await inspectImage(upload, ['jpeg', 'png', 'tiff']));
  } catch (error) {
    throw toHttpError(error);
  }
  // Every decode of the photo (the metadata strip, the restoration, the watermark layout's hash) happens in one
  // render slot: at most MAX_CONCURRENT_RENDERS uploads are being decoded on the whole site at once.
  return withRenderSlot(() => restoreUpload(upload, format, opts, job), job.slotWaitMs === undefined ? {} : { waitMs: job.slotWaitMs });
}

/**
 * A batch's photo (netlify/lib/batches) is made for its batch's owner instead of a new owner secret: the allowance
 * whose link is its key, or the batch's own secret hash; it waits longer for a render slot (nobody holds a request open).
 */
export interface BatchOwner {
  allowanceId?: string | null;
  ownerSecretHash?: string | null;
  slotWaitMs?: number;
  /** Told the clean result's size once it is stored (a batch's ZIP is cut into parts by it). */
  onStored?: (resultBytes: number) => void;
}

async function restoreUpload(upload: Buffer, format: 'jpeg' | 'png' | 'tiff', opts: { model: ImageModel; prompt: string }, job: BatchOwner): Promise<ImageAnswer> {
  let bytes: Buffer;
  try {
    bytes = await withoutMetadata(upload, format);
  } catch (error) {
    throw toHttpError(error);
  }
  const batch = job.allowanceId !== undefined || job.ownerSecretHash !== undefined;
  const owner = batch ? null : newOwnerSecret();
  const t = await createTransformation({
    kind: 'image',
    model: opts.model,
    prompt: opts.prompt,
    status: 'processing',
    ownerSecretHash: owner ? owner.hash : (job.ownerSecretHash ?? null),
    allowanceId: job.allowanceId ?? null,
  });
  const storage = getStorage();
  const originalPath = paths.original(t.id, extensionFor(format));
  const written: string[] = [];
  try {
    await storage.put(originalPath, bytes, mimeFor(format));
    written.push(originalPath);
    // A heartbeat while the render (or the hosted colorizer) works, so the stale-job sweep leaves it alone.
    // The bytes are inspected above and decoded once by the render, which also makes the display copy.
    const heartbeat = setInterval(() => void touchTransformation(t.id).catch(() => {}), HEARTBEAT_MS);
    const result = await restoreAndColorize(bytes, { model: opts.model, prompt: opts.prompt, colorizer: colorizerFor(opts.prompt), inspected: true, originalViewSide: PREVIEW_MAX_SIDE })
      .finally(() => clearInterval(heartbeat));
    // The browser shows the original beside the result: a bounded JPEG (TIFF does not display in
    // browsers, and a 15 MB original would be slow to load). The stored original keeps its full size.
    await storage.put(paths.originalView(t.id), result.originalView!, 'image/jpeg');
    written.push(paths.originalView(t.id));
    const preview = await makePreview(result.image, await uploadWatermarkSeed(bytes));
    await storage.put(paths.imageResult(t.id), result.image, 'image/jpeg');
    written.push(paths.imageResult(t.id));
    job.onStored?.(result.image.length);
    await storage.put(paths.imagePreview(t.id), preview, 'image/jpeg');
    written.push(paths.imagePreview(t.id));
    const passPath = await keepPass(t.id, result.pass);
    if (passPath) written.push(passPath);
    await setTransformationPaths(t.id, { originalPath });
    const done = await completeTransformation(t.id, {
      resultPath: paths.imageResult(t.id),
      previewPath: paths.imagePreview(t.id),
      hints: {
        tone: result.tone,
        method: result.method,
        width: result.width,
        height: result.height,
        colorHints: [],
        healMarks: [],
        originalViewPath: paths.originalView(t.id),
        ...(passPath ? { passPath } : {}),
      },
    });
    if (!done) throw new Error('transformation vanished while processing');
    // The owner secret is told once, to the browser that uploaded the photo; the row keeps only its hash.
    return { ...(await answerFor(done)), ...(owner && { ownerSecret: owner.secret }) };
  } catch (error) {
    // The row's error is shown to the buyer: only a message written for them, never raw exception text
    // (which can carry storage paths); the details go to the log.
    const answer = toHttpError(error);
    if (!(answer instanceof HttpError)) console.error('[image] processing failed:', error);
    await failTransformation(t.id, answer instanceof HttpError ? answer.message : MSG.imageError()).catch(() => {});
    await storage.remove(written).catch(() => {});
    throw toHttpError(error);
  }
}

/**
 * Re-renders a finished image with colour hints from its stored original, replaces the clean result and
 * the preview, and stores the hints (keeping its heal marks and reference). Refused once the item is
 * purchased: the buyer's file is final.
 */
export function applyHints(id: string, hints: ColorHint[]): Promise<ImageAnswer> {
  return rerender(id, { hints });
}

/**
 * Re-renders a finished image with the buyer's heal marks (the full set: they replace the stored ones, so an
 * undo sends the list without its last mark and an empty list clears), keeping its hints and reference.
 */
export function applyHeal(id: string, marks: HealMark[]): Promise<ImageAnswer> {
  return rerender(id, { heal: marks });
}

/**
 * Colours a grey or sepia result from the buyer's own colour photo (null: back to automatic colours),
 * keeping its colour hints and heal marks. The reference is validated like an upload, refused from its header when
 * it is larger than REFERENCE_MAX_SIDE, and must itself be in colour. It is decoded once, to the reduced copy the
 * page sends (REFERENCE_UPLOAD_SIDE; its colours are read at 320 px), which is what is kept: re-encoded from its
 * pixels, upright and without any metadata (a TIFF as a PNG).
 */
export async function applyReference(id: string, bytes: Buffer | null): Promise<ImageAnswer> {
  if (!bytes) return rerender(id, { reference: null });
  let format: 'jpeg' | 'png';
  let clean: Buffer;
  try {
    const inspected = await inspectWithin(bytes, ['jpeg', 'png', 'tiff'], REFERENCE_MAX_SIDE);
    const pixels = await decodeReduced(bytes, REFERENCE_UPLOAD_SIDE, REFERENCE_MAX_SIDE * REFERENCE_MAX_SIDE);
    if ((await photoAgeOfPixels(pixels)).tone !== 'colour') throw new HttpError(400, MSG.referenceNotColour);
    format = inspected.format === 'jpeg' ? 'jpeg' : 'png';
    const copy = sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: pixels.channels } });
    clean = await (format === 'jpeg' ? copy.jpeg({ quality: 92, chromaSubsampling: '4:4:4' }) : copy.png()).toBuffer();
  } catch (error) {
    throw toHttpError(error);
  }
  return rerender(id, { reference: { bytes: clean, format } });
}

async function editableTaken(id: string): Promise<boolean> {
  return (await query(`select 1 from media_transformations where id = $1 and ${TAKEN_BY_LIVE_PACKAGE}`, [id])).length > 0;
}

type Rerender = { hints?: ColorHint[]; heal?: HealMark[]; reference?: { bytes: Buffer; format: 'jpeg' | 'png' | 'tiff' } | null };

/**
 * Stores the automatic pass a result was rendered from, so a heal or hint re-render starts from it. Best effort:
 * without it a re-render restores the photo again. Returns its path, or null when it could not be stored.
 */
async function keepPass(id: string, pass: AutomaticPass): Promise<string | null> {
  try {
    await getStorage().put(paths.imagePass(id), await encodePass(pass), 'application/octet-stream');
    return paths.imagePass(id);
  } catch (error) {
    console.error('[image] keeping the automatic pass failed:', error);
    return null;
  }
}

/** The kept automatic pass of a transformation, or null when there is none usable (missing, older engine, other model). */
async function keptPass(t: Transformation): Promise<AutomaticPass | null> {
  if (!t.meta.passPath) return null;
  const bytes = await getStorage().get(t.meta.passPath).catch(() => null);
  return bytes ? decodePass(bytes, (t.model ?? 'sd-xl') as ImageModel) : null;
}

/**
 * The rendering of a re-render. From the kept automatic pass when there is one: only the buyer's marks and hints
 * are applied again, and the colouring is redone only when the colour source changed (a reference photo added,
 * replaced or removed). Without one, the whole restoration runs again from the original and its pass is kept.
 */
/** The upload's watermark layout (uploadWatermarkSeed), remembered per stored original: every heal re-renders. */
const layouts = new Map<string, number>();
async function layoutOf(originalPath: string, original: Buffer): Promise<number> {
  const key = `${process.env.APP_SECRET ?? ''}\n${originalPath}`;
  let seed = layouts.get(key);
  if (seed === undefined) {
    seed = await uploadWatermarkSeed(original);
    if (layouts.size >= 256) layouts.delete(layouts.keys().next().value!);
    layouts.set(key, seed);
  }
  return seed;
}

/** The colour source's key: a hash of the reference photo's bytes, so a replaced photo (same type, same path) is used. */
const referenceKeyOf = (reference: Buffer) => `sha256:${createHash('sha256').update(reference).digest('hex').slice(0, 32)}`;

async function rerenderResult(t: Transformation, original: Buffer, opts: { hints: ColorHint[]; heal: HealMark[]; reference?: Buffer; referenceKey: string | null }) {
  const model = (t.model ?? 'sd-xl') as ImageModel;
  const kept = await keptPass(t);
  if (!kept) {
    const result = await restoreAndColorize(original, { model, prompt: t.prompt ?? undefined, colorizer: colorizerFor(t.prompt), hints: opts.hints, heal: opts.heal, reference: opts.reference, referenceKey: opts.referenceKey ?? undefined });
    return { result, pass: result.pass, passChanged: true };
  }
  const keptKey = kept.colourSource.kind === 'reference' ? kept.colourSource.key : null;
  const recolour = kept.tone !== 'colour' && keptKey !== opts.referenceKey;
  const pass = recolour ? await recolourPass(kept, { reference: opts.reference, referenceKey: opts.referenceKey ?? undefined, prompt: t.prompt ?? undefined, colorizer: colorizerFor(t.prompt) }) : kept;
  const result = await renderPass(pass, { heal: opts.heal, hints: opts.hints });
  return { result, pass, passChanged: recolour };
}

async function rerender(id: string, change: Rerender): Promise<ImageAnswer> {
  const t = await getTransformation(id);
  if (!t || t.kind !== 'image') throw new HttpError(404, MSG.imageNotFound);
  // A result a package took stays editable while its package can be used: a re-render is the same image, never a new one.
  if (t.purchased && !(await editableTaken(id))) throw new HttpError(409, MSG.imageFinal);
  if (t.status !== 'completed' || !t.originalPath) throw new HttpError(409, MSG.imageNotReady);
  if (change.reference && t.meta.tone === 'colour') throw new HttpError(409, MSG.referenceColourResult);
  const storage = getStorage();
  const original = await storage.get(t.originalPath);
  if (!original) throw new HttpError(404, 'The original image is missing. Please upload it again.');
  const hints = change.hints ?? hintsOf(t);
  const heal = change.heal ?? healMarksOf(t);
  const stored = t.meta.referencePath ?? null;
  const referencePath = change.reference === null ? null : change.reference ? paths.reference(id, extensionFor(change.reference.format)) : stored;
  // A stored reference that has gone missing falls back to automatic colours rather than failing.
  const reference = change.reference ? change.reference.bytes : stored && change.reference !== null ? (await storage.get(stored)) ?? undefined : undefined;
  let rendered;
  let layout: number;
  try {
    // The watermark layout's hash decodes the original (once per instance): in the slot, like the render.
    [rendered, layout] = await withRenderSlot(() =>
      Promise.all([
        rerenderResult(t, original, { hints, heal: healWork(heal, t.meta.width ?? 0, t.meta.height ?? 0), reference, referenceKey: reference ? referenceKeyOf(reference) : null }),
        layoutOf(t.originalPath!, original),
      ]),
    );
  } catch (error) {
    throw toHttpError(error);
  }
  const { result } = rendered;
  const preview = await makePreview(result.image, layout);
  if (change.reference) await storage.put(referencePath!, change.reference.bytes, mimeFor(change.reference.format));
  const passPath = rendered.passChanged ? await keepPass(id, rendered.pass) : t.meta.passPath ?? null;
  // Purchase may have happened meanwhile: update only while still unpurchased.
  const meta = { colorHints: hints, healMarks: heal, tone: result.tone, method: result.method, width: result.width, height: result.height, referencePath: reference ? referencePath : null, ...(passPath ? { passPath } : {}) };
  const rows = await query<{ id: string }>(
    `update media_transformations set hints = hints || $2::jsonb
      where id = $1 and status = 'completed' and (not purchased or ${TAKEN_BY_LIVE_PACKAGE}) returning id`,
    [id, JSON.stringify(meta)],
  );
  if (rows.length === 0) {
    if (change.reference && referencePath !== stored) await storage.remove([referencePath!]).catch(() => {});
    throw new HttpError(409, MSG.imageFinal);
  }
  await storage.put(paths.imageResult(id), result.image, 'image/jpeg');
  await storage.put(paths.imagePreview(id), preview, 'image/jpeg');
  if (stored && stored !== referencePath) await storage.remove([stored]).catch(() => {});
  return answerFor((await getTransformation(id))!);
}
