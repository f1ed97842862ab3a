import { useEffect, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import type { ExternalToast } from 'sonner';
import { toast } from '../../lib/toast';
import { tell, type Announce } from './announce';

export type ToolJob<R> = {
  /** The progress bar at the start: a fraction, or null for an indeterminate bar. */
  startProgress: number | null;
  /** The start's toast, and the shorter words announced with it. */
  startToast: string;
  startAnnouncement: string;
  /** The work itself: it reports progress and stops when the signal aborts (the tab went away). */
  work: (setProgress: Dispatch<SetStateAction<number | null>>, signal: AbortSignal) => Promise<R>;
  success: string;
  /** The message for a failure (and any state the failure changes). */
  failure: (error: unknown) => string;
};

/**
 * One tool job at a time (restore a photo, generate a video): busy and progress for the result panel, the toasts
 * and announcements of its start, success and failure, and an abort when the tab unmounts. `run` resolves with
 * the job's result, or null when it failed (the buyer has been told why) or was aborted.
 */
export function useToolJob(announce: Announce, toastOptions?: ExternalToast) {
  const [busy, setBusy] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => () => abortRef.current?.abort(), []);

  const run = async <R>(job: ToolJob<R>): Promise<R | null> => {
    setBusy(true);
    setProgress(job.startProgress);
    toast.info(job.startToast, toastOptions);
    announce(job.startAnnouncement);
    const controller = new AbortController();
    abortRef.current = controller;
    try {
      const done = await job.work(setProgress, controller.signal);
      tell(announce, 'success', job.success, toastOptions);
      return done;
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return null;
      tell(announce, 'error', job.failure(error), toastOptions);
      return null;
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };

  return { busy, progress, run };
}
