import { useState } from 'react';
import { MSG } from '../../lib/messages';
import { applyHeal, applyHints, applyReference, type ColorHint, type ImageResult } from '../../lib/tool/api';
import { tell, type Announce } from './announce';
import { useHealMarks, type HealMarksState } from './useHealMarks';

const NO_MARKS: ImageResult['healMarks'] = [];

export interface ImageEdits {
  /** A re-render is running. */
  applying: boolean;
  heal: HealMarksState;
  hints: ColorHint[];
  setHints: (hints: ColorHint[]) => void;
  applyHints: () => void;
  /** A colour reference photo; null goes back to automatic colours. */
  reference: (chosen: File | null) => void;
}

/**
 * The changes a buyer makes to a finished restoration: colour hints, heal marks and a colour reference photo. Each
 * re-renders the result on the server; on failure the result shown stays. `accepts` checks a reference photo's type.
 */
export function useImageEdits(
  result: ImageResult | null,
  setResult: (next: ImageResult) => void,
  announce: Announce,
  accepts: (file: File) => boolean,
): ImageEdits {
  const [applying, setApplying] = useState(false);
  const [hints, setHints] = useState<ColorHint[]>([]);

  // A new result (processed now or restored from a previous visit) brings its own colour hints.
  const resultId = result?.transformationId;
  const [hintsFor, setHintsFor] = useState<string | undefined>(undefined);
  if (hintsFor !== resultId) {
    setHintsFor(resultId);
    setHints(result?.hints ?? []);
  }

  // Resolves false when the re-render failed (the heal marks go back to the committed ones).
  const rerender = async (run: (id: string) => Promise<ImageResult>, done: string): Promise<boolean> => {
    if (!result) return false;
    setApplying(true);
    try {
      setResult(await run(result.transformationId));
      tell(announce, 'success', done);
      return true;
    } catch (error) {
      tell(announce, 'error', error instanceof Error ? error.message : MSG.imageError());
      return false;
    } finally {
      setApplying(false);
    }
  };
  // Heal marks, shared by the heal brush under the result and the full-size viewer's.
  const heal = useHealMarks(result?.healMarks ?? NO_MARKS, (next, done) => rerender((id) => applyHeal(id, next), done), applying);

  const applyColourHints = () => {
    void rerender((id) => applyHints(id, hints), MSG.hintsApplied);
  };
  const reference = (chosen: File | null) => {
    if (chosen && !accepts(chosen)) return;
    void rerender((id) => applyReference(id, chosen), chosen ? MSG.referenceApplied : MSG.referenceRemoved);
  };

  return { applying, heal, hints, setHints, applyHints: applyColourHints, reference };
}
