import { useEffect, useState } from 'react';
import { MAX_HEAL_MARKS, type HealMark } from '../../lib/tool/image-schema';
import { MSG } from '../../lib/messages';
import { BRUSH_SIZES, DEFAULT_BRUSH, type BrushSize, type Point } from '../../lib/tool/heal-brush';

/**
 * The heal brush's marks, shared by every place the buyer marks from (the small picture under the result and
 * the full-size viewer): the marks shown (the committed ones, or the list being rendered, put back if that
 * render fails), the brush size, and adding, undoing and clearing, each of which re-renders on the server.
 */
export interface HealMarksState {
  shown: HealMark[];
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

export function useHealMarks(marks: HealMark[], onCommit: (next: HealMark[], done: string) => Promise<boolean>, busy: boolean): HealMarksState {
  const [shown, setShown] = useState(marks);
  const [size, setSize] = useState<BrushSize>(DEFAULT_BRUSH);
  const [status, setStatus] = useState('');
  useEffect(() => setShown(marks), [marks]);

  const radius = BRUSH_SIZES.find((b) => b.id === size)!.radius;
  const full = shown.length >= MAX_HEAL_MARKS;
  const commit = async (next: HealMark[], done: string) => {
    setShown(next);
    if (!(await onCommit(next, done))) setShown(marks);
  };
  const add = (points: Point[]) => {
    if (busy || points.length === 0) return;
    if (full) {
      setStatus(MSG.healMarksMax(MAX_HEAL_MARKS));
      return;
    }
    void commit([...shown, { points, radius }], MSG.healApplied);
  };
  const undo = () => {
    if (!busy && shown.length) void commit(shown.slice(0, -1), MSG.healUndone);
  };
  const clear = () => {
    if (!busy && shown.length) void commit([], MSG.healCleared);
  };
  return { shown, size, setSize, radius, busy, full, status, setStatus, add, undo, clear };
}
