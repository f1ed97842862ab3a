import { useState, type KeyboardEvent, type PointerEvent } from 'react';
import { MAX_HEAL_POINTS } from '../../../lib/tool/image-schema';
import { DEFAULT_CROSSHAIR_STEP, markPoints, moveCrosshair, type CrosshairStep, type Point } from '../../../lib/tool/heal-brush';
import type { HealMarksState } from './useHeal';

/**
 * Marking on a picture with the heal brush, the same on the small picture and in the full-size viewer: a mouse,
 * pen or one-finger drag draws a stroke (a barely moving one is a click on a speck); from the keyboard, the arrow
 * keys move a crosshair (Shift for big steps), Enter marks under it, S starts a stroke that Enter ends and Escape
 * cancels. The surface says how a pointer maps to the picture (`pointOf`), how big the picture is on screen
 * (`screenSize`, for telling a click from a stroke) and how far an arrow key moves.
 */
export interface MarkingSurface {
  pointOf: (event: { clientX: number; clientY: number }) => Point;
  screenSize: () => { width: number; height: number };
  step?: CrosshairStep;
  /** Called when the keyboard crosshair moves (the viewer keeps it in sight). */
  onCursor?: (p: Point) => void;
}

const CENTRE: Point = { x: 0.5, y: 0.5 };

export function useMarking(heal: HealMarksState, surface: MarkingSurface) {
  const [cursor, setCursor] = useState<Point>(CENTRE);
  const [focused, setFocused] = useState(false);
  /** Keyboard stroke under way: where it started. */
  const [strokeStart, setStrokeStart] = useState<Point | null>(null);
  /** Mouse, pen or touch stroke under way. */
  const [drag, setDrag] = useState<Point[] | null>(null);

  const moveTo = (p: Point) => {
    setCursor(p);
    surface.onCursor?.(p);
  };
  const finish = (path: Point[]) => {
    const { width, height } = surface.screenSize();
    heal.add(markPoints(path, width, height, MAX_HEAL_POINTS));
  };

  const onPointerDown = (event: PointerEvent<HTMLElement>) => {
    if (heal.busy || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setStrokeStart(null);
    setDrag([surface.pointOf(event)]);
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    if (drag) setDrag([...drag, surface.pointOf(event)]);
  };
  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    if (!drag) return;
    const path = [...drag, surface.pointOf(event)];
    setDrag(null);
    setCursor(path[path.length - 1]!);
    finish(path);
  };
  const cancelDrag = () => setDrag(null);

  /** Handles a marking key; returns whether it was one (the caller then stops it). */
  const onKey = (event: KeyboardEvent<HTMLElement>): boolean => {
    const moved = moveCrosshair(cursor, event.key, event.shiftKey, surface.step ?? DEFAULT_CROSSHAIR_STEP);
    if (moved) {
      moveTo(moved);
      return true;
    }
    if (event.key === 'Enter' || event.key === ' ') {
      if (!heal.busy) {
        finish(strokeStart ? [strokeStart, cursor] : [cursor]);
        setStrokeStart(null);
      }
      return true;
    }
    const plainS = (event.key === 's' || event.key === 'S') && !event.ctrlKey && !event.metaKey && !event.altKey;
    if (plainS) {
      setStrokeStart(cursor);
      heal.setStatus('Stroke started: move the crosshair with the arrow keys, Enter ends the stroke, Escape cancels it.');
      return true;
    }
    if (event.key === 'Escape' && strokeStart) {
      setStrokeStart(null);
      heal.setStatus('Stroke cancelled.');
      return true;
    }
    return false;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (onKey(event)) event.preventDefault();
  };

  const live = drag ?? (strokeStart ? [strokeStart, cursor] : null);
  return {
    cursor,
    focused,
    live,
    drawing: drag !== null,
    onKey,
    handlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp,
      onPointerCancel: cancelDrag,
      onKeyDown,
      onFocus: () => setFocused(true),
      onBlur: () => {
        setFocused(false);
        setStrokeStart(null);
      },
    },
    cancelDrag,
  };
}
