import { randomUUID } from 'node:crypto';
import { HttpError } from '../http';
import { MSG } from '../../../src/lib/messages';
import { getStorage, MAX_UPLOAD_BYTES } from '../storage';
import { claimUploadGrant } from './upload-grants';
import { withTimestamp, EXTENSIONS } from '../../../src/lib/tool/constants';
import { site } from '../../../src/lib/site';

/**
 * Storage layout and links of the transformation tool. Originals, clean results and watermarked previews
 * live in private storage; the browser only ever gets short-lived signed URLs of originals and previews.
 * Clean results are reachable through /api/downloads after purchase, never from here.
 */
export const PREVIEW_URL_TTL_SECONDS = 60 * 60;
export const BRAND = site.brand;

export const paths = {
  original: (id: string, ext: string) => `originals/${id}.${ext}`,
  imageResult: (id: string) => `results/${id}.jpg`,
  imagePreview: (id: string) => `previews/${id}.jpg`,
  /** Bounded JPEG of the original for display (the buyer's own photo, no watermark needed). */
  originalView: (id: string) => `previews/${id}.original.jpg`,
  /** The buyer's colour reference photo for a grey or sepia original (private, like the original). */
  reference: (id: string, ext: string) => `originals/${id}.reference.${ext}`,
  /** The kept automatic pass of an image (the engine's render-cache.ts), so heal and hint re-renders start from it. */
  imagePass: (id: string) => `passes/${id}.bin`,
  videoResult: (id: string) => `results/${id}.mp4`,
  videoPreview: (id: string) => `previews/${id}.mp4`,
  upload: (uploadId: string) => `uploads/${uploadId}`,
};

/** Signed, cache-busted URL of a stored object, or null when there is none. */
export async function viewUrl(path: string | null | undefined): Promise<string | null> {
  if (!path) return null;
  return withTimestamp(await getStorage().signedUrl(path, { expiresIn: PREVIEW_URL_TTL_SECONDS }));
}

export const extensionFor = (format: 'jpeg' | 'png' | 'tiff') => (format === 'jpeg' ? 'jpg' : format === 'png' ? 'png' : 'tif');
export const mimeFor = (format: 'jpeg' | 'png' | 'tiff') => `image/${format}`;

// ——— Direct uploads (files over the inline limit, up to 15 MB) ———

const UPLOAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(jpg|png|tif)$/;

export function newUploadId(contentType: string): string {
  const ext = EXTENSIONS[contentType];
  if (!ext) throw new HttpError(415, 'Unsupported file type');
  return `${randomUUID()}.${ext}`;
}

export function isUploadId(value: unknown): value is string {
  return typeof value === 'string' && UPLOAD_ID.test(value);
}

/**
 * The bytes the browser uploaded under `uploadId` (a 400 when nothing arrived), once: reading it marks its
 * grant used, so the same upload is never processed twice (a second PUT to its link gains nothing).
 */
export async function readUpload(uploadId: string): Promise<Buffer> {
  if (!isUploadId(uploadId)) throw new HttpError(400, 'Invalid upload id');
  const bytes = await getStorage().get(paths.upload(uploadId));
  if (!bytes || bytes.length === 0) throw new HttpError(400, MSG.uploadMissing);
  if (bytes.length > MAX_UPLOAD_BYTES) throw new HttpError(413, MSG.uploadTooLarge);
  if (!(await claimUploadGrant(uploadId))) throw new HttpError(400, MSG.uploadMissing);
  return bytes;
}

/** Deletes the uploaded file; its (used) grant stays until the link expires, when the sweep deletes anything put there since. */
export async function discardUpload(uploadId: string | undefined): Promise<void> {
  if (!uploadId || !isUploadId(uploadId)) return;
  await getStorage().remove([paths.upload(uploadId)]).catch(() => {});
}
