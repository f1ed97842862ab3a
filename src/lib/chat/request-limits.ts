/**
 * Request limits shared by the island (to stay inside them) and the server (to enforce them).
 * The body cap stays just under Netlify's 6 MB buffered request payload; the attachment cap leaves room
 * under it for the base64 growth (4/3) plus the conversation text.
 */
export const CHAT_LIMITS = {
  maxMessages: 50,
  maxMessageChars: 16_000,
  maxTotalChars: 120_000,
  maxPartsPerMessage: 4,
  maxAttachmentBytes: 4 * 1024 * 1024,
  maxBodyBytes: 6_000_000,
  maxFileNameChars: 200,
  /** The text kept of one document (PDF, Word, Excel, text file): what is past it is cut, and the cut is said. */
  maxDocumentChars: 60_000,
  /** Image parts in one request, with or without data (the hub sends one with each question). */
  maxImagesPerRequest: 4,
} as const;

/**
 * How far the server goes to read one attached document (netlify/lib/chat/documents.ts), whatever the file
 * says about itself: each is read in a worker thread that is stopped past these.
 */
export const DOCUMENT_LIMITS = {
  /** What a ZIP (.docx, .xlsx, any file starting with PK) may really unpack to: far above a real 4 MB document. */
  maxInflatedBytes: 64 * 1024 * 1024,
  /** PDF pages read; the rest is cut with a note, as text past maxDocumentChars is. */
  maxPdfPages: 300,
  /**
   * Reading time for the documents of one request, counted once each worker has loaded its code (CHAT_DOCUMENT_TIME_LIMIT_MS
   * overrides it): a 300-page PDF or a 4 MB workbook reads in about a second of CPU, a 4 MB .docx of pure text in about four.
   */
  readTimeMs: 10_000,
} as const;

/**
 * What one image costs a model in prompt tokens, counted against the chat's daily token budget: providers
 * scale images down and bill them by area (about 1,600 tokens for a large image on Claude, about 1,100 at
 * GPT-4o's high detail), so every image counts the larger figure.
 */
export const IMAGE_PART_TOKENS = 1_600;

/** Base64 data-URL length of a file of `bytes` bytes (plus a generous allowance for the header). */
export function maxDataUrlChars(bytes: number = CHAT_LIMITS.maxAttachmentBytes): number {
  return Math.ceil(bytes / 3) * 4 + 200;
}

/** Sampling sliders. */
export const SAMPLING = {
  temperature: { min: 0, max: 2, step: 0.1, default: 0.7, label: 'Temperature' },
  top_p: { min: 0, max: 1, step: 0.1, default: 0.9, label: 'Top P' },
  frequency_penalty: { min: 0, max: 2, step: 0.1, default: 0, label: 'Frequency penalty' },
  presence_penalty: { min: 0, max: 2, step: 0.1, default: 0, label: 'Presence penalty' },
} as const;

export type SamplingKey = keyof typeof SAMPLING;
export type SamplingSettings = Record<SamplingKey, number>;

export const DEFAULT_SAMPLING: SamplingSettings = {
  temperature: SAMPLING.temperature.default,
  top_p: SAMPLING.top_p.default,
  frequency_penalty: SAMPLING.frequency_penalty.default,
  presence_penalty: SAMPLING.presence_penalty.default,
};

/** File picker. */
export const ACCEPTED_FILE_TYPES = '.txt,.md,.pdf,.doc,.docx,.csv,.xlsx,.jpg,.jpeg,.png';
