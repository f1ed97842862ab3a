import { DEFAULTS_UPLOAD_SIDE, INLINE_UPLOAD_MAX_BYTES, REFERENCE_UPLOAD_SIDE, fileType, previewUrl, type ToolKind } from './constants';
import { MSG } from '../messages';
import { $purchases, type Purchases } from '../cart-state';
import { ownerHeaders, rememberOwnerSecret } from '../owner-secrets';
import { $taken } from './package-state';
import type { z } from '../zod';
import { ApiError, jsonOf, readAnswer, requestJson } from '../api-answer';
import { imageAnswerSchema, type ColorHint, type HealMark, type ImageAnswer } from './image-schema';
import { transformationStatusSchema, type TransformationStatus } from './status-schema';
import { uploadGrantSchema, type UploadGrantRequest } from './upload-schema';
import { DEFAULT_VIDEO_RESOLUTION, VIDEO_DURATION_SECONDS, type VideoResolution } from './video-modes';
import { videoDefaultsSchema, videoJobAnswerSchema, type DetectedSubject, type VideoDefaults } from './video-schema';
import { publicHealthSchema, type PublicHealth } from '../health';

/**
 * Browser side of the tool's API. Small files go inline (multipart for images, a data URL for videos);
 * files over INLINE_UPLOAD_MAX_BYTES (Netlify's 6 MB function body cap, minus encoding overhead) are sent
 * straight to storage through a signed upload first. Every call returns the server's message on failure. An item's
 * owner secret (../owner-secrets.ts) is kept from the answer that made it and sent with every request about it.
 * Every answer is read with the schema the function builds it from (../api-answer.ts): one that does not match is
 * the same ApiError as a refusal, with the tab's own failure message.
 */
export { ApiError };
export type { ColorHint, HealMark, TransformationStatus };
export type ImageResult = Omit<ImageAnswer, 'error' | 'ownerSecret'>;

export interface VideoResult {
  transformationId: string;
  videoUrl: string;
  originalImageUrl: string | null;
  /** The clean file's size (it sets the price). */
  resolution: VideoResolution;
  /** The watermarked restored still the clip was made from, when it was restored first. */
  stillUrl?: string | null;
}

type Progress = (fraction: number) => void;

/** XMLHttpRequest, because fetch cannot report upload progress. */
function send(method: string, url: string, body: XMLHttpRequestBodyInit, headers: Record<string, string>, onProgress?: Progress): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(method, url);
    for (const [k, v] of Object.entries(headers)) xhr.setRequestHeader(k, v);
    if (onProgress) xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new ApiError(MSG.networkError, 0));
    xhr.send(body);
  });
}

/** An XMLHttpRequest's answer, read with its schema (../api-answer.ts). */
function parse<S extends z.ZodType>(schema: S, res: { status: number; text: string }, fallback: string): z.output<S> {
  return readAnswer(schema, res.status, jsonOf(res.text), fallback);
}

const jsonRequest = <S extends z.ZodType>(schema: S, method: string, url: string, body: unknown, fallback: string, headers: Record<string, string> = {}) =>
  requestJson(schema, method, url, { body, headers, fallback });

/** Signed direct upload for large files; returns the upload id to process by. */
export async function uploadLarge(kind: ToolKind, file: File, onProgress?: Progress): Promise<string> {
  const contentType = fileType(file);
  const request: UploadGrantRequest = { kind, contentType, size: file.size };
  const grant = await jsonRequest(uploadGrantSchema, 'POST', '/api/tool-uploads', request, MSG.uploadFailed);
  // The storage's own answer (local disk or Supabase Storage): only its status is ours to read.
  const stored = await send(grant.upload.method, grant.upload.url, file, grant.upload.headers, onProgress);
  if (stored.status < 200 || stored.status >= 300) throw new ApiError(MSG.uploadFailed, stored.status);
  return grant.uploadId;
}

/** A new item: its owner secret is kept (the answer that made it is the only one that carries it). */
function owned<T extends { transformationId: string; ownerSecret?: string }>(made: T): Omit<T, 'ownerSecret'> {
  const { ownerSecret, ...item } = made;
  rememberOwnerSecret(made.transformationId, ownerSecret);
  return item;
}

export async function processImage(file: File, options: { model: string; prompt: string }, onProgress?: Progress): Promise<ImageResult> {
  if (file.size > INLINE_UPLOAD_MAX_BYTES) {
    const uploadId = await uploadLarge('image', file, onProgress);
    return owned(await jsonRequest(imageAnswerSchema, 'POST', '/api/process-image', { uploadId, ...options }, MSG.imageError()));
  }
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('model', options.model);
  form.append('prompt', options.prompt);
  return owned(parse(imageAnswerSchema, await send('POST', '/api/process-image', form, {}, onProgress), MSG.imageError()));
}

const itemUrl = (transformationId: string, part?: string) => `/api/transformations/${encodeURIComponent(transformationId)}${part ? `/${part}` : ''}`;

export function applyHints(transformationId: string, hints: ColorHint[]): Promise<ImageResult> {
  return jsonRequest(imageAnswerSchema, 'POST', itemUrl(transformationId, 'hints'), { hints }, MSG.imageError(), ownerHeaders(transformationId));
}

/** Re-renders with the full list of heal marks (they replace the stored ones; an empty list clears). */
export function applyHeal(transformationId: string, marks: HealMark[]): Promise<ImageResult> {
  return jsonRequest(imageAnswerSchema, 'POST', itemUrl(transformationId, 'heal'), { marks }, MSG.imageError(), ownerHeaders(transformationId));
}

/**
 * A reduced JPEG copy of a photo, so a large camera file uploads quickly and stays under the function body
 * cap; the file itself when the browser cannot decode it (TIFF), the server then decides.
 */
async function reducedCopy(file: File, side: number): Promise<Blob> {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, side / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement('canvas');
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext('2d')!.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    bitmap.close();
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
    return blob ?? file;
  } catch {
    return file;
  }
}

/** Colours the result from the buyer's colour photo; `null` goes back to automatic colours. */
export async function applyReference(transformationId: string, file: File | null): Promise<ImageResult> {
  const url = itemUrl(transformationId, 'reference');
  if (!file) return jsonRequest(imageAnswerSchema, 'DELETE', url, undefined, MSG.imageError(), ownerHeaders(transformationId));
  const form = new FormData();
  form.append('file', await reducedCopy(file, REFERENCE_UPLOAD_SIDE), 'reference.jpg');
  return parse(imageAnswerSchema, await send('POST', url, form, ownerHeaders(transformationId)), MSG.imageError());
}

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(new ApiError(MSG.uploadFailed, 0));
    reader.readAsDataURL(file);
  });
}

/**
 * What the video tab offers for a chosen photo, as the server judges it: a reduced copy of a file is sent; for
 * "Animate this photo" the finished image's id (the server reads its restored file).
 */
export async function videoDefaults(source: File | { imageId: string }): Promise<VideoDefaults> {
  if (!(source instanceof File)) return jsonRequest(videoDefaultsSchema, 'POST', '/api/video-defaults', { fromImageId: source.imageId }, MSG.videoError, ownerHeaders(source.imageId));
  const form = new FormData();
  form.append('file', await reducedCopy(source, DEFAULTS_UPLOAD_SIDE), 'photo.jpg');
  return parse(videoDefaultsSchema, await send('POST', '/api/video-defaults', form, {}), MSG.videoError);
}

export type VideoJobOptions = {
  prompt: string;
  mode: string;
  resolution: VideoResolution;
  restoreFirst: boolean;
  animateFaces: boolean;
  /** The detector's boxes from the photo's defaults, when they arrived before the job started. */
  subjects?: DetectedSubject[];
};

/** "Animate this photo": a clip made from a finished image result (the server reads its restored file). */
export async function startVideoFromImage(imageId: string, options: Omit<VideoJobOptions, 'restoreFirst'>): Promise<{ transformationId: string }> {
  const { prompt, mode, resolution, animateFaces, subjects } = options;
  const body = { fromImageId: imageId, prompt, mode, resolution, animateFaces, subjects, duration: VIDEO_DURATION_SECONDS, watermark: true };
  return owned(await jsonRequest(videoJobAnswerSchema, 'POST', '/api/process-video', body, MSG.videoError, ownerHeaders(imageId)));
}

export async function startVideo(file: File, options: VideoJobOptions, onProgress?: Progress): Promise<{ transformationId: string }> {
  const { prompt, mode, resolution, restoreFirst, animateFaces, subjects } = options;
  const common = { prompt, mode, resolution, restoreFirst, animateFaces, subjects, duration: VIDEO_DURATION_SECONDS, watermark: true };
  if (file.size > INLINE_UPLOAD_MAX_BYTES) {
    const uploadId = await uploadLarge('video', file, onProgress);
    return owned(await jsonRequest(videoJobAnswerSchema, 'POST', '/api/process-video', { uploadId, ...common }, MSG.videoError));
  }
  const imageData = await readAsDataUrl(file);
  return owned(await jsonRequest(videoJobAnswerSchema, 'POST', '/api/process-video', { imageData, ...common }, MSG.videoError));
}

export async function getTransformation(id: string): Promise<TransformationStatus> {
  return requestJson(transformationStatusSchema, 'GET', itemUrl(id), { headers: ownerHeaders(id), fallback: MSG.videoError });
}

/** The status, or null when the server no longer knows the id or it is not this browser's (other failures throw). */
async function findTransformation(id: string): Promise<TransformationStatus | null> {
  try {
    return await getTransformation(id);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 400 || error.status === 403 || error.status === 404)) return null;
    throw error;
  }
}

/** A saved image result with fresh signed URLs, as the tab shows it; null when gone or unfinished. */
export async function loadImageResult(id: string): Promise<ImageResult | null> {
  const s = await findTransformation(id);
  if (s?.kind !== 'image' || s.status !== 'completed' || !s.processedUrl || !s.originalUrl) return null;
  const { originalUrl, processedUrl, width = null, height = null, hints = [], healMarks = [], tone = null, reference = false } = s;
  return { success: true, transformationId: id, originalUrl, processedUrl, width, height, hints, healMarks, tone, reference };
}

/** A saved video result with a fresh signed URL; null when gone or unfinished. */
export async function loadVideoResult(id: string): Promise<VideoResult | null> {
  const s = await findTransformation(id);
  if (s?.kind !== 'video' || s.status !== 'completed' || !s.videoUrl) return null;
  return { transformationId: id, videoUrl: s.videoUrl, originalImageUrl: s.originalImageUrl, resolution: s.resolution ?? DEFAULT_VIDEO_RESOLUTION, stillUrl: s.stillUrl ?? null };
}

/** Polls until the job ends; calls onUpdate with every answer. Rejects with the job's error. */
export async function waitForTransformation(
  id: string,
  onUpdate: (s: TransformationStatus) => void,
  { intervalMs = 1500, signal }: { intervalMs?: number; signal?: AbortSignal } = {},
): Promise<TransformationStatus> {
  let failures = 0;
  for (;;) {
    if (signal?.aborted) throw new DOMException('aborted', 'AbortError');
    try {
      const s = await getTransformation(id);
      failures = 0;
      onUpdate(s);
      if (s.status === 'completed') return s;
      if (s.status === 'failed') throw new ApiError(s.error || MSG.videoError, 200);
    } catch (error) {
      if (error instanceof ApiError && (error.status === 200 || error.status === 404)) throw error;
      if (++failures >= 5) throw error;
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export type VideoAvailability = 'unknown' | 'available' | 'unavailable';

// One /api/health request per page, shared by the islands that read it: its public answer (ok, whether
// videos can be made, the payment mode), which it gives with 503 too when the site is unwell.
// An answer that does not match its schema counts as none.
let health: Promise<PublicHealth | null> | undefined;
function fetchHealth(): Promise<PublicHealth | null> {
  health ??= fetch('/api/health', { cache: 'no-store' })
    .then(async (res) => publicHealthSchema.safeParse(jsonOf(await res.text())).data ?? null)
    .catch(() => null);
  return health;
}

/** The video tab's connection test on load. The health answer's `video.available` decides; no answer → available. */
export async function checkVideoAvailability(): Promise<VideoAvailability> {
  const data = await fetchHealth();
  return data?.video?.available === false ? 'unavailable' : 'available';
}

/** How the cart is paid on this deploy (`demo`, `stripe`), or null while unknown. */
export async function paymentMode(): Promise<string | null> {
  return (await fetchHealth())?.payments?.mode ?? null;
}

/** Saves a URL's bytes under `filename` (fetched as a blob so the name sticks across origins). */
export async function downloadAs(url: string, filename: string): Promise<void> {
  const res = await fetch(url);
  if (!res.ok) throw new ApiError(MSG.downloadFailed, res.status);
  const blob = await res.blob();
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 1000);
}

/**
 * What the result panel's Download saves: the clean file once the result is bought (its
 * download link from the order; the server checks the purchase) or taken with a package (its package-signed link), else the watermarked preview through its
 * stable route, so neither depends on a signed URL that may have expired while the page stayed open.
 */
export function downloadSource(kind: ToolKind, transformationId: string, purchases: Purchases, now = Date.now(), taken: Record<string, string> = {}) {
  const clean = purchases[transformationId] ?? taken[transformationId];
  return {
    url: clean ?? previewUrl(transformationId),
    filename: kind === 'image' ? `restored-image-${now}.jpg` : `generated-video-${now}.mp4`,
    clean: clean !== undefined,
  };
}

export function downloadResult(kind: ToolKind, transformationId: string): Promise<void> {
  const { url, filename } = downloadSource(kind, transformationId, $purchases.get(), Date.now(), $taken.get());
  return downloadAs(url, filename);
}
