import { computed, map, onSet } from 'nanostores';
import { MSG } from '../../messages';
import { applyHeal, applyHints, applyReference, processImage, type ColorHint, type ImageResult } from '../api';
import { DEFAULT_IMAGE_PROMPT } from '../constants';
import { BRUSH_SIZES, DEFAULT_BRUSH, type BrushSize, type Point } from '../heal-brush';
import { IMAGE_MODELS, MAX_HEAL_MARKS, promptSchema, type HealMark } from '../image-schema';
import { $imageTab, accepts, failureMessage, runJob, setResult, submit, takeFile, tell } from './shared';

/**
 * The Restore & Colorize tab: its options (model, prompt), its job, and the edits of its result (colour hints,
 * heal marks, a colour reference photo). The file, job and result themselves are in ./shared.ts.
 */

export type ImageOptionErrors = { model?: string; prompt?: string };
export const $imageOptions = map({ model: IMAGE_MODELS[0]!.id as string, prompt: DEFAULT_IMAGE_PROMPT, errors: {} as ImageOptionErrors });
export type ImageOptions = Omit<ReturnType<typeof $imageOptions.get>, 'errors'>;

/** Changes options; editing the prompt clears its error. */
export function setImageOptions(patch: Partial<ImageOptions>): void {
  const { errors } = $imageOptions.get();
  $imageOptions.set({ ...$imageOptions.get(), ...patch, errors: 'prompt' in patch ? { ...errors, prompt: undefined } : errors });
}

export function chooseImageFile(chosen: File): void {
  takeFile('image', chosen);
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

// Whenever the tab's result is set (by this tab, a batch's Edit, or a saved id), before anyone sees it: the
// edits follow it, so the tab's result and its marks never disagree.
onSet($imageTab, ({ newValue }) => {
  const previous = $imageTab.get().result;
  if (newValue.result !== previous) syncEdits(previous, newValue.result);
});

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
