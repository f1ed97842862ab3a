/**
 * Shared constants of the transformation tool (browser and server): accepted types, the upload paths'
 * limits, timings and the default prompts. Browser-safe (no Node imports).
 */
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/tiff'] as const;
export const VIDEO_TYPES = ['image/jpeg', 'image/png'] as const;
/** `accept` attribute of the tool's file inputs: the types, plus extensions for browsers that report none. */
export const FILE_ACCEPT = {
  image: 'image/jpeg,image/png,image/tiff,.jpg,.jpeg,.png,.tif,.tiff',
  video: 'image/jpeg,image/png,.jpg,.jpeg,.png',
} as const;
export const TOOL_KINDS = ['image', 'video'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];

/** Netlify's cap on a function's request body. */
export const FUNCTION_BODY_MAX_BYTES = 6 * 1024 * 1024;
/** Files up to this size are sent inline (multipart / data URL), leaving room under FUNCTION_BODY_MAX_BYTES for encoding. */
export const INLINE_UPLOAD_MAX_BYTES = 4 * 1024 * 1024;
/** Larger files go straight to storage through a signed upload, up to 15 MB: the one upload size limit. */
export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const MAX_UPLOAD_MB = MAX_UPLOAD_BYTES / (1024 * 1024);
/** Length of the buyer's instructions (both tabs). The text areas set no maxLength: a longer text gets the
 * schema's message on submit instead of being cut silently. */
export const PROMPT_MIN = 5;
export const PROMPT_MAX = 200;

export const DEFAULT_IMAGE_PROMPT = 'Turn this image into color and enhance its quality with natural-looking details';
export const DEFAULT_VIDEO_PROMPT = 'Slowly zoom in on the subject with a gentle, cinematic camera move';

/**
 * A result's watermarked preview through a link that never expires: the server answers with a redirect to a
 * fresh signed URL (cart thumbnails kept in localStorage, preview downloads).
 */
export const previewUrl = (transformationId: string) => `/api/transformations/${encodeURIComponent(transformationId)}/preview`;

/** Long side of the copy the video tab's defaults are judged on (tone statistics, faces and the detector's boxes). */
export const DEFAULTS_UPLOAD_SIDE = 640;
/**
 * The largest photo /api/video-defaults takes (long side, read from the header before anything is decoded): the tab
 * sends a DEFAULTS_UPLOAD_SIDE copy, and the vision models gain nothing past 1280 px.
 */
export const DEFAULTS_MAX_SIDE = 2 * DEFAULTS_UPLOAD_SIDE;
/** Long side of the copy of a colour reference photo the image tab sends: only its colours' layout is used (at 320 px). */
export const REFERENCE_UPLOAD_SIDE = 1024;
/**
 * The largest colour reference photo taken (long side, from the header): browsers cannot reduce a TIFF, so one is
 * sent as it is, and this leaves room for a scanned print (a 6 × 4 in print at 600 dpi is 3600 px).
 */
export const REFERENCE_MAX_SIDE = 4096;

/** Poll interval of a running video job. */
export const VIDEO_POLL_MS = 1500;

export const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/tiff': 'tif' };

/** The type a browser File really is, from its name when the browser reports none (TIFF often). */
export function fileType(file: { type: string; name: string }): string {
  const type = file.type.toLowerCase();
  if (type === 'image/jpg' || type === 'image/pjpeg') return 'image/jpeg';
  if (type === 'image/tif') return 'image/tiff';
  if (type) return type;
  const ext = file.name.split('.').pop()?.toLowerCase();
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  if (ext === 'png') return 'image/png';
  if (ext === 'tif' || ext === 'tiff') return 'image/tiff';
  return '';
}

export function isAcceptedFile(kind: ToolKind, file: { type: string; name: string }): boolean {
  const list: readonly string[] = kind === 'image' ? IMAGE_TYPES : VIDEO_TYPES;
  return list.includes(fileType(file));
}

/** Adds a cache-busting time-stamp query, keeping the signature query intact. */
export function withTimestamp(url: string, now = Date.now()): string {
  if (!url) return url;
  return `${url}${url.includes('?') ? '&' : '?'}t=${now}`;
}
