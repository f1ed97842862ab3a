import { useCallback, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type PointerEvent, type WheelEvent } from 'react';
import { Maximize2, X, ZoomIn, ZoomOut } from 'lucide-react';
import { site } from '../../lib/site';
import Watermark from '../Watermark';
import { SLIDER_START } from '../../lib/before-after';
import { ZOOM_STEP, fitView, panBy, transformFor, viewForKey, zoomTo, type Size, type View } from '../../lib/tool/zoom';

/**
 * Full-size result viewer: a native <dialog> (Escape closes, focus returns to its button) showing the
 * original and the result as a slider or side by side, zoomable to 100 % and beyond and pannable by mouse drag,
 * wheel, touch (drag and pinch) and keyboard. Before purchase it shows the same watermarked preview as the
 * tool, with the watermark overlaid too.
 */
export interface ResultViewerProps {
  beforeSrc: string;
  afterSrc: string;
  beforeLabel: string;
  afterLabel: string;
  beforeAlt: string;
  afterAlt: string;
  /** Known result size, used until the image reports its own. */
  width?: number;
  height?: number;
  watermarkText?: string;
}

type Mode = 'slider' | 'side';

export default function ResultViewer(props: ResultViewerProps) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const [open, setOpen] = useState(false);

  return (
    <>
      <button
        type="button"
        className="btn-secondary"
        onClick={() => {
          dialogRef.current?.showModal();
          setOpen(true);
        }}
      >
        <Maximize2 aria-hidden="true" className="h-4 w-4" /> View full size
      </button>
      <dialog
        ref={dialogRef}
        aria-labelledby="result-viewer-title"
        className="m-0 h-dvh max-h-none w-screen max-w-none bg-bg p-0 text-text backdrop:bg-black/80"
        onClose={() => setOpen(false)}
        data-testid="result-viewer"
      >
        {open && <ViewerBody {...props} onClose={() => dialogRef.current?.close()} />}
      </dialog>
    </>
  );
}

function ViewerBody({
  beforeSrc,
  afterSrc,
  beforeLabel,
  afterLabel,
  beforeAlt,
  afterAlt,
  width = 4,
  height = 3,
  watermarkText = site.brand,
  onClose,
}: ResultViewerProps & { onClose: () => void }) {
  const [mode, setMode] = useState<Mode>('slider');
  const [split, setSplit] = useState(SLIDER_START);
  const [image, setImage] = useState<Size>({ w: width, h: height });
  const [port, setPort] = useState<Size>({ w: 0, h: 0 });
  const [view, setView] = useState<View>({ scale: 1, cx: width / 2, cy: height / 2 });
  const fitted = useRef(true);
  const portRef = useRef<HTMLDivElement>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<number | null>(null);

  // One pane's size: the whole stage in slider mode, half of it side by side.
  useLayoutEffect(() => {
    const el = portRef.current;
    if (!el) return;
    const measure = () => setPort({ w: el.clientWidth, h: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [mode]);

  // Until the visitor zooms, the view follows the fit (new pane size, real image size).
  useEffect(() => {
    if (port.w === 0) return;
    setView((v) => (fitted.current ? fitView(image, port) : zoomTo(v, v.scale, image, port)));
  }, [image, port]);

  const update = useCallback((next: (v: View) => View) => {
    fitted.current = false;
    setView(next);
  }, []);

  /** A client point in the coordinates of the pane it happened in (both panes show the same view). */
  const local = (e: { clientX: number; clientY: number }, pane: Element) => {
    const box = pane.getBoundingClientRect();
    return { x: e.clientX - box.left, y: e.clientY - box.top };
  };

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.currentTarget.setPointerCapture(e.pointerId);
    pointers.current.set(e.pointerId, { x: e.clientX, y: e.clientY });
    pinch.current = null;
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const last = pointers.current.get(e.pointerId);
    if (!last) return;
    const now = { x: e.clientX, y: e.clientY };
    pointers.current.set(e.pointerId, now);
    if (pointers.current.size >= 2) {
      // Two fingers: zoom by the change in their distance, around their midpoint.
      const [a, b] = [...pointers.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (pinch.current) {
        const ratio = distance / pinch.current;
        const mid = local({ clientX: (a.x + b.x) / 2, clientY: (a.y + b.y) / 2 }, e.currentTarget);
        update((v) => zoomTo(v, v.scale * ratio, image, port, mid));
      }
      pinch.current = distance;
      return;
    }
    update((v) => panBy(v, now.x - last.x, now.y - last.y, image, port));
  };
  const onPointerUp = (e: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(e.pointerId);
    pinch.current = null;
  };
  const onWheel = (e: WheelEvent<HTMLDivElement>) => {
    const at = local(e, e.currentTarget);
    update((v) => zoomTo(v, e.deltaY < 0 ? v.scale * ZOOM_STEP : v.scale / ZOOM_STEP, image, port, at));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next = viewForKey(e.key, e.shiftKey, view, image, port);
    if (!next) return;
    e.preventDefault();
    if (e.key === '0') {
      fitted.current = true;
      setView(next);
    } else update(() => next);
  };

  const transform = transformFor(view, port);
  const layer = (src: string, alt: string, onSize?: (s: Size) => void) => (
    <img
      src={src}
      alt={alt}
      draggable={false}
      width={image.w}
      height={image.h}
      onLoad={onSize && ((e) => onSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight }))}
      className="absolute left-0 top-0 max-w-none origin-top-left select-none"
      style={{ width: image.w, height: image.h, transform }}
    />
  );
  const watermark = <Watermark text={watermarkText} />;
  const tag = (text: string, side: 'left' | 'right') => (
    <span className={`pointer-events-none absolute top-3 rounded bg-black/70 px-2 py-1 text-xs font-semibold text-white ${side === 'left' ? 'left-3' : 'right-3'}`}>
      {text}
    </span>
  );
  const paneProps = {
    onPointerDown,
    onPointerMove,
    onPointerUp,
    onPointerCancel: onPointerUp,
    onWheel,
    onContextMenu: (e: { preventDefault: () => void }) => e.preventDefault(),
    style: { touchAction: 'none' as const },
  };
  const percent = Math.round(view.scale * 100);

  return (
    <div className="flex h-full flex-col">
      <div className="flex flex-wrap items-center gap-2 border-b border-border p-3">
        <h2 id="result-viewer-title" className="mr-auto text-lg font-semibold">Full-size view</h2>
        <div role="group" aria-label="Layout" className="flex gap-1">
          {(['slider', 'side'] as const).map((m) => (
            <button key={m} type="button" className="btn-secondary px-3 py-1 text-sm aria-pressed:bg-accent-strong aria-pressed:text-white" aria-pressed={mode === m} onClick={() => setMode(m)}>
              {m === 'slider' ? 'Slider' : 'Side by side'}
            </button>
          ))}
        </div>
        {mode === 'slider' && (
          <label className="flex items-center gap-2 text-sm">
            <span>Split</span>
            <input type="range" min={0} max={100} step={1} value={split} onChange={(e) => setSplit(Number(e.currentTarget.value))} aria-label="Comparison position" className="w-28" />
          </label>
        )}
        <div role="group" aria-label="Zoom" className="flex items-center gap-1">
          <button type="button" className="btn-secondary px-2 py-1" aria-label="Zoom out" onClick={() => update((v) => zoomTo(v, v.scale / ZOOM_STEP, image, port))}>
            <ZoomOut aria-hidden="true" className="h-4 w-4" />
          </button>
          <output className="w-14 text-center text-sm tabular-nums" aria-live="polite" data-testid="zoom-level">{percent} %</output>
          <button type="button" className="btn-secondary px-2 py-1" aria-label="Zoom in" onClick={() => update((v) => zoomTo(v, v.scale * ZOOM_STEP, image, port))}>
            <ZoomIn aria-hidden="true" className="h-4 w-4" />
          </button>
          <button type="button" className="btn-secondary px-2 py-1 text-sm" onClick={() => update((v) => zoomTo(v, 1, image, port))}>100 %</button>
          <button
            type="button"
            className="btn-secondary px-2 py-1 text-sm"
            onClick={() => {
              fitted.current = true;
              setView(fitView(image, port));
            }}
          >
            Fit
          </button>
        </div>
        <button type="button" className="btn-secondary px-2 py-1" aria-label="Close full-size view" onClick={onClose}>
          <X aria-hidden="true" className="h-5 w-5" />
        </button>
      </div>
      <p id="result-viewer-help" className="sr-only">
        Drag, or use the arrow keys, to move the picture. Plus and minus zoom, 1 shows 100 %, 0 fits the picture. Escape closes.
      </p>
      {/* A pan-and-zoom surface: role="application" hands arrow and zoom keys to the handler below. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        className={`min-h-0 flex-1 ${mode === 'side' ? 'grid grid-cols-2 gap-1' : 'relative'}`}
        tabIndex={0}
        role="application"
        aria-label="Picture: drag or use the arrow keys to move, plus and minus to zoom"
        aria-describedby="result-viewer-help"
        onKeyDown={onKeyDown}
        data-testid="viewer-stage"
        data-scale={view.scale.toFixed(4)}
        data-center={`${Math.round(view.cx)},${Math.round(view.cy)}`}
      >
        {mode === 'slider' ? (
          <div ref={portRef} className="absolute inset-0 cursor-grab overflow-hidden bg-black active:cursor-grabbing" {...paneProps}>
            {layer(afterSrc, afterAlt, setImage)}
            <div className="absolute inset-0" style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }}>
              {layer(beforeSrc, beforeAlt)}
            </div>
            <span aria-hidden="true" className="pointer-events-none absolute inset-y-0 w-0.5 bg-white/90" style={{ left: `${split}%` }} />
            {tag(beforeLabel, 'left')}
            {tag(afterLabel, 'right')}
            {watermark}
          </div>
        ) : (
          <>
            <div ref={portRef} className="relative cursor-grab overflow-hidden bg-black active:cursor-grabbing" {...paneProps}>
              {layer(beforeSrc, beforeAlt)}
              {tag(beforeLabel, 'left')}
            </div>
            <div className="relative cursor-grab overflow-hidden bg-black active:cursor-grabbing" {...paneProps}>
              {layer(afterSrc, afterAlt, setImage)}
              {tag(afterLabel, 'left')}
              {watermark}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
