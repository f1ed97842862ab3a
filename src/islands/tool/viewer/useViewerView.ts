import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { ZOOM_STEP, fitView, panBy, viewForKey, zoomTo, type Size, type View } from '../../../lib/tool/zoom';

/**
 * The full-size viewer's view: the picture's size, the pane's, and the zoom and centre shown, fitted until the
 * visitor zooms or pans. Pointer handlers pan with one pointer and zoom with two (a pinch, around its middle);
 * the wheel zooms around the pointer; keys pan and zoom (zoom.ts says which).
 */
export function useViewerView(width: number, height: number, layoutKey: string) {
  const [image, setImage] = useState<Size>({ w: width, h: height });
  const [port, setPort] = useState<Size>({ w: 0, h: 0 });
  const [view, setView] = useState<View>({ scale: 1, cx: width / 2, cy: height / 2 });
  const fitted = useRef(true);
  const portRef = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<number | null>(null);

  // One pane's size: the whole stage, or half of it side by side.
  useLayoutEffect(() => {
    const el = portRef.current;
    if (!el) return;
    const measure = () => setPort({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [layoutKey]);

  // Until the visitor zooms, the view follows the fit (new pane size, real image size).
  useEffect(() => {
    if (port.w === 0) return;
    setView((v) => (fitted.current ? fitView(image, port) : zoomTo(v, v.scale, image, port)));
  }, [image, port]);

  const update = useCallback((next: (v: View) => View) => {
    fitted.current = false;
    setView(next);
  }, []);
  const fit = () => {
    fitted.current = true;
    setView(fitView(image, port));
  };
  const zoomBy = (factor: number) => update((v) => zoomTo(v, v.scale * factor, image, port));

  /** A client point in the coordinates of the pane it happened in (every pane shows the same view). */
  const local = (e: { clientX: number; clientY: number }, pane: Element) => {
    const box = pane.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };

  const onPointerDown = (e: PointerEvent<HTMLElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    pinch.current = null;
  };
  const onPointerMove = (e: PointerEvent<HTMLElement>) => {
    const last = pointers.current.get(e.pointerId);
    if (!last) return;
    const now = { x: e.clientX, y: e.clientY };
    pointers.current.set(e.pointerId, now);
    if (pointers.current.size >= 2) {
      // Two fingers: zoom by the change in their distance around their midpoint, and follow the midpoint.
      const [a, b] = [...pointers.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch.current) {
        const ratio = distance / pinch.current;
        const mid = local({ clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2 }, e.currentTarget);
        const moved = { x: (now.x - last.x) / 2, y: (now.y - last.y) / 2 };
        update((v) => panBy(zoomTo(v, v.scale * ratio, image, port, mid), moved.x, moved.y, image, port));
      }
      pinch.current = distance;
      return;
    }
    update((v) => panBy(v, now.x - last.x, now.y - last.y, image, port));
  };
  const onPointerUp = (e: PointerEvent<HTMLElement>) => {
    pointers.current.delete(e.pointerId);
    pinch.current = null;
  };
  const onWheel = (e: WheelEvent<HTMLElement>) => {
    const at = local(e, e.currentTarget);
    update((v) => zoomTo(v, e.deltaY < 0 ? v.scale * ZOOM_STEP : v.scale / ZOOM_STEP, image, port, at));
  };
  /** Handles a view key (arrows pan, + − 1 0 zoom); returns whether it was one. */
  const onViewKey = (e: KeyboardEvent<HTMLElement>, arrows = true): boolean => {
    if (!arrows && e.key.startsWith('Arrow')) return false;
    const next = viewForKey(e.key, e.shiftKey, view, image, port);
    if (!next) return false;
    if (e.key === '0') fit();
    else update(() => next);
    return true;
  };

  return {
    portRef,
    image,
    setImage,
    port,
    view,
    update,
    fit,
    zoomBy,
    /** Whether the view follows this pointer (it pans or pinches with it). */
    tracks: (id: number) => pointers.current.has(id),
    /** Hands a pointer already down (a first finger that was marking) to the view, for a pinch. */
    addPointer: (id: number, x: number, y: number) => {
      pointers.current.set(id, { x, y });
      pinch.current = null;
    },
    panHandlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel: onPointerUp },
    onWheel,
    onViewKey,
  };
}

/** The view without its pane ref (passed on separately: the ref is for the pane element only). */
export type ViewerView = Omit<ReturnType<typeof useViewerView>, 'portRef'>;
export type PortRef = ReturnType<typeof useViewerView>['portRef'];
