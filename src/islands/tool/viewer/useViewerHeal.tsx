import { useRef, type PointerEvent, type ReactNode } from 'react';
import HealMarksLayer from '../heal/HealMarksLayer';
import type { HealMarksState } from '../heal/useHeal';
import { useMarking } from '../heal/useMarking';
import type { PortRef, ViewerView } from './useViewerView';
import { roundPoint, screenStep } from '../../../lib/tool/heal-brush';
import { imagePoint, keepInView, transformFor } from '../../../lib/tool/zoom';

/**
 * The heal brush in the full-size viewer: the result pane, zoomed and panned as the viewer's, where a mouse,
 * pen or one-finger drag marks (the same marks as under the result), two fingers or the right or middle mouse
 * button move the picture, and the keyboard crosshair moves in small screen steps with the view following it.
 * Returns the pane and the marking (the viewer's stage takes its keys and focus).
 */
export function useViewerHeal(heal: HealMarksState, viewer: ViewerView, portRef: PortRef) {
  const { image, port, view } = viewer;
  const marking = useMarking(heal, {
    pointOf: (e) => {
      const box = portRef.current!.getBoundingClientRect();
      const p = imagePoint(view, port, { x: e.clientX - box.left, y: e.clientY - box.top });
      return roundPoint({ x: p.x / image.w, y: p.y / image.h });
    },
    screenSize: () => ({ width: image.w * view.scale, height: image.h * view.scale }),
    step: screenStep(image.w * view.scale, image.h * view.scale),
    onCursor: (p) => viewer.update((v) => keepInView(v, { x: p.x * image.w, y: p.y * image.h }, image, port)),
  });
  const touches = useRef(new Map<number, { x: number; y: number }>());

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.pointerType === 'touch') {
      touches.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
      if (touches.current.size === 1) return marking.handlers.onPointerDown(e);
      // A second finger: no stroke, the fingers move and zoom the picture.
      marking.cancelDrag();
      e.currentTarget.setPointerCapture(e.pointerId);
      for (const [id, at] of touches.current) viewer.addPointer(id, at.x, at.y);
      return;
    }
    if (e.button === 0) return marking.handlers.onPointerDown(e);
    viewer.panHandlers.onPointerDown(e);
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    if (touches.current.has(e.pointerId)) touches.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (viewer.tracks(e.pointerId)) viewer.panHandlers.onPointerMove(e);
    else marking.handlers.onPointerMove(e);
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    touches.current.delete(e.pointerId);
    if (viewer.tracks(e.pointerId)) viewer.panHandlers.onPointerUp(e);
    else marking.handlers.onPointerUp(e);
  };
  const onPointerCancel = (e: PointerEvent<HTMLDivElement>) => {
    touches.current.delete(e.pointerId);
    viewer.panHandlers.onPointerCancel(e);
    marking.cancelDrag();
  };

  const pane = (layer: ReactNode) => (
    <div
      ref={portRef}
      className={`absolute inset-0 overflow-hidden bg-black ${heal.busy ? 'cursor-progress' : 'cursor-crosshair'}`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onWheel={viewer.onWheel}
      onContextMenu={(e) => e.preventDefault()}
      style={{ touchAction: 'none' }}
      data-testid="viewer-heal"
    >
      {layer}
      <HealMarksLayer
        width={image.w}
        height={image.h}
        marks={heal.shown}
        live={marking.live}
        radius={heal.radius}
        crosshair={marking.focused ? marking.cursor : null}
        className="pointer-events-none absolute left-0 top-0 max-w-none origin-top-left"
        style={{ width: image.w, height: image.h, transform: transformFor(view, port) }}
      />
      {heal.busy && (
        <div className="absolute inset-0 grid place-items-center bg-black/30" data-testid="viewer-heal-busy">
          <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-white/40 border-t-white" />
        </div>
      )}
    </div>
  );
  return { pane, marking };
}
