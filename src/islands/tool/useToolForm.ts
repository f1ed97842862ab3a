import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ExternalToast } from 'sonner';
import { toast } from '../../lib/toast';
import { MSG } from '../../lib/messages';
import { isAcceptedFile, type ToolKind } from '../../lib/tool/constants';
import { useSavedResult } from './useSavedResult';
import { tell, type Announce } from './announce';

const INVALID_TYPE: Record<ToolKind, string> = { image: MSG.imageInvalidType, video: MSG.videoInvalidType };

export type ToolSubmit<R> = {
  /** A reason the tool cannot start now (told and announced), or undefined. */
  blocked?: () => string | undefined;
  /** Checks the options, shows their errors beside the fields, and returns the first one (toasted). */
  validate: () => string | undefined;
  /** Runs the job on the chosen file: its result, or null when it did not finish. */
  run: (file: File) => Promise<R | null>;
};

type Options<R> = {
  kind: ToolKind;
  load: (id: string) => Promise<R | null>;
  announce: Announce;
  /** For the toasts of the options' errors (the video tab keeps its toasts longer). */
  toastOptions?: ExternalToast;
};

/**
 * A tool tab's form: the chosen file (checked by type), the tab's saved result, focus on the result panel when
 * the buyer's own result arrives, and the submit (a file first, then the tab's checks, then the job).
 */
export function useToolForm<R extends { transformationId: string }>({ kind, load, announce, toastOptions }: Options<R>) {
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult, ownResult] = useSavedResult(kind, load);
  const panelRef = useRef<HTMLElement>(null);

  const resultId = result?.transformationId;
  const focusResult = !!result && ownResult;
  useEffect(() => {
    if (focusResult) panelRef.current?.focus();
  }, [resultId, focusResult]);

  /** Whether the tool takes this file; when not, the buyer is told why. */
  const accepts = (chosen: File): boolean => {
    if (isAcceptedFile(kind, chosen)) return true;
    tell(announce, 'error', INVALID_TYPE[kind]);
    return false;
  };

  const chooseFile = (chosen: File) => {
    if (!accepts(chosen)) return;
    setFile(chosen);
    setResult(null);
  };

  const submit = ({ blocked, validate, run }: ToolSubmit<R>) => async (event: FormEvent) => {
    event.preventDefault();
    if (!file) {
      tell(announce, 'error', MSG.uploadFirst);
      return;
    }
    const reason = blocked?.();
    if (reason) {
      tell(announce, 'error', reason, toastOptions);
      return;
    }
    const problem = validate();
    if (problem) {
      toast.error(problem, toastOptions);
      return;
    }
    setResult(null);
    const done = await run(file);
    if (done) setResult(done);
  };

  return { file, chooseFile, accepts, result, setResult, panelRef, submit };
}
