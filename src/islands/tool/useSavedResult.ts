import { useCallback, useEffect, useRef, useState } from 'react';
import type { ToolKind } from '../../lib/tool/constants';
import { $savedResults, saveResult } from '../../lib/tool/saved';

/**
 * A tab's result, kept across reloads and the trip to the checkout: every change is saved by id, and on
 * mount a saved id is loaded again from the server (fresh URLs). A result the server no longer has is
 * forgotten; a network failure keeps the id for the next visit. Anything the buyer does first wins.
 * The third value says whether the buyer set the result on this visit (the tabs focus only those).
 */
export function useSavedResult<T extends { transformationId: string }>(kind: ToolKind, load: (id: string) => Promise<T | null>) {
  const [result, setState] = useState<T | null>(null);
  const [own, setOwn] = useState(false);
  // Read by the pending load's callback, which must not overwrite what the buyer did meanwhile.
  const changed = useRef(false);

  useEffect(() => {
    const id = $savedResults.get()[kind];
    if (!id) return;
    let live = true;
    load(id).then(
      (found) => {
        if (!live || changed.current) return;
        if (found) setState(found);
        else saveResult(kind, undefined);
      },
      () => {},
    );
    return () => {
      live = false;
    };
  }, [kind, load]);

  const setResult = useCallback(
    (next: T | null) => {
      changed.current = true;
      setOwn(true);
      setState(next);
      saveResult(kind, next?.transformationId);
    },
    [kind],
  );
  return [result, setResult, own] as const;
}
