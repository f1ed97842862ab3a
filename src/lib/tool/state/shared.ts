import { atom, map, type MapStore } from 'nanostores';
import type { ExternalToast } from 'sonner';
import { toast } from '../../toast';
import { MSG } from '../../messages';
import { ApiError, loadImageResult, loadVideoResult, type ImageResult, type VideoResult } from '../api';
import { isAcceptedFile, type ToolKind } from '../constants';
import { $savedResults, saveResult } from '../saved';

/**
 * What both tabs of the tool share: the live region, each tab's file, job (busy, progress) and result (kept
 * across reloads by id, ../saved.ts), the open tab, and the job runner. Each tab's options and edits are in
 * ./image.ts and ./video.ts; islands import all three through ./index.ts.
 */

// ---------------------------------------------------------------- announcements

/** The tool's polite live region. */
export const $toolStatus = atom('');

/** Says a message to screen-reader users; an identical message is said again (cleared first). */
export function announce(text: string): void {
  $toolStatus.set('');
  window.setTimeout(() => $toolStatus.set(text), 50);
}

/** Shows a toast and announces the same words, so sighted and screen-reader users hear the same thing. */
export function tell(level: 'info' | 'success' | 'error', message: string, options?: ExternalToast): void {
  toast[level](message, options);
  announce(message);
}

/** A failed request's message for the buyer: the server's own words, or the tab's fallback with the error's detail. */
export function failureMessage(error: unknown, fallback: (detail?: string) => string): string {
  if (error instanceof ApiError) return error.message;
  return fallback(error instanceof Error ? error.message : undefined);
}

// ---------------------------------------------------------------- tabs

export interface TabState<R> {
  file: File | null;
  result: R | null;
  /** The buyer set the result on this visit (the tab then focuses it); a result loaded from a saved id is not. */
  own: boolean;
  busy: boolean;
  /** 0..1, or null for an indeterminate bar. */
  progress: number | null;
}
export type Results = { image: ImageResult; video: VideoResult };

const idle = <R>(): TabState<R> => ({ file: null, result: null, own: false, busy: false, progress: null });
export const $imageTab = map<TabState<ImageResult>>(idle());
export const $videoTab = map<TabState<VideoResult>>(idle());
const tabs: { [K in ToolKind]: MapStore<TabState<Results[K]>> } = { image: $imageTab, video: $videoTab };

/** The tool's open tab. */
export const $toolTab = atom<ToolKind>('image');

const changed: Record<ToolKind, boolean> = { image: false, video: false };

/** Sets a tab's result (remembered by id) as the buyer's own; an image result brings its hints and heal marks (./image.ts). */
export function setResult<K extends ToolKind>(kind: K, next: Results[K] | null): void {
  changed[kind] = true;
  showResult(kind, next, true);
  saveResult(kind, next?.transformationId);
}

function showResult<K extends ToolKind>(kind: K, next: Results[K] | null, own: boolean): void {
  const tab = tabs[kind] as MapStore<TabState<Results[K]>>;
  tab.set({ ...tab.get(), result: next, own: own || tab.get().own });
}

/**
 * Shows the result saved from a previous visit, loaded again from the server (fresh URLs). One the server no
 * longer has is forgotten; a network failure keeps the id for the next visit. Anything the buyer did first wins.
 */
export async function restoreSavedResult(kind: ToolKind): Promise<void> {
  const id = $savedResults.get()[kind];
  if (!id) return;
  const load: (id: string) => Promise<Results[ToolKind] | null> = kind === 'image' ? loadImageResult : loadVideoResult;
  const found = await load(id).catch(() => undefined);
  if (found === undefined || changed[kind]) return;
  if (found) showResult(kind, found, false);
  else saveResult(kind, undefined);
}

const INVALID_TYPE: Record<ToolKind, string> = { image: MSG.imageInvalidType, video: MSG.videoInvalidType };

/** Whether the tool takes this file; when not, the buyer is told why. */
export function accepts(kind: ToolKind, chosen: File): boolean {
  if (isAcceptedFile(kind, chosen)) return true;
  tell('error', INVALID_TYPE[kind]);
  return false;
}

/** A tab takes a chosen file (if it accepts it) in place of its result; false when refused. Per tab: chooseImageFile, chooseVideoFile. */
export function takeFile(kind: ToolKind, chosen: File): boolean {
  if (!accepts(kind, chosen)) return false;
  tabs[kind].setKey('file', chosen);
  setResult(kind, null);
  return true;
}

/** Delete: the tab forgets its result (the image tab says so). */
export function deleteResult(kind: ToolKind): void {
  setResult(kind, null);
  if (kind === 'image') announce('Result deleted');
}

// ---------------------------------------------------------------- jobs

type SetProgress = (next: number | null | ((previous: number | null) => number | null)) => void;

export interface Job<R> {
  /** The progress bar at the start: a fraction, or null for an indeterminate bar. */
  startProgress: number | null;
  /** The start's toast, and the shorter words announced with it. */
  startToast: string;
  startAnnouncement: string;
  /** The work itself: it reports progress and stops when the signal aborts (the tab went away). */
  work: (setProgress: SetProgress, signal: AbortSignal) => Promise<R>;
  success: string;
  /** The message for a failure (and any state the failure changes). */
  failure: (error: unknown) => string;
}

const controllers: Partial<Record<ToolKind, AbortController>> = {};

/** Stops a tab's running job (its island went away). */
export function abortJob(kind: ToolKind): void {
  controllers[kind]?.abort();
}

/** One job per tab: busy and progress, the toasts and announcements; null when it failed (told) or was aborted. */
export async function runJob<K extends ToolKind>(kind: K, job: Job<Results[K]>, options?: ExternalToast): Promise<Results[K] | null> {
  const tab = tabs[kind] as MapStore<TabState<Results[K]>>;
  tab.set({ ...tab.get(), busy: true, progress: job.startProgress });
  toast.info(job.startToast, options);
  announce(job.startAnnouncement);
  const controller = new AbortController();
  controllers[kind] = controller;
  const setProgress: SetProgress = (next) => tab.setKey('progress', typeof next === 'function' ? next(tab.get().progress) : next);
  try {
    const done = await job.work(setProgress, controller.signal);
    tell('success', job.success, options);
    return done;
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') return null;
    tell('error', job.failure(error), options);
    return null;
  } finally {
    tab.set({ ...tab.get(), busy: false, progress: null });
  }
}

export interface Checks {
  /** The tab has a photo other than a chosen file (the video tab's finished image). */
  hasOtherPhoto?: () => boolean;
  /** A reason the tool cannot start now (told and announced), or undefined. */
  blocked?: () => string | undefined;
  /** Checks the options, shows their errors beside the fields, and returns the first one (toasted). */
  validate: () => string | undefined;
  /** For the toasts of those two (the video tab keeps its toasts longer). */
  options?: ExternalToast;
}

/** A tab's submit: a photo first, then the tab's checks, then the job; its result becomes the tab's. */
export async function submit<K extends ToolKind>(kind: K, checks: Checks, run: (file: File | null) => Promise<Results[K] | null>): Promise<void> {
  const { file } = tabs[kind].get();
  if (!file && !checks.hasOtherPhoto?.()) return tell('error', MSG.uploadFirst);
  const reason = checks.blocked?.();
  if (reason) return tell('error', reason, checks.options);
  const problem = checks.validate();
  if (problem) return void toast.error(problem, checks.options);
  setResult(kind, null);
  const done = await run(file);
  if (done) setResult(kind, done);
}
