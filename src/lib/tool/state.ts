import { atom, computed, map, type MapStore } from 'nanostores';
import type { ExternalToast } from 'sonner';
import { toast } from '../toast';
import { MSG, TOAST_VIDEO_MS } from '../messages';
import {
  ApiError,
  applyHeal,
  applyHints,
  applyReference,
  checkVideoAvailability,
  loadImageResult,
  loadVideoResult,
  processImage,
  startVideo,
  startVideoFromImage,
  videoDefaults,
  waitForTransformation,
  type ColorHint,
  type ImageResult,
  type VideoAvailability,
  type VideoResult,
} from './api';
import { DEFAULT_IMAGE_PROMPT, DEFAULT_VIDEO_PROMPT, VIDEO_POLL_MS, isAcceptedFile, type ToolKind } from './constants';
import { BRUSH_SIZES, DEFAULT_BRUSH, type BrushSize, type Point } from './heal-brush';
import { IMAGE_MODELS, MAX_HEAL_MARKS, promptSchema, type HealMark } from './image-schema';
import { $savedResults, saveResult } from './saved';
import { videoPromptSchema, videoResolutionSchema, type VideoDefaults } from './video-schema';
import { DEFAULT_VIDEO_RESOLUTION, type VideoResolution } from './video-modes';

/**
 * The tool's state and actions, one module for both tabs (the cart's are in ../cart.ts). Islands read the
 * stores with `useStore` and call the actions; the actions talk to the server through ./api.ts, toast, and
 * announce in the tool's live region. Each tab: its file, options, job (busy, progress) and result, kept across
 * reloads by id (./saved.ts). The image result's edits: colour hints, heal marks, a colour reference photo.
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

/** The video tab's toasts stay longer (its job takes minutes). */
export const videoToast: ExternalToast = { duration: TOAST_VIDEO_MS };

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
type Results = { image: ImageResult; video: VideoResult };

const idle = <R>(): TabState<R> => ({ file: null, result: null, own: false, busy: false, progress: null });
export const $imageTab = map<TabState<ImageResult>>(idle());
export const $videoTab = map<TabState<VideoResult>>(idle());
const tabs: { [K in ToolKind]: MapStore<TabState<Results[K]>> } = { image: $imageTab, video: $videoTab };

export type ImageOptionErrors = { model?: string; prompt?: string };
export type VideoOptionErrors = { mode?: string; resolution?: string; prompt?: string };
export const $imageOptions = map({ model: IMAGE_MODELS[0]!.id as string, prompt: DEFAULT_IMAGE_PROMPT, errors: {} as ImageOptionErrors });
export const $videoOptions = map({
  mode: 'standard',
  resolution: DEFAULT_VIDEO_RESOLUTION as VideoResolution,
  prompt: DEFAULT_VIDEO_PROMPT,
  /** "Restore & colorize first" and "Bring faces to life": on until the server has judged the chosen photo. */
  restoreFirst: true,
  animateFaces: true,
  /** The server's judgement of the chosen photo (null while it is asked, or when it could not answer). */
  defaults: null as VideoDefaults | null,
  /** "Animate this photo": the finished image result the clip is made from instead of a file. */
  fromImage: null as { id: string; previewUrl: string } | null,
  errors: {} as VideoOptionErrors,
});
export type ImageOptions = Omit<ReturnType<typeof $imageOptions.get>, 'errors'>;
export type VideoOptions = Omit<ReturnType<typeof $videoOptions.get>, 'errors'>;

/** The tool's open tab. */
export const $toolTab = atom<ToolKind>('image');

/** The buyer's own choice of a switch wins over the defaults that arrive after it. */
const touched = { restoreFirst: false, animateFaces: false };

/** Sets one of the video tab's two switches (the buyer's choice). */
export function setVideoSwitch(name: 'restoreFirst' | 'animateFaces', on: boolean): void {
  touched[name] = true;
  setVideoOptions({ [name]: on });
}

/**
 * Asks the server what the video tab should offer for this photo (a chosen file, or the finished image "Animate
 * this photo" opened with) and shows it, unless the buyer chose already or picked another photo meanwhile.
 */
async function suggestVideoDefaults(source: File | { imageId: string }): Promise<void> {
  touched.restoreFirst = touched.animateFaces = false;
  setVideoOptions({ defaults: null, restoreFirst: true, animateFaces: true });
  // While the service is down nothing is sent: no job can start anyway.
  if ($videoService.get().availability === 'unavailable') return;
  const answer = await videoDefaults(source).catch(() => null);
  const current = source instanceof File ? $videoTab.get().file === source : $videoOptions.get().fromImage?.id === source.imageId;
  if (!answer || !current) return;
  setVideoOptions({
    defaults: answer,
    // An image result is restored already: the switch stays on (and disabled) whatever its colours look like.
    ...(!touched.restoreFirst && source instanceof File && { restoreFirst: answer.restoreFirst }),
    ...(!touched.animateFaces && { animateFaces: answer.animateFaces }),
  });
}

/** "Animate this photo": the video tab opens with the finished restoration as its photo. */
export function animatePhoto(image: ImageResult): void {
  $videoTab.setKey('file', null);
  setResult('video', null);
  setVideoOptions({ fromImage: { id: image.transformationId, previewUrl: image.processedUrl } });
  void suggestVideoDefaults({ imageId: image.transformationId });
  $toolTab.set('video');
  announce('Image to Video: your restored photo is ready to animate.');
}

/** Changes options; editing the prompt clears its error. */
export function setImageOptions(patch: Partial<ImageOptions>): void {
  const { errors } = $imageOptions.get();
  $imageOptions.set({ ...$imageOptions.get(), ...patch, errors: 'prompt' in patch ? { ...errors, prompt: undefined } : errors });
}
export function setVideoOptions(patch: Partial<VideoOptions>): void {
  const { errors } = $videoOptions.get();
  $videoOptions.set({ ...$videoOptions.get(), ...patch, errors: 'prompt' in patch ? { ...errors, prompt: undefined } : errors });
}

/** The video service: checked once when the tab mounts, unavailable after a 503. */
export const $videoService = map({ availability: 'unknown' as VideoAvailability, checking: true });

const changed: Record<ToolKind, boolean> = { image: false, video: false };

/** Sets a tab's result (remembered by id) as the buyer's own; an image result brings its hints and heal marks. */
export function setResult<K extends ToolKind>(kind: K, next: Results[K] | null): void {
  changed[kind] = true;
  showResult(kind, next, true);
  saveResult(kind, next?.transformationId);
}

function showResult<K extends ToolKind>(kind: K, next: Results[K] | null, own: boolean): void {
  const tab = tabs[kind] as MapStore<TabState<Results[K]>>;
  if (kind === 'image') syncEdits(tab.get().result as ImageResult | null, next as ImageResult | null);
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

export function chooseFile(kind: ToolKind, chosen: File): void {
  if (!accepts(kind, chosen)) return;
  tabs[kind].setKey('file', chosen);
  setResult(kind, null);
  if (kind === 'video') {
    setVideoOptions({ fromImage: null });
    void suggestVideoDefaults(chosen);
  }
}

/** Delete: the tab forgets its result (the image tab says so). */
export function deleteResult(kind: ToolKind): void {
  setResult(kind, null);
  if (kind === 'image') announce('Result deleted');
}

// ---------------------------------------------------------------- jobs

type SetProgress = (next: number | null | ((previous: number | null) => number | null)) => void;

interface Job<R> {
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
async function runJob<K extends ToolKind>(kind: K, job: Job<Results[K]>, options?: ExternalToast): Promise<Results[K] | null> {
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

interface Checks {
  /** A reason the tool cannot start now (told and announced), or undefined. */
  blocked?: () => string | undefined;
  /** Checks the options, shows their errors beside the fields, and returns the first one (toasted). */
  validate: () => string | undefined;
  /** For the toasts of those two (the video tab keeps its toasts longer). */
  options?: ExternalToast;
}

/** A tab's submit: a file (or, for a video, a finished image) first, then the tab's checks, then the job; its result becomes the tab's. */
async function submit<K extends ToolKind>(kind: K, checks: Checks, run: (file: File | null) => Promise<Results[K] | null>): Promise<void> {
  const { file } = tabs[kind].get();
  if (!file && !(kind === 'video' && $videoOptions.get().fromImage)) return tell('error', MSG.uploadFirst);
  const reason = checks.blocked?.();
  if (reason) return tell('error', reason, checks.options);
  const problem = checks.validate();
  if (problem) return void toast.error(problem, checks.options);
  setResult(kind, null);
  const done = await run(file);
  if (done) setResult(kind, done);
}

function checkImageOptions(): string | undefined {
  const { model, prompt } = $imageOptions.get();
  const errors: ImageOptionErrors = { model: model ? undefined : MSG.selectModel };
  const p = promptSchema.safeParse(prompt);
  if (!p.success) errors.prompt = p.error.issues[0]!.message;
  $imageOptions.setKey('errors', errors);
  return errors.model ?? errors.prompt;
}

/** Restore & Colorize. */
export function restoreImage(): Promise<void> {
  const { model, prompt } = $imageOptions.get();
  return submit('image', { validate: checkImageOptions }, (file) =>
    runJob('image', {
      startProgress: null,
      startToast: MSG.imageProcessing,
      startAnnouncement: 'Processing your image...',
      work: (setProgress) => processImage(file!, { model, prompt: prompt.trim() }, (f) => setProgress(f < 1 ? f : null)),
      success: MSG.imageSuccess,
      failure: (error) => failureMessage(error, MSG.imageError),
    }),
  );
}

/** Asks once whether the video service can take a job. */
export async function checkVideoService(): Promise<void> {
  const availability = await checkVideoAvailability();
  $videoService.set({ availability, checking: false });
}

function checkVideoOptions(): string | undefined {
  const { mode, resolution, prompt } = $videoOptions.get();
  const checked = { prompt: videoPromptSchema.safeParse(prompt), resolution: videoResolutionSchema.safeParse(resolution) };
  const errors: VideoOptionErrors = {
    mode: mode ? undefined : MSG.selectModel,
    resolution: checked.resolution.error?.issues[0]?.message,
    prompt: checked.prompt.error?.issues[0]?.message,
  };
  $videoOptions.setKey('errors', errors);
  return errors.mode ?? errors.resolution ?? errors.prompt;
}

/** Generate Video: upload, then the job's progress polled until it ends. */
export function generateVideo(): Promise<void> {
  const { mode, resolution, restoreFirst, animateFaces, fromImage, defaults } = $videoOptions.get();
  const prompt = $videoOptions.get().prompt.trim();
  const blocked = () => ($videoService.get().availability === 'unavailable' ? MSG.videoUnavailable : undefined);
  return submit('video', { blocked, validate: checkVideoOptions, options: videoToast }, (file) =>
    runJob(
      'video',
      {
        startProgress: 0,
        startToast: MSG.videoStarting,
        startAnnouncement: 'Generating your video...',
        work: async (setProgress, signal) => {
          const { transformationId } = file
            ? await startVideo(file, { prompt, mode, resolution, restoreFirst, animateFaces, subjects: defaults?.subjects }, (f) => setProgress(f * 0.05))
            : await startVideoFromImage(fromImage!.id, { prompt, mode, resolution, animateFaces, subjects: defaults?.subjects });
          toast.info(MSG.videoGenerating, videoToast);
          const done = await waitForTransformation(transformationId, (s) => setProgress((p) => Math.max(p ?? 0, s.progress)), {
            intervalMs: VIDEO_POLL_MS,
            signal,
          });
          if (!done.videoUrl) throw new ApiError(MSG.videoNoUrl, 200);
          return { transformationId, videoUrl: done.videoUrl, originalImageUrl: done.originalImageUrl, resolution: done.resolution ?? resolution, stillUrl: done.stillUrl ?? null };
        },
        success: MSG.videoSuccess,
        failure: (error) => {
          if (!(error instanceof ApiError && error.status === 503)) return failureMessage(error, MSG.videoGeneratorError);
          $videoService.setKey('availability', 'unavailable');
          return MSG.videoUnavailable;
        },
      },
      videoToast,
    ),
  );
}

// ---------------------------------------------------------------- the image result's edits

/**
 * The edits of the image result. `applying`: a re-render is running. The heal marks shown are the committed
 * ones, or the list being rendered (put back if that render fails); one list for every place the buyer marks
 * from (under the result and in the full-size viewer).
 */
export const $imageEdits = map({
  applying: false,
  hints: [] as ColorHint[],
  healShown: [] as HealMark[],
  brush: DEFAULT_BRUSH as BrushSize,
  /** The heal brush's latest message for screen readers. */
  healStatus: '',
});

/** The heal brush as the islands use it: marks shown, brush size and radius, whether the list is full. */
export const $heal = computed($imageEdits, (e) => ({
  shown: e.healShown,
  size: e.brush,
  /** The brush radius as a share of the picture's long side. */
  radius: BRUSH_SIZES.find((b) => b.id === e.brush)!.radius,
  busy: e.applying,
  full: e.healShown.length >= MAX_HEAL_MARKS,
  status: e.healStatus,
}));

/** A new result (processed now or restored from a previous visit) brings its own hints; any result its marks. */
function syncEdits(previous: ImageResult | null, next: ImageResult | null): void {
  const edits = $imageEdits.get();
  const sameResult = previous?.transformationId === next?.transformationId;
  $imageEdits.set({ ...edits, hints: sameResult ? edits.hints : (next?.hints ?? []), healShown: next?.healMarks ?? [] });
}

export const setHints = (hints: ColorHint[]) => $imageEdits.setKey('hints', hints);
export const setBrushSize = (size: BrushSize) => $imageEdits.setKey('brush', size);
export const setHealStatus = (status: string) => $imageEdits.setKey('healStatus', status);

/** Re-renders the result on the server; on failure the result shown stays. Resolves whether it worked. */
async function rerender(run: (id: string) => Promise<ImageResult>, done: string): Promise<boolean> {
  const { result } = $imageTab.get();
  if (!result) return false;
  $imageEdits.setKey('applying', true);
  try {
    setResult('image', await run(result.transformationId));
    tell('success', done);
    return true;
  } catch (error) {
    tell('error', error instanceof Error ? error.message : MSG.imageError());
    return false;
  } finally {
    $imageEdits.setKey('applying', false);
  }
}

export function applyColourHints(): void {
  const { hints } = $imageEdits.get();
  void rerender((id) => applyHints(id, hints), MSG.hintsApplied);
}

/** A colour reference photo; null goes back to automatic colours. */
export function applyColourReference(chosen: File | null): void {
  if (chosen && !accepts('image', chosen)) return;
  void rerender((id) => applyReference(id, chosen), chosen ? MSG.referenceApplied : MSG.referenceRemoved);
}

async function commitMarks(next: HealMark[], done: string): Promise<void> {
  $imageEdits.setKey('healShown', next);
  if (!(await rerender((id) => applyHeal(id, next), done))) $imageEdits.setKey('healShown', $imageTab.get().result?.healMarks ?? []);
}

/** Adds a mark (a click or a stroke) with the brush's radius and re-renders with the full list. */
export function addHealMark(points: Point[]): void {
  const heal = $heal.get();
  if (heal.busy || points.length === 0) return;
  if (heal.full) return setHealStatus(MSG.healMarksMax(MAX_HEAL_MARKS));
  void commitMarks([...heal.shown, { points, radius: heal.radius }], MSG.healApplied);
}

export function undoHealMark(): void {
  const { busy, shown } = $heal.get();
  if (!busy && shown.length) void commitMarks(shown.slice(0, -1), MSG.healUndone);
}

export function clearHealMarks(): void {
  const { busy, shown } = $heal.get();
  if (!busy && shown.length) void commitMarks([], MSG.healCleared);
}
