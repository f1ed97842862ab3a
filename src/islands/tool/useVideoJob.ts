import { useEffect, useRef, useState } from 'react';
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

export const videoToast = { duration: TOAST_VIDEO_MS };

export type VideoRequest = { file: File; prompt: string; mode: string; resolution: VideoResolution };

/**
 * The video service's availability (checked once on mount) and one generation at a time: upload, the job's
 * progress polled until it ends, the toasts and announcements of each step. `generate` resolves with the
 * finished result, or null when it failed (the buyer has been told why) or the tab went away.
 */
export function useVideoJob(announce: (text: string) => void) {
  const [availability, setAvailability] = useState<VideoAvailability>('unknown');
  const [checking, setChecking] = useState(true);
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => {
    let live = true;
    checkVideoAvailability().then((a) => {
      if (!live) return;
      setAvailability(a);
      setChecking(false);
    });
    return () => {
      live = false;
      abortRef.current?.abort();
    };
  }, []);

  const generate = async ({ file, prompt, mode, resolution }: VideoRequest): Promise<VideoResult | null> => {
    setBusy(true);
    setProgress(0);
    toast.info(MSG.videoStarting, videoToast);
    announce('Generating your video...');
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const { transformationId } = await startVideo(file, { prompt, mode, resolution }, (f) => setProgress(f * 0.05));
      toast.info(MSG.videoGenerating, videoToast);
      const done = await waitForTransformation(transformationId, (s) => setProgress((p) => Math.max(p ?? 0, s.progress)), {
        intervalMs: VIDEO_POLL_MS,
        signal: controller.signal,
      });
      if (!done.videoUrl) throw new ApiError(MSG.videoNoUrl, 200);
      toast.success(MSG.videoSuccess, videoToast);
      announce(MSG.videoSuccess);
      return { transformationId, videoUrl: done.videoUrl, originalImageUrl: done.originalImageUrl, resolution: done.resolution ?? resolution };
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return null;
      const unavailable = error instanceof ApiError && error.status === 503;
      const message = unavailable
        ? MSG.videoUnavailable
        : error instanceof ApiError
          ? error.message
          : MSG.videoGeneratorError(error instanceof Error ? error.message : undefined);
      if (unavailable) setAvailability('unavailable');
      toast.error(message, videoToast);
      announce(message);
      return null;
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return { availability, checking, busy, progress, generate };
}
