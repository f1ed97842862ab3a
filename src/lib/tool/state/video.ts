import { map } from 'nanostores';
import type { ExternalToast } from 'sonner';
import { toast } from '../../toast';
import { MSG, TOAST_VIDEO_MS } from '../../messages';
import {
  ApiError,
  checkVideoAvailability,
  startVideo,
  startVideoFromImage,
  videoDefaults,
  waitForTransformation,
  type ImageResult,
  type VideoAvailability,
} from '../api';
import { DEFAULT_VIDEO_PROMPT, VIDEO_POLL_MS } from '../constants';
import { videoPromptSchema, videoResolutionSchema, type VideoDefaults } from '../video-schema';
import { DEFAULT_VIDEO_RESOLUTION, type VideoResolution } from '../video-modes';
import { $toolTab, $videoTab, announce, failureMessage, runJob, setResult, submit, takeFile } from './shared';

/**
 * The Image to Video tab: its options (mode, resolution, prompt, the two switches and the server's defaults for
 * the chosen photo, or the finished image it animates), the video service's availability, and its job. The file,
 * job and result themselves are in ./shared.ts.
 */

/** The video tab's toasts stay longer (its job takes minutes). */
export const videoToast: ExternalToast = { duration: TOAST_VIDEO_MS };

export type VideoOptionErrors = { mode?: string; resolution?: string; prompt?: string };
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
export type VideoOptions = Omit<ReturnType<typeof $videoOptions.get>, 'errors'>;

/** Changes options; editing the prompt clears its error. */
export function setVideoOptions(patch: Partial<VideoOptions>): void {
  const { errors } = $videoOptions.get();
  $videoOptions.set({ ...$videoOptions.get(), ...patch, errors: 'prompt' in patch ? { ...errors, prompt: undefined } : errors });
}

/** The video service: checked once when the tab mounts, unavailable after a 503. */
export const $videoService = map({ availability: 'unknown' as VideoAvailability, checking: true });

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

/** A chosen photo replaces a finished image the tab was animating, and the server is asked for its defaults. */
export function chooseVideoFile(chosen: File): void {
  if (!takeFile('video', chosen)) return;
  setVideoOptions({ fromImage: null });
  void suggestVideoDefaults(chosen);
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
  const hasOtherPhoto = () => $videoOptions.get().fromImage !== null;
  return submit('video', { hasOtherPhoto, blocked, validate: checkVideoOptions, options: videoToast }, (file) =>
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
