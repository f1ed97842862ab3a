import { map } from 'nanostores';
import { persistentAtom } from '@nanostores/persistent';
import { MSG } from '../messages';
import { addToCart } from '../cart';
import { rememberOwnerSecret } from '../owner-secrets';
import { OWNER_SECRET_HEADER, isOwnerSecret } from './ownership';
import { BATCH_LIMITS, BATCH_POLL_MS, batchAnswerSchema, batchCreatedSchema, batchItemAddedSchema, batchUrl, countsAsPhoto, type BatchAnswer } from './batch';
import type { z } from '../zod';
import { doneAnswerSchema, readResponse, requestJson } from '../api-answer';
import type { RestoreRequest } from './image-schema';
import { INLINE_UPLOAD_MAX_BYTES, isAcceptedFile, previewUrl } from './constants';
import { ApiError, uploadLarge } from './api';
import { $package, packageKeyHeaders, refreshPackage, rememberTaken } from './package-state';
import { announce, tell } from './state/shared';

/**
 * The image tab's batch: many photos at once. The files chosen (a multi-select, a dropped folder) wait here until the
 * buyer starts; then the batch is made on the server, each photo uploaded (three at a time) and queued there, and the
 * tab follows the server's state. The batch outlives the tab: a package's newest batch is resumed from the package
 * (its link is the key), one made without a package from this browser's storage (its secret). With a package every
 * finished photo is taken clean; without one each result goes to the cart, as a single photo's does.
 */
export interface UploadState {
  name: string;
  state: 'sending' | 'sent' | 'failed';
  error?: string;
}

export interface BatchState {
  /** Files chosen, not yet sent. */
  chosen: File[];
  batchId: string | null;
  answer: BatchAnswer | null;
  uploads: UploadState[];
  /** Sending or following: the tab's controls wait. */
  running: boolean;
}

export const $batch = map<BatchState>({ chosen: [], batchId: null, answer: null, uploads: [], running: false });

/**
 * A batch made without a package: its id and secret, so a reload resumes it in this browser, and the results already
 * handed to the cart (each once: one the buyer removed from the cart is not put back).
 */
export const $ownBatch = persistentAtom<{ id: string; secret: string; carted: string[] } | null>('lumora-batch', null, {
  encode: JSON.stringify,
  decode: (raw) => {
    try {
      const v = JSON.parse(raw) as { id?: unknown; secret?: unknown; carted?: unknown } | null;
      if (!v || typeof v.id !== 'string' || !isOwnerSecret(v.secret)) return null;
      return { id: v.id, secret: v.secret, carted: Array.isArray(v.carted) ? v.carted.filter((x): x is string => typeof x === 'string') : [] };
    } catch {
      return null;
    }
  },
});

/** The batch's photos: a scan split into prints counts as its prints, one still to be chosen not yet. */
export const photoCount = (answer: BatchAnswer) => answer.items.filter((i) => countsAsPhoto(i.status)).length;

const packageOpen = () => $package.get().status === 'open';

/** How many photos the batch may still take: what the package has left, or the cap without one. */
export function batchRoom(): number {
  const a = $package.get().allowance;
  if (packageOpen() && a) return a.imagesLeft;
  return BATCH_LIMITS.withoutPackage;
}

const batchHeaders = (): Record<string, string> => {
  if (packageOpen()) return packageKeyHeaders();
  const own = $ownBatch.get();
  return own ? { [OWNER_SECRET_HEADER]: own.secret } : {};
};

/** The photos chosen for a batch: images only, as many as there is room for (the buyer is told what was left out). */
export function chooseBatch(files: readonly File[]): void {
  const images = files.filter((f) => isAcceptedFile('image', f));
  const skipped = files.length - images.length;
  const room = batchRoom();
  const chosen = images.slice(0, room);
  $batch.setKey('chosen', chosen);
  const notes = [
    `${chosen.length} photo${chosen.length === 1 ? '' : 's'} chosen.`,
    skipped ? `${skipped} file${skipped === 1 ? ' is' : 's are'} not a JPEG, PNG or TIFF photo and ${skipped === 1 ? 'was' : 'were'} left out.` : '',
    images.length > room ? (packageOpen() ? MSG.batchTooMany(room) : MSG.batchTooManyWithout(room)) : '',
  ].filter(Boolean);
  tell(images.length > room || skipped ? 'info' : 'success', notes.join(' '));
}

export const clearChosen = () => $batch.setKey('chosen', []);

/** A JSON call of the batch's API, its answer read with its schema (src/lib/tool/batch.ts). */
const jsonCall = <S extends z.ZodType>(schema: S, method: string, url: string, body?: unknown, headers: Record<string, string> = {}) =>
  requestJson(schema, method, url, { body, headers, fallback: MSG.imageError() });

async function sendPhoto(batchId: string, file: File): Promise<void> {
  const url = batchUrl(batchId, 'items');
  if (file.size > INLINE_UPLOAD_MAX_BYTES) {
    const uploadId = await uploadLarge('image', file);
    await jsonCall(batchItemAddedSchema, 'POST', url, { uploadId, name: file.name }, batchHeaders());
    return;
  }
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('name', file.name);
  const res = await fetch(url, { method: 'POST', body: form, headers: batchHeaders() }).catch(() => {
    throw new ApiError(MSG.uploadFailed, 0);
  });
  await readResponse(batchItemAddedSchema, res, MSG.uploadFailed);
}

/** Restore N photos: makes the batch (or adds to the open one), sends every chosen photo, then follows the batch. */
export async function startBatch(options: RestoreRequest): Promise<void> {
  const { chosen } = $batch.get();
  if (!chosen.length) return tell('error', MSG.uploadFirst);
  $batch.set({ ...$batch.get(), running: true, chosen: [], uploads: chosen.map((f) => ({ name: f.name, state: 'sending' })) });
  try {
    const made = await jsonCall(batchCreatedSchema, 'POST', '/api/batches', options, packageOpen() ? packageKeyHeaders() : {});
    if (made.ownerSecret) $ownBatch.set({ id: made.batchId, secret: made.ownerSecret, carted: [] });
    $batch.setKey('batchId', made.batchId);
    announce(`Sending ${chosen.length} photos…`);
    let next = 0;
    const worker = async () => {
      while (next < chosen.length) {
        const index = next++;
        const file = chosen[index]!;
        const error = await sendPhoto(made.batchId, file).then(() => undefined, (e: unknown) => (e instanceof Error ? e.message : MSG.uploadFailed));
        const uploads = [...$batch.get().uploads];
        uploads[index] = { name: file.name, state: error ? 'failed' : 'sent', ...(error && { error }) };
        $batch.setKey('uploads', uploads);
        if (index % 3 === 0) void refreshBatch();
      }
    };
    await Promise.all([worker(), worker(), worker()]);
    const failed = $batch.get().uploads.filter((u) => u.state === 'failed').length;
    tell(failed ? 'error' : 'info', failed ? `${chosen.length - failed} photos queued; ${failed} could not be sent (see the list).` : `All ${chosen.length} photos are queued: you may close this page, the work goes on.`);
  } catch (error) {
    tell('error', error instanceof Error ? error.message : MSG.imageError());
    $batch.setKey('running', false);
    return;
  }
  await followBatch();
}

let following: Promise<void> | null = null;

/** Follows the batch until nothing waits or works; resolves then (one follower at a time). */
export function followBatch(): Promise<void> {
  following ??= (async () => {
    $batch.setKey('running', true);
    try {
      for (;;) {
        const answer = await refreshBatch();
        if (!answer || answer.counts.waiting + answer.counts.working === 0) break;
        await new Promise((r) => setTimeout(r, BATCH_POLL_MS));
      }
    } finally {
      $batch.setKey('running', false);
      following = null;
    }
  })();
  return following;
}

/** Reads the batch's state, tells what changed, and hands each finished photo on (taken, or to the cart). */
export async function refreshBatch(): Promise<BatchAnswer | null> {
  const { batchId, answer: before } = $batch.get();
  if (!batchId) return null;
  const answer = await jsonCall(batchAnswerSchema, 'GET', batchUrl(batchId), undefined, batchHeaders()).catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) {
      $batch.set({ chosen: [], batchId: null, answer: null, uploads: [], running: false });
      if ($ownBatch.get()?.id === batchId) $ownBatch.set(null);
    }
    return null;
  });
  if (!answer || $batch.get().batchId !== batchId) return answer;
  $batch.setKey('answer', answer);
  const own = $ownBatch.get();
  for (const item of answer.items) {
    const was = before?.items.find((i) => i.id === item.id);
    if (item.status === 'done' && item.transformationId && was?.status !== 'done') {
      if (item.taken) rememberTaken(item.transformationId, item.downloadUrl);
      else if (own?.id === batchId && !($ownBatch.get()?.carted ?? []).includes(item.transformationId)) {
        // Without a package the result goes to the cart (once), with the batch's secret as its owner secret.
        rememberOwnerSecret(item.transformationId, own.secret);
        addToCart({ type: 'image', imageUrl: previewUrl(item.transformationId), transformationId: item.transformationId });
        const latest = $ownBatch.get() ?? own;
        $ownBatch.set({ ...latest, carted: [...latest.carted, item.transformationId] });
      }
    }
  }
  const done = answer.counts.done + answer.counts.failed;
  const doneBefore = before ? before.counts.done + before.counts.failed : 0;
  if (before && done !== doneBefore) {
    const failedNow = answer.items.filter((i) => i.status === 'failed' && before.items.find((b) => b.id === i.id)?.status !== 'failed');
    announce(`${answer.counts.done} of ${photoCount(answer)} photos done${failedNow.length ? `; ${failedNow.map((i) => `${i.name} failed: ${i.error}`).join('; ')}` : ''}.`);
    if (packageOpen()) void refreshPackage();
  }
  return answer;
}

/** Retry: a failed photo back in the queue. */
export async function retryBatchItem(itemId: string): Promise<void> {
  const { batchId } = $batch.get();
  if (!batchId) return;
  try {
    await jsonCall(doneAnswerSchema, 'POST', `${batchUrl(batchId, 'items')}/${encodeURIComponent(itemId)}/retry`, {}, batchHeaders());
    announce('The photo is back in the queue.');
    await followBatch();
  } catch (error) {
    tell('error', error instanceof Error ? error.message : MSG.imageError());
  }
}

/** The buyer's choice for a scan of several prints: restore its prints, or keep the scan as one photo. */
export async function chooseScan(itemId: string, keep: 'prints' | 'whole'): Promise<void> {
  const { batchId } = $batch.get();
  if (!batchId) return;
  try {
    await jsonCall(doneAnswerSchema, 'POST', `${batchUrl(batchId, 'items')}/${encodeURIComponent(itemId)}/split`, { keep }, batchHeaders());
    announce(keep === 'prints' ? 'The prints are in the queue.' : 'The scan is in the queue as one photo.');
    await refreshBatch();
    await followBatch();
  } catch (error) {
    tell('error', error instanceof Error ? error.message : MSG.imageError());
  }
}

/** Resumes the package's newest batch, or this browser's own one: the queue shows again and is followed. */
export async function resumeBatch(): Promise<void> {
  const id = packageOpen() ? $package.get().batchId : $ownBatch.get()?.id;
  if (!id || $batch.get().batchId === id) return;
  $batch.set({ ...$batch.get(), batchId: id, answer: null, uploads: [] });
  const answer = await refreshBatch();
  if (answer && answer.counts.waiting + answer.counts.working > 0) {
    announce(`Your batch continues: ${answer.counts.done} of ${photoCount(answer)} photos done.`);
    await followBatch();
  }
}

/** Starts a new batch view (the old batch stays on the server, reachable from the package). */
export function newBatch(): void {
  $batch.set({ chosen: [], batchId: null, answer: null, uploads: [], running: false });
}
