/**
 * How an attached file reaches the model: images only for vision models; documents (plain text, PDF,
 * Word, Excel) read into text by the server for every model; anything else refused with a clear message.
 */
export type DocumentFormat = 'text' | 'pdf' | 'docx' | 'doc' | 'xlsx';
export type AttachmentKind = 'image' | 'document' | 'other';

const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg'];
const DOCUMENT_EXTENSIONS: Record<string, DocumentFormat> = {
  '.txt': 'text',
  '.csv': 'text',
  '.md': 'text',
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.doc': 'doc',
  '.xlsx': 'xlsx',
};
const DOCUMENT_MIME: Record<string, DocumentFormat> = {
  'text/plain': 'text',
  'text/csv': 'text',
  'text/markdown': 'text',
  'application/pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};
const IMAGE_MIME = /^image\/(png|jpeg)$/;

function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot === -1 ? '' : filename.slice(dot).toLowerCase();
}

/** The document format of a file: extension first (what the picker filters on), MIME type for unnamed blobs. */
export function documentFormat(filename: string, mimeType = ''): DocumentFormat | null {
  const ext = extensionOf(filename);
  if (ext) return DOCUMENT_EXTENSIONS[ext] ?? null;
  return DOCUMENT_MIME[mimeType] ?? null;
}

export function classifyAttachment(filename: string, mimeType = ''): AttachmentKind {
  const ext = extensionOf(filename);
  if (IMAGE_EXTENSIONS.includes(ext) || (!ext && IMAGE_MIME.test(mimeType))) return 'image';
  return documentFormat(filename, mimeType) ? 'document' : 'other';
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
 * The data URL worth uploading for a file: an image a model cannot see is named but never sent upstream,
 * so for it only the header travels, saving the visitor's upload. Documents always go: the server reads them.
 */
export function uploadDataUrl(filename: string, dataUrl: string, visionModel: boolean): string {
  const parsed = parseDataUrl(dataUrl);
  const kind = classifyAttachment(filename, parsed?.mimeType);
  if (kind === 'document' || (kind === 'image' && visionModel)) return dataUrl;
  return `data:${parsed?.mimeType ?? 'application/octet-stream'};base64,`;
}

/** What a model receives in place of an image it cannot see, or of an image part without data. */
export function imageNotSentNote(name: string): string {
  return `[The user uploaded a file ("${name}") that this model cannot process. Let them know, and suggest a vision-capable model if they need the image analysed.]`;
}

/** How a document's text is put before the model, in the request that attached it and in every later one. */
export function documentPreamble(filename: string): string {
  return `Contents of the attached file "${filename}":`;
}
