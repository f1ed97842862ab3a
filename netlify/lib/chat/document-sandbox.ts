import { Buffer } from 'node:buffer';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { DOCUMENT_ERRORS } from '../../../src/lib/chat/errors';
import { formatName, readDocument, type ReadResult } from './documents';

/**
 * Every attached document is read in a worker thread of its own, never on the function's thread: a reader
 * that loops without yielding (a crafted .doc), allocates without end or parses for too long is stopped by
 * terminating its thread, which ends even a loop that never yields, and the function goes on serving.
 *
 * Limits of one reading: the wall clock (DOCUMENT_LIMITS.readTimeMs of reading for the documents of one
 * request, counted from when each worker has loaded its code), the
 * worker's JavaScript heap (`resourceLimits`), and the process's resident memory: buffers live outside the
 * heap, so a watchdog on the function's thread ends the worker when the process grows more than
 * SANDBOX.rssGrowthBytes while it reads. One reading at a time per process (a Netlify instance serves one
 * request at a time; the local server serves many), a request waiting at most SANDBOX.queueWaitMs for its turn.
 *
 * The worker runs this same module: `new Worker(import.meta.url)` is the bundled function file on a deploy
 * (Netlify's bundler puts the project's code in one file and leaves npm packages beside it, as the
 * readers need) and this TypeScript file under tsx and vitest (given tsx's loader). The module's top level
 * sees the marker in `workerData` and reads the one document it was handed.
 */
export const SANDBOX = {
  /** V8 heap of the worker: the readers' parsed documents; a 4 MB real document needs well under this. */
  heapMb: 256,
  youngGenerationMb: 32,
  /** Growth of the process's resident memory while a document is read (heap, buffers and all). */
  rssGrowthBytes: 320 * 1024 * 1024,
  /** How often the watchdog looks. */
  watchMs: 20,
  /** How long a request waits for the reading slot before a 503 (`DOCUMENT_ERRORS.busy`). */
  queueWaitMs: 20_000,
  /**
   * How long a worker may take to load its code before it starts reading (not counted in the reading time: about
   * 0.1 s from a deploy's bundle, a second or more under tsx on a loaded machine).
   */
  startMs: 30_000,
} as const;

const MARK = 'lumora:chat-document-reader';

interface Job {
  filename: string;
  mimeType: string;
  bytes: Uint8Array;
  maxChars: number;
}

export type SandboxResult = ReadResult | { ok: false; message: string; stopped: 'time' | 'memory' };

/** What the worker says: that it has started (its code is loaded), then the result. */
export const STARTED = 'started';

// The worker's side: say it has started, read the document handed over, answer once.
if (!isMainThread && (workerData as Record<string, unknown> | null)?.[MARK]) {
  const job = (workerData as { job: Job }).job;
  parentPort!.postMessage(STARTED);
  readDocument(job.filename, job.mimeType, Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength), job.maxChars).then(
    (result) => parentPort!.postMessage(result),
    () => parentPort!.postMessage({ ok: false, message: DOCUMENT_ERRORS.unreadable(job.filename, formatName(job.filename, job.mimeType)) }),
  );
}

/** What the worker needs to run this module: tsx's loader when the module is TypeScript (tests, `tsx` scripts). */
function workerExecArgv(entry: URL): string[] | undefined {
  if (!entry.pathname.endsWith('.ts')) return undefined;
  return process.execArgv.some((a) => a.includes('tsx')) ? process.execArgv : [...process.execArgv, '--import', 'tsx'];
}

/** The one reading slot of this process, and the requests waiting for it. */
let busy = false;
const waiting: Array<() => void> = [];

/** Takes the slot, waiting until `deadline` at the most; false when the wait ran out. */
async function takeSlot(deadline: number): Promise<boolean> {
  if (!busy) return (busy = true);
  return new Promise((resolve) => {
    const turn = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      waiting.splice(waiting.indexOf(turn), 1);
      resolve(false);
    }, Math.max(0, deadline - Date.now()));
    waiting.push(turn);
  });
}

function releaseSlot(): void {
  const next = waiting.shift();
  if (next) next();
  else busy = false;
}

/**
 * Holds the reading slot for `work` (the documents of one request); null when the slot did not come free
 * within SANDBOX.queueWaitMs.
 */
export async function withReadingSlot<T>(work: () => Promise<T>): Promise<T | null> {
  if (!(await takeSlot(Date.now() + SANDBOX.queueWaitMs))) return null;
  try {
    return await work();
  } finally {
    releaseSlot();
  }
}

export interface SandboxOptions {
  /** The most characters of text to keep (the reader stops soon after). */
  maxChars: number;
  /** Reading time left, counted once the worker has loaded its code. */
  budgetMs: number;
  /** The whole reading time of the request, for the message (default: budgetMs). */
  timeLimitMs?: number;
  /** The visitor went away: the reading stops. */
  signal?: AbortSignal;
  /** The worker's module: this one, unless a test of the sandbox itself hands another. */
  entry?: URL;
}

/**
 * Reads one document in a fresh worker thread, stopped past its reading time, when it takes too much memory,
 * or when `signal` aborts; the answer comes once the thread has ended, so no work outlives it. `readMs` is the
 * reading time used.
 */
export async function readInSandbox(
  file: { filename: string; mimeType: string; bytes: Uint8Array },
  { maxChars, budgetMs, timeLimitMs = budgetMs, signal, entry = new URL(import.meta.url) }: SandboxOptions,
): Promise<SandboxResult & { readMs: number }> {
  const { filename, mimeType, bytes } = file;
  const failed: SandboxResult = { ok: false, message: DOCUMENT_ERRORS.unreadable(filename, formatName(filename, mimeType)) };
  const timedOut: SandboxResult = { ok: false, message: DOCUMENT_ERRORS.timedOut(filename, timeLimitMs), stopped: 'time' };
  const tooMuchMemory: SandboxResult = { ok: false, message: DOCUMENT_ERRORS.tooMuchMemory(filename), stopped: 'memory' };
  if (budgetMs <= 0 || signal?.aborted) return { ...timedOut, readMs: 0 };
  // The worker gets its own copy, moved to it (the caller's bytes stay the caller's).
  const own = new Uint8Array(bytes);
  const job: Job = { filename, mimeType, bytes: own, maxChars };
  const worker = new Worker(entry, {
    workerData: { [MARK]: true, job },
    transferList: [own.buffer as ArrayBuffer],
    resourceLimits: { maxOldGenerationSizeMb: SANDBOX.heapMb, maxYoungGenerationSizeMb: SANDBOX.youngGenerationMb },
    execArgv: workerExecArgv(entry),
    // The readers' warnings are not the visitor's business, nor the log's.
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  const baseline = process.memoryUsage.rss();
  let started = 0;
  let watchdog: NodeJS.Timeout | undefined;
  let timer: NodeJS.Timeout | undefined;
  const result = await new Promise<SandboxResult>((resolve) => {
    timer = setTimeout(() => resolve(timedOut), SANDBOX.startMs);
    watchdog = setInterval(() => {
      if (process.memoryUsage.rss() - baseline > SANDBOX.rssGrowthBytes) resolve(tooMuchMemory);
    }, SANDBOX.watchMs);
    worker.on('message', (message: ReadResult | typeof STARTED) => {
      if (message !== STARTED) return resolve(message);
      started = Date.now();
      clearTimeout(timer);
      timer = setTimeout(() => resolve(timedOut), budgetMs);
    });
    worker.once('error', (error: Error & { code?: string }) => resolve(error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooMuchMemory : failed));
    worker.once('exit', () => resolve(failed));
    signal?.addEventListener('abort', () => resolve(timedOut), { once: true });
  });
  const readMs = started ? Date.now() - started : 0;
  clearTimeout(timer);
  clearInterval(watchdog);
  // Terminating stops the thread wherever it is, even in a loop that never yields; resolved once it has ended.
  await worker.terminate();
  return { ...result, readMs };
}
