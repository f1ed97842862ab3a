import { persistentAtom } from '@nanostores/persistent';
import type { ToolKind } from './constants';

/**
 * The result each tab of the tool shows, by transformation id, kept in localStorage so the result is still
 * there when the buyer comes back from the checkout or reloads. Only the id is kept: the tab asks the
 * server for fresh signed URLs (and the server for the clean file, see $purchases).
 */
export type SavedResults = Partial<Record<ToolKind, string>>;
export const TOOL_RESULTS_STORAGE_KEY = 'lumora-tool-results';

export function decodeSavedResults(raw: string): SavedResults {
  try {
    const parsed = JSON.parse(raw) as Record<string, unknown> | null;
    const saved: SavedResults = {};
    for (const kind of ['image', 'video'] as const) {
      if (typeof parsed?.[kind] === 'string') saved[kind] = parsed[kind];
    }
    return saved;
  } catch {
    return {};
  }
}

export const $savedResults = persistentAtom<SavedResults>(TOOL_RESULTS_STORAGE_KEY, {}, {
  encode: JSON.stringify,
  decode: decodeSavedResults,
});

/** Remembers (or, with no id, forgets) the result a tab shows. */
export function saveResult(kind: ToolKind, transformationId: string | undefined): void {
  const { [kind]: _previous, ...others } = $savedResults.get();
  $savedResults.set(transformationId ? { ...others, [kind]: transformationId } : others);
}
