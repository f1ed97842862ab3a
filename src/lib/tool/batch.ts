import { z } from '../zod';

/**
 * Batches: many photos restored at once, shared by the tool island and the batch functions (no Node imports). A
 * batch lives on the server (netlify/lib/batches): each photo is its own job, its state survives a closed tab, and
 * reopening the package link resumes it.
 */
export const BATCH_LIMITS = {
  /** Photos in one batch without a package (each result goes to the cart); a package allows what it has left. */
  withoutPackage: 20,
  /** Photos in one batch at most, whatever the package (a Family Package's 500 fit in one). */
  maxItems: 500,
  /** Photos one browser may add in 10 minutes (each upload is read and checked): a family's evening of scanning. */
  uploadsPer10Minutes: 600,
} as const;

/**
 * The ZIP of a batch's clean files comes in parts of at most this many bytes, each streamed by a function: Netlify
 * streams at most 20 MB from a function (docs.netlify.com/build/functions/configuration), so a larger batch is
 * several ZIPs whose names never collide (netlify/lib/batches/zip.ts).
 */
export const ZIP_PART_MAX_BYTES = 18 * 1024 * 1024;

/**
 * A photo's state. A flatbed scan of several prints is found when it is added: the scan waits in `choosing` and its
 * prints in `held` until the buyer restores the prints (the scan becomes `split`) or keeps the scan whole.
 */
export const BATCH_ITEM_STATUSES = ['waiting', 'working', 'done', 'failed', 'choosing', 'held', 'split'] as const;
export type BatchItemStatus = (typeof BATCH_ITEM_STATUSES)[number];
const batchItemStatusSchema = z.enum(BATCH_ITEM_STATUSES);

/** What the splitter found on a scan: a thumbnail of each print, straightened, with the angle it lay at. */
export const scanSplitSchema = z.object({
  prints: z.array(z.object({ thumb: z.string(), angle: z.number(), width: z.number(), height: z.number() })),
});
export type ScanSplit = z.infer<typeof scanSplitSchema>;

/** The photos of a batch that are work to do or done (a scan that was split is its prints). */
export const countsAsPhoto = (status: BatchItemStatus) => status !== 'split' && status !== 'choosing';

export const batchItemSchema = z.object({
  id: z.string(),
  position: z.number().int(),
  /** The file's name as the buyer's computer had it (its folder dropped). */
  name: z.string(),
  status: batchItemStatusSchema,
  /** Why it failed (the buyer's words); Retry puts it back in the queue. */
  error: z.string().nullable(),
  /** The finished result (its preview, heal and hints through /api/transformations/{id}). */
  transformationId: z.string().nullable(),
  /** Taken with the package: `downloadUrl` gives the clean file. */
  taken: z.boolean(),
  /** Why a finished photo was not taken (no images left, the package expired or was refunded). */
  note: z.string().nullable(),
  downloadUrl: z.string().nullable(),
  /** A print cut from the scan `scanOf` (another item of the batch). */
  scanOf: z.string().nullable(),
  /** On a scan of several prints: what was found (while `choosing`, and after). */
  split: scanSplitSchema.nullable(),
  /** On a scan of prints kept whole by the splitter: why, in the buyer's words. */
  keptWhole: z.string().nullable(),
});
export type BatchItem = z.infer<typeof batchItemSchema>;

export const zipPartSchema = z.object({ part: z.number().int(), count: z.number().int(), bytes: z.number(), url: z.string() });
export type ZipPart = z.infer<typeof zipPartSchema>;

/** GET /api/batches/{id}. */
export const batchAnswerSchema = z.object({
  success: z.literal(true),
  batchId: z.string(),
  createdAt: z.string(),
  items: z.array(batchItemSchema),
  counts: z.record(batchItemStatusSchema, z.number().int()),
  /** "Download all": one ZIP, or parts of it for a large batch (a package's batches only). */
  zip: z.array(zipPartSchema),
});
export type BatchAnswer = z.infer<typeof batchAnswerSchema>;

// The other requests and answers of /api/batches (netlify/functions/batches.mts).

/** POST /api/batches { model, prompt }: the options every photo of the batch is restored with. */
export { restoreRequestSchema as batchRequestSchema } from './image-schema';

/** POST /api/batches → the new batch; `ownerSecret` only for one made without a package (this browser keeps it). */
export const batchCreatedSchema = z.object({ success: z.literal(true), batchId: z.string().min(1), ownerSecret: z.string().optional() });
export type BatchCreated = z.infer<typeof batchCreatedSchema>;

/** POST /api/batches/{id}/items as JSON, after a signed upload (a small photo goes as multipart `file` and `name`). */
export const batchUploadRequestSchema = z.object({ uploadId: z.string(), name: z.string().trim().min(1).max(255) }).strict();

/** POST /api/batches/{id}/items → the photo as queued (or `choosing` for a scan of several prints). */
export const batchItemAddedSchema = z.object({
  success: z.literal(true),
  item: batchItemSchema.pick({ id: true, position: true, name: true, status: true }),
});
export type BatchItemAdded = z.infer<typeof batchItemAddedSchema>;

/** POST /api/batches/{id}/items/{item}/split: the buyer's choice for a scan of several prints. */
export const batchSplitRequestSchema = z.object({ keep: z.enum(['prints', 'whole']) }).strict();

export const batchUrl = (batchId: string, part?: string) => `/api/batches/${encodeURIComponent(batchId)}${part ? `/${part}` : ''}`;

/** How often the tool asks for the batch's state while photos are waiting or working. */
export const BATCH_POLL_MS = 2000;
