import { useEffect, useState } from 'react';
import { toast } from '../../lib/toast';
import { MSG, TOAST_VIDEO_MS } from '../../lib/messages';
import { VIDEO_POLL_MS } from '../../lib/tool/constants';
import type { VideoResolution } from '../../lib/tool/video-modes';
import {
  ApiError,
  checkVideoAvailability,
  startVideo,
  waitForTransformation,
  type VideoAvailability,
  type VideoResult,
} from '../../lib/tool/api';
import { failureMessage, type Announce } from './announce';
import { useToolJob } from './useToolJob';

export const videoToast = { duration: TOAST_VIDEO_MS };

export type VideoRequest = { file: File; prompt: string; mode: string; resolution: VideoResolution };

/**
 * The video service's availability (checked once on mount) and one generation at a time: upload, then the job's
 * progress polled until it ends. `generate` resolves with the finished result, or null when it failed (the buyer
 * has been told why) or the tab went away.
 */
export function useVideoJob(announce: Announce) {
  const [availability, setAvailability] = useState<VideoAvailability>('unknown');
  const [checking, setChecking] = useState(true);
  const { busy, progress, run } = useToolJob(announce, videoToast);

  useEffect(() => {
    let live = true;
    checkVideoAvailability().then((a) => {
      if (!live) return;
      setAvailability(a);
      setChecking(false);
    });
    return () => {
      live = false;
    };
  }, []);

  const generate = ({ file, prompt, mode, resolution }: VideoRequest): Promise<VideoResult | null> =>
    run({
      startProgress: 0,
      startToast: MSG.videoStarting,
      startAnnouncement: 'Generating your video...',
      work: async (setProgress, signal) => {
        const { transformationId } = await startVideo(file, { prompt, mode, resolution }, (f) => setProgress(f * 0.05));
        toast.info(MSG.videoGenerating, videoToast);
        const done = await waitForTransformation(transformationId, (s) => setProgress((p) => Math.max(p ?? 0, s.progress)), {
          intervalMs: VIDEO_POLL_MS,
          signal,
        });
        if (!done.videoUrl) throw new ApiError(MSG.videoNoUrl, 200);
        return { transformationId, videoUrl: done.videoUrl, originalImageUrl: done.originalImageUrl, resolution: done.resolution ?? resolution };
      },
      success: MSG.videoSuccess,
      failure: (error) => {
        if (!(error instanceof ApiError && error.status === 503)) return failureMessage(error, MSG.videoGeneratorError);
        setAvailability('unavailable');
        return MSG.videoUnavailable;
      },
    });

  return { availability, checking, busy, progress, generate };
}
