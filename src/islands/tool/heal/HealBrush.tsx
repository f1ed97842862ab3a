import { useId, useRef, type KeyboardEvent } from 'react';
import HealControls from './HealControls';
import HealMarksLayer from './HealMarksLayer';
import type { HealMarksState } from './useHeal';
import { useMarking } from './useMarking';
import { roundPoint } from '../../../lib/tool/heal-brush';

/**
 * Heal brush under the result: the buyer marks a scratch or spot the automatic restoration left, by clicking on
 * it or dragging a short stroke along it, or from the keyboard with a crosshair; every change re-renders the
 * result on the server with the full list of marks (Undo sends it without the last one, Clear sends none). The
 * full-size viewer marks the same list, zoomed in.
 */
export interface HealBrushProps {
  imageUrl: string;
  /** Result size: the picture keeps its box while it loads, and the marks are drawn in its pixels. */
  width?: number;
  height?: number;
  heal: HealMarksState;
}

export default function HealBrush({ imageUrl, width, height, heal }: HealBrushProps) {
  const ids = useId();
  const boxRef = useRef<HTMLDivElement>(null);
  // Positions are read against the picture itself (inside the frame's border), where the marks are drawn.
  const imgRef = useRef<HTMLImageElement>(null);
  const pictureBox = () => (imgRef.current ?? boxRef.current)!.getBoundingClientRect();
  const marking = useMarking(heal, {
    pointOf: (e) => {
      const box = pictureBox();
      return roundPoint({ x: (e.clientX - box.left) / box.width, y: (e.clientY - box.top) / box.height });
    },
    screenSize: () => pictureBox(),
  });
  const W = width ?? 1000;
  const H = height ?? 750;
  // Ctrl+Z (⌘Z) anywhere in the heal brush's controls.
  const onPanelKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z') {
      event.preventDefault();
      heal.undo();
    }
  };

  return (
    <details className="rounded-lg border border-border p-4" data-testid="heal">
      <summary className="cursor-pointer font-semibold">Heal brush: remove a missed scratch or spot (optional)</summary>
      {/* Only catches Ctrl+Z bubbling up from the controls inside. */}
      <div className="mt-2 space-y-3" role="presentation" onKeyDown={onPanelKey}>
        <p id={`${ids}-help`} className="text-sm text-muted">
          Click on a spot, or drag a short stroke along a scratch: the restoration removes what stands out there and
          nothing else. Keyboard: focus the picture, move the crosshair with the arrow keys (Shift for bigger steps),
          press Enter to mark the spot under it, or S to start a stroke and Enter to end it. Ctrl+Z undoes the last mark.
          For a thin scratch on a large photo, open View full size and choose Heal there: it marks zoomed in.
        </p>
        {/* A drawing surface: role="application" hands arrow keys and pointer input to the marking handlers. */}
        <div
          ref={boxRef}
          role="application"
          tabIndex={0}
          aria-label="Picture for the heal brush"
          aria-describedby={`${ids}-help ${ids}-count`}
          aria-disabled={heal.busy || undefined}
          aria-busy={heal.busy || undefined}
          {...marking.handlers}
          onContextMenu={(e) => e.preventDefault()}
          className={`relative touch-none select-none overflow-hidden rounded-md border border-border ${heal.busy ? 'cursor-progress' : 'cursor-crosshair'}`}
          data-testid="heal-canvas"
        >
          <img ref={imgRef} src={imageUrl} width={width} height={height} alt="Result, mark the damage to remove" className="block h-auto w-full" decoding="async" draggable={false} />
          <HealMarksLayer width={W} height={H} marks={heal.shown} live={marking.live} radius={heal.radius} crosshair={marking.focused ? marking.cursor : null} />
          {heal.busy && (
            <div className="absolute inset-0 grid place-items-center bg-black/30" data-testid="heal-busy">
              <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-white/40 border-t-white" />
            </div>
          )}
        </div>
        {heal.busy && <progress className="h-2 w-full accent-[var(--c-accent-strong)]" aria-label="Re-rendering the picture" max={1} />}
        <HealControls heal={heal} countId={`${ids}-count`} />
      </div>
    </details>
  );
}
