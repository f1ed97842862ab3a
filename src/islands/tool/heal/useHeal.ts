import { useStore } from '@nanostores/react';
import type { BrushSize, Point } from '../../../lib/tool/heal-brush';
import { $heal, addHealMark, clearHealMarks, setBrushSize, setHealStatus, undoHealMark } from '../../../lib/tool/state';

/**
 * The heal brush's marks as every marking surface uses them (the small picture under the result and the
 * full-size viewer): the one list in the tool's state, with its actions, each of which re-renders on the server.
 */
export interface HealMarksState {
  shown: ReturnType<typeof $heal.get>['shown'];
  size: BrushSize;
  setSize: (size: BrushSize) => void;
  /** The brush radius as a share of the picture's long side. */
  radius: number;
  busy: boolean;
  /** The list is full: no more marks. */
  full: boolean;
  /** The latest message for screen readers. */
  status: string;
  setStatus: (status: string) => void;
  add: (points: Point[]) => void;
  undo: () => void;
  clear: () => void;
}

export function useHeal(): HealMarksState {
  const heal = useStore($heal);
  return { ...heal, setSize: setBrushSize, setStatus: setHealStatus, add: addHealMark, undo: undoHealMark, clear: clearHealMarks };
}
