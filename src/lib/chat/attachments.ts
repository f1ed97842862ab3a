/**
 * How an attached file reaches the model: images only for vision
 * models, plain-text files inlined for every model, anything else named but not sent.
 */
export type AttachmentKind = 'image' | 'text' | 'other';

const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg'];
const TEXT_EXTENSIONS = ['.txt', '.csv', '.md'];
const IMAGE_MIME = /^image\/(png|jpeg)$/;
const TEXT_MIME = /^text\/(plain|csv|markdown)$/;

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot === -1 ? '' : filename.slice(dot).toLowerCase();
}

/** Extension first (what the picker filters on), MIME type as a fallback for unnamed blobs. */
export function classifyAttachment(filename: string, mimeType = ''): AttachmentKind {
  const ext = extensionOf(filename);
  if (IMAGE_EXTENSIONS.includes(ext)) return 'image';
  if (TEXT_EXTENSIONS.includes(ext)) return 'text';
  if (!ext && IMAGE_MIME.test(mimeType)) return 'image';
  if (!ext && TEXT_MIME.test(mimeType)) return 'text';
  return 'other';
}

export interface ParsedDataUrl {
  mimeType: string;
  base64: string;
}

const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?(?:;[\w-]+=[\w.-]+)*;base64,([A-Za-z0-9+/]*={0,2})$/;

export function parseDataUrl(url: string): ParsedDataUrl | null {
  const match = DATA_URL.exec(url);
  if (!match) return null;
  return { mimeType: (match[1] ?? 'application/octet-stream').toLowerCase(), base64: match[2] ?? '' };
}

export function isImageDataUrl(url: string): boolean {
  const parsed = parseDataUrl(url);
  return parsed !== null && /^image\/(png|jpeg|gif|webp)$/.test(parsed.mimeType);
}

/** The bracketed tag the picker puts in front of the input. */
export function fileTag(filename: string): string {
  return `[${filename}]`;
}

/** Input text with the tag of `filename` in front, replacing the tag of a previously chosen file. */
export function withFileTag(input: string, filename: string, previous?: string): string {
  let rest = input;
  if (previous && rest.startsWith(fileTag(previous))) rest = rest.slice(fileTag(previous).length).trimStart();
  return `${fileTag(filename)} ${rest}`;
}

/**
 * The data URL worth uploading for a file: the server names (but never sends upstream) files the model
 * cannot use, so for those only the header travels, saving the visitor's upload.
 */
export function uploadDataUrl(filename: string, dataUrl: string, visionModel: boolean): string {
  const parsed = parseDataUrl(dataUrl);
  const kind = classifyAttachment(filename, parsed?.mimeType);
  if (kind === 'text' || (kind === 'image' && visionModel)) return dataUrl;
  return `data:${parsed?.mimeType ?? 'application/octet-stream'};base64,`;
}
