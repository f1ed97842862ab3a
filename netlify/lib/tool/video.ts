import { z } from 'zod';
import { HttpError } from '../http';
import { deployOrigin } from '../running-deploy';
import { query, withTransaction } from '../db';
import { getStorage } from '../storage';
import { sign, verify } from '../signing';
import { VideoInputError, checkVideoInput, parseImageDataUrl, processVideoRequestSchema } from '../../../engines/video';
import { VideoEngineError, renderVideo, selectVideoEngine, videoEngineStatus } from '../providers/video-engine';
import {
  completeTransformation,
  createTransformation,
  failTransformation,
  getTransformation,
  HEARTBEAT_MS,
  setTransformationPaths,
  STALE_AFTER_SECONDS,
  updateProgress,
  type NewTransformation,
  type Transformation,
} from '../transformations';
import { MSG } from '../../../src/lib/messages';
import { ImageInputError } from '../../../engines/image';
import { animateImageRequestSchema, jobResolution, jobSubjects } from '../../../src/lib/tool/video-schema';
import { DEFAULT_VIDEO_RESOLUTION } from '../../../src/lib/tool/video-modes';
import { BRAND, discardUpload, isUploadId, paths, readUpload } from './media';
import { withoutMetadata } from '../media/strip-metadata';
import { watermarkSeed } from '../../../engines/shared';
import { jobStill, sourceImage } from './video-source';
import { newOwnerSecret } from './ownership';

/**
 * Video jobs: POST /api/process-video validates and queues, the job runs in the background function
 * (on Netlify and under `npm start` alike), and GET /api/transformations/{id}
 * reports progress. One job = one media_transformations row: queued → processing → completed | failed.
 */

/** The whole render may take this long before the job is killed and failed. */
export const VIDEO_JOB_TIMEOUT_MS = Number(process.env.VIDEO_JOB_TIMEOUT_MS) > 0 ? Number(process.env.VIDEO_JOB_TIMEOUT_MS) : 10 * 60_000;
/**
 * Video jobs queued or rendering at once on the whole site (every instance): a job takes a background
 * function for minutes, or a paid hosted run. Past it a new job is refused with 503 before anything is stored.
 */
export const MAX_ACTIVE_VIDEO_JOBS = Number(process.env.MAX_CONCURRENT_VIDEO_JOBS) || 3;
/** Progress is written when it moved by at least this much, and at least every HEARTBEAT_MS while the engine is busy. */
export const PROGRESS_STEP = 0.05;

const JOB_PURPOSE = 'video-job';
export const BACKGROUND_PATH = '/.netlify/functions/process-video-background';

/** The process-video request, or the same with `uploadId` for files sent directly to storage (over the inline limit). */
const uploadVideoSchema = processVideoRequestSchema.omit({ imageData: true }).extend({
  uploadId: z.string().refine(isUploadId, 'Invalid upload id'),
});
/** A checked request; callers inside the server may leave the defaults (resolution, duration, options) out. */
type VideoBody = z.input<typeof processVideoRequestSchema> | z.input<typeof uploadVideoSchema> | z.input<typeof animateImageRequestSchema>;

export function parseVideoBody(input: unknown): z.infer<typeof processVideoRequestSchema> | z.infer<typeof uploadVideoSchema> | z.infer<typeof animateImageRequestSchema> {
  const obj = (input ?? {}) as Record<string, unknown>;
  const direct = obj.imageData === undefined;
  const schema = direct && obj.fromImageId !== undefined ? animateImageRequestSchema : direct && typeof obj.uploadId === 'string' ? uploadVideoSchema : processVideoRequestSchema;
  const result = schema.safeParse(input);
  // The first issue's own message: the schema's texts, without a field prefix.
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid request');
  return result.data;
}

/**
 * Checks the request, stores the original and creates the queued job. Nothing is written on a bad input. The
 * caller has checked that the request owns a `fromImageId` (ownership.ts); the new job's own owner secret comes
 * back with it, for the creating browser only.
 */
export async function queueVideo(body: VideoBody): Promise<Transformation & { ownerSecret: string }> {
  const status = await videoEngineStatus();
  if (!status.available) throw new HttpError(503, MSG.videoUnavailable);
  let bytes: Buffer;
  // "Animate this photo": the image's display copy of its original is the job's original (what the buyer sees
  // beside the clip); the clean restoration itself is read when the job runs.
  const source = 'fromImageId' in body ? await sourceImage(body.fromImageId) : null;
  if (source) {
    const original = await getStorage().get(source.meta.originalViewPath ?? source.originalPath!);
    if (!original) throw new HttpError(404, MSG.videoSourceImage);
    bytes = original;
  } else if ('imageData' in body) {
    const parsed = parseImageDataUrl(body.imageData);
    if (!parsed) throw new HttpError(400, MSG.videoInvalidType);
    bytes = Buffer.from(parsed.base64, 'base64');
  } else if ('uploadId' in body) {
    bytes = await readUpload(body.uploadId);
  } else {
    throw new HttpError(400, MSG.videoInvalidType);
  }
  let header;
  try {
    header = checkVideoInput(bytes);
  } catch (error) {
    if ('uploadId' in body) await discardUpload(body.uploadId);
    if (error instanceof VideoInputError) throw new HttpError(error.status, error.message);
    throw error;
  }
  const owner = newOwnerSecret();
  const t = await createVideoJob({
    kind: 'video',
    ownerSecretHash: owner.hash,
    model: selectVideoEngine(process.env).id,
    prompt: body.prompt,
    mode: body.mode,
    // The resolution is chosen before rendering and sets the price (the row's price_key reads it).
    // The buyer's choices as given; one left out is decided by the job from the photo (video-source.ts).
    hints: {
      resolution: body.resolution ?? DEFAULT_VIDEO_RESOLUTION,
      ...('restoreFirst' in body && body.restoreFirst !== undefined && { restoreFirst: body.restoreFirst }),
      ...(body.animateFaces !== undefined && { animateFaces: body.animateFaces }),
      ...(body.subjects && { subjects: body.subjects }),
      ...(source && { sourceImageId: source.id }),
    },
    status: 'queued',
  });
  const ext = header.format === 'jpeg' ? 'jpg' : 'png';
  const originalPath = paths.original(t.id, ext);
  try {
    // Stored (and later shown back as originalImageUrl) upright and without its metadata: a phone photo's
    // EXIF carries where it was taken.
    await getStorage().put(originalPath, await withoutMetadata(bytes, header.format), `image/${header.format}`);
    if ('uploadId' in body) await discardUpload(body.uploadId);
    return { ...(await setTransformationPaths(t.id, { originalPath }))!, ownerSecret: owner.secret };
  } catch (error) {
    await failTransformation(t.id, MSG.videoError).catch(() => {});
    throw error;
  }
}

/**
 * Creates the job's row if fewer than MAX_ACTIVE_VIDEO_JOBS are live on the site (queued or processing with
 * a recent heartbeat; a dead one is failed by the maintenance). One creation at a time (advisory lock), so
 * two instances never both take the last place.
 */
async function createVideoJob(input: NewTransformation): Promise<Transformation> {
  return withTransaction(async (tx) => {
    await tx.query(`select pg_advisory_xact_lock(hashtextextended('video-jobs', 0))`);
    const [row] = await tx.query<{ n: number }>(
      `select count(*)::int as n from media_transformations
        where kind = 'video' and status in ('queued', 'processing') and updated_at > now() - make_interval(secs => $1::int)`,
      [STALE_AFTER_SECONDS.video],
    );
    if (row!.n >= MAX_ACTIVE_VIDEO_JOBS) throw new HttpError(503, MSG.videoBusy, { 'Retry-After': '30' });
    return createTransformation(input, tx);
  });
}

export const jobSignature = (id: string) => sign(JOB_PURPOSE, id);
export const isValidJobSignature = (id: string, sig: unknown) => typeof sig === 'string' && verify(JOB_PURPOSE, id, sig);

export type JobRunner = 'background' | 'inline';

/** How long the trigger may take to be accepted before the job runs here instead. */
const TRIGGER_TIMEOUT_MS = 10_000;

// The trigger goes to this deploy's own address from the platform, never to a request's Host header,
// which a client could point at another server.
export { deployOrigin };

/**
 * Starts the job. `background` (default): POSTs the signed job id to the background function of the same
 * deploy, which answers 202 at once and renders for up to 15 minutes (on Netlify and under `npm start`).
 * When the trigger is not accepted (no server, e.g. in integration tests) the job runs inline, unawaited;
 * a trigger that arrives late anyway cannot render it twice (`claim`). VIDEO_JOB_RUNNER=inline forces
 * inline runs.
 */
export async function startVideoJob(id: string, runner = jobRunner(), origin = deployOrigin()): Promise<JobRunner> {
  if (runner === 'inline' || !origin) {
    void runVideoJob(id);
    return 'inline';
  }
  const outcome = await fetch(new URL(BACKGROUND_PATH, origin), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id, sig: jobSignature(id) }),
    signal: AbortSignal.timeout(TRIGGER_TIMEOUT_MS),
  }).then(
    (res) => (res.status === 202 || res.ok ? 'accepted' : `status ${res.status}`),
    (error: Error) => `error ${error.message}`,
  );
  if (outcome === 'accepted') return 'background';
  console.warn(`[video] background trigger failed (${outcome}); running job ${id} inline`);
  void runVideoJob(id);
  return 'inline';
}

export function jobRunner(): JobRunner {
  return process.env.VIDEO_JOB_RUNNER?.trim() === 'inline' ? 'inline' : 'background';
}

/** Claims a queued job (so two triggers never render it twice). */
async function claim(id: string): Promise<boolean> {
  const rows = await query<{ id: string }>(
    `update media_transformations set status = 'processing', progress = 0
      where id = $1 and kind = 'video' and status = 'queued' returning id`,
    [id],
  );
  return rows.length === 1;
}

export function userMessage(error: unknown, timedOut: boolean): string {
  if (timedOut) return 'Video generation timed out. Please try again.';
  if (error instanceof VideoInputError || error instanceof VideoEngineError || error instanceof HttpError || error instanceof ImageInputError) return error.message;
  if (error instanceof Error && error.name === 'TimeoutError') return 'Video generation timed out. Please try again.';
  if (error instanceof Error && error.name === 'AbortError') return 'Video generation was cancelled. Please try again.';
  return MSG.videoError;
}

/**
 * Runs one queued job to its end: renders with progress (written every 5 % and as a heartbeat), stores the
 * clean video and the watermarked preview, completes; any error or the timeout fails the row with a
 * message the buyer can read. Never throws. Returns the final row.
 */
export async function runVideoJob(
  id: string,
  opts: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<Transformation | null> {
  try {
    if (!(await claim(id))) return await getTransformation(id);
  } catch (error) {
    console.error(`[video] could not claim job ${id}:`, error);
    return null;
  }
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? VIDEO_JOB_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;
  let written = 0;
  let latest = 0;
  let writing: Promise<unknown> = Promise.resolve();
  const write = (p: number) => {
    written = p;
    writing = writing.then(() => updateProgress(id, p)).catch(() => {});
  };
  const heartbeat = setInterval(() => write(latest), HEARTBEAT_MS);
  const storage = getStorage();
  try {
    const t = await getTransformation(id);
    if (!t?.originalPath) throw new Error('original image missing');
    const original = await storage.get(t.originalPath);
    if (!original) throw new Error('original image missing from storage');
    const { still, hints: made } = await jobStill(t, original, signal);
    const result = await renderVideo(still, {
      prompt: t.prompt ?? '',
      mode: t.mode === 'cinematic' ? 'cinematic' : 'standard',
      resolution: jobResolution(t.hints),
      watermarkText: BRAND,
      watermarkSeed: watermarkSeed(id),
      animateFaces: made.animateFaces === true,
      subjects: jobSubjects(t.hints),
      signal,
      onProgress: (p) => {
        // The last 1 belongs to completion; keep the bar just below until the files are stored.
        latest = Math.min(0.99, p);
        if (latest - written >= PROGRESS_STEP) write(latest);
      },
    });
    if (signal.aborted) throw signal.reason;
    await storage.put(paths.videoResult(id), result.video, 'video/mp4');
    await storage.put(paths.videoPreview(id), result.preview, 'video/mp4');
    clearInterval(heartbeat);
    await writing;
    const done = await completeTransformation(id, {
      resultPath: paths.videoResult(id),
      previewPath: paths.videoPreview(id),
      // `depth` says how the clip was made: layered parallax, or the flat move and why; `faces`, which faces move
      // and why the others do not (kept for support and tuning).
      hints: {
        width: result.width,
        height: result.height,
        frames: result.frames,
        durationSeconds: result.durationSeconds,
        ...made,
        ...(result.depth && { depth: result.depth }),
        ...(result.faces && { faces: result.faces }),
      },
    });
    return done ?? (await getTransformation(id));
  } catch (error) {
    clearInterval(heartbeat);
    await writing;
    const timedOut = timeout.aborted;
    const expected =
      error instanceof VideoInputError ||
      error instanceof VideoEngineError ||
      error instanceof HttpError ||
      error instanceof ImageInputError ||
      (error instanceof Error && (error.name === 'AbortError' || error.name === 'TimeoutError'));
    if (!expected) console.error(`[video] job ${id} failed:`, error);
    await failTransformation(id, userMessage(error, timedOut)).catch(() => {});
    return getTransformation(id).catch(() => null);
  } finally {
    clearInterval(heartbeat);
  }
}

/** For /api/health: `{ video: { available, engine } }`. */
export async function videoHealth(): Promise<{ video: { available: boolean; engine: string } }> {
  try {
    const { available, engine } = await videoEngineStatus();
    return { video: { available, engine } };
  } catch {
    return { video: { available: false, engine: 'unknown' } };
  }
}
