import { useEffect, useRef } from 'react';
import type { ToolKind } from '../../../lib/tool/constants';
import { abortJob, restoreSavedResult, type TabState } from '../../../lib/tool/state';

/**
 * A tab's life in the page: on mount it shows the result saved from a previous visit, on unmount it stops its
 * running job, and it focuses the result panel when the buyer's own result arrives. Returns the panel's ref.
 */
export function useTab(kind: ToolKind, tab: TabState<{ transformationId: string }>) {
  const panelRef = useRef<HTMLElement>(null);
  useEffect(() => {
    void restoreSavedResult(kind);
    return () => abortJob(kind);
  }, [kind]);

  const resultId = tab.result?.transformationId;
  const focusResult = !!tab.result && tab.own;
  useEffect(() => {
    if (focusResult) panelRef.current?.focus();
  }, [resultId, focusResult]);
  return panelRef;
}
