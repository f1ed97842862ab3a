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
export type BatchItemStatus = 'waiting' | 'working' | 'done' | 'failed' | 'choosing' | 'held' | 'split';

/** What the splitter found on a scan: a thumbnail of each print, straightened, with the angle it lay at. */
export interface ScanSplit {
  prints: { thumb: string; angle: number; width: number; height: number }[];
}

/** The photos of a batch that are work to do or done (a scan that was split is its prints). */
export const countsAsPhoto = (status: BatchItemStatus) => status !== 'split' && status !== 'choosing';

export interface BatchItem {
  id: string;
  position: number;
  /** The file's name as the buyer's computer had it (its folder dropped). */
  name: string;
  status: BatchItemStatus;
  /** Why it failed (the buyer's words); Retry puts it back in the queue. */
  error: string | null;
  /** The finished result (its preview, heal and hints through /api/transformations/{id}). */
  transformationId: string | null;
  /** Taken with the package: `downloadUrl` gives the clean file. */
  taken: boolean;
  /** Why a finished photo was not taken (no images left, the package expired or was refunded). */
  note: string | null;
  downloadUrl: string | null;
  /** A print cut from the scan `scanOf` (another item of the batch). */
  scanOf: string | null;
  /** On a scan of several prints: what was found (while `choosing`, and after). */
  split: ScanSplit | null;
  /** On a scan of prints kept whole by the splitter: why, in the buyer's words. */
  keptWhole: string | null;
}

export interface ZipPart {
  part: number;
  count: number;
  bytes: number;
  url: string;
}

export interface BatchAnswer {
  success: true;
  batchId: string;
  createdAt: string;
  items: BatchItem[];
  counts: Record<BatchItemStatus, number>;
  /** "Download all": one ZIP, or parts of it for a large batch (a package's batches only). */
  zip: ZipPart[];
}

export const batchUrl = (batchId: string, part?: string) => `/api/batches/${encodeURIComponent(batchId)}${part ? `/${part}` : ''}`;

/** How often the tool asks for the batch's state while photos are waiting or working. */
export const BATCH_POLL_MS = 2000;
