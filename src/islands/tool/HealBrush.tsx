import { useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { HEAL_RADIUS, MAX_HEAL_MARKS, MAX_HEAL_POINTS, type HealMark } from '../../lib/tool/image-schema';
import { MSG } from '../../lib/messages';
import { BRUSH_SIZES, DEFAULT_BRUSH, markPoints, marksLabel, moveCrosshair, roundPoint, type BrushSize, type Point } from '../../lib/tool/heal-brush';

/**
 * Heal brush: the buyer marks a scratch or spot the automatic restoration left, by clicking on it or dragging
 * a short stroke along it, or from the keyboard with a crosshair; every change re-renders the result on the
 * server with the full list of marks (Undo sends it without the last one, Clear sends none).
 */
export interface HealBrushProps {
  imageUrl: string;
  /** Result size: the picture keeps its box while it loads, and the marks are drawn in its pixels. */
  width?: number;
  height?: number;
  /** The marks the shown result was rendered with. */
  marks: HealMark[];
  /** Re-renders with `next`; resolves false when that failed (the shown result and marks then stay). */
  onCommit: (next: HealMark[], done: string) => Promise<boolean>;
  busy: boolean;
}

const CENTRE: Point = { x: 0.5, y: 0.5 };

export default function HealBrush({ imageUrl, width, height, marks, onCommit, busy }: HealBrushProps) {
  // Shown marks: the committed ones, or the list being rendered (put back if that render fails).
  const [shown, setShown] = useState(marks);
  const [size, setSize] = useState<BrushSize>(DEFAULT_BRUSH);
  const [cursor, setCursor] = useState<Point>(CENTRE);
  const [focused, setFocused] = useState(false);
  /** Keyboard stroke under way: where it started. */
  const [strokeStart, setStrokeStart] = useState<Point | null>(null);
  /** Mouse, pen or touch stroke under way. */
  const [drag, setDrag] = useState<Point[] | null>(null);
  const [status, setStatus] = useState('');
  const boxRef = useRef<HTMLDivElement>(null);
  // Positions are read against the picture itself (inside the frame's border), where the marks are drawn.
  const imgRef = useRef<HTMLImageElement>(null);
  const pictureBox = () => (imgRef.current ?? boxRef.current)!.getBoundingClientRect();
  const ids = useId();

  useEffect(() => setShown(marks), [marks]);

  const radius = BRUSH_SIZES.find((b) => b.id === size)!.radius;
  const W = width ?? 1000, H = height ?? 750, side = Math.max(W, H);
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

  const pointAt = (event: PointerEvent<HTMLDivElement>): Point => {
    const box = pictureBox();
    return roundPoint({ x: (event.clientX - box.left) / box.width, y: (event.clientY - box.top) / box.height });
  };
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (busy || event.button !== 0) return;
    event.currentTarget.setPointerCapture(event.pointerId);
    setStrokeStart(null);
    setDrag([pointAt(event)]);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    if (drag) setDrag([...drag, pointAt(event)]);
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    if (!drag) return;
    const path = [...drag, pointAt(event)];
    const box = pictureBox();
    setDrag(null);
    setCursor(path[path.length - 1]!);
    add(markPoints(path, box.width, box.height, MAX_HEAL_POINTS));
  };

  const onCanvasKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const moved = moveCrosshair(cursor, event.key, event.shiftKey);
    if (moved) {
      event.preventDefault();
      setCursor(moved);
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      if (busy) return;
      const box = pictureBox();
      add(markPoints(strokeStart ? [strokeStart, cursor] : [cursor], box.width, box.height, MAX_HEAL_POINTS));
      setStrokeStart(null);
    } else if ((event.key === 's' || event.key === 'S') && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      setStrokeStart(cursor);
      setStatus('Stroke started: move the crosshair with the arrow keys, Enter ends the stroke, Escape cancels it.');
    } else if (event.key === 'Escape' && strokeStart) {
      event.preventDefault();
      setStrokeStart(null);
      setStatus('Stroke cancelled.');
    }
  };
  // Ctrl+Z (⌘Z) anywhere in the heal brush's controls.
  const onPanelKey = (event: KeyboardEvent<HTMLDivElement>) => {
    if ((event.ctrlKey || event.metaKey) && !event.shiftKey && event.key.toLowerCase() === 'z') {
      event.preventDefault();
      undo();
    }
  };

  const live = drag ?? (strokeStart ? [strokeStart, cursor] : null);
  const toView = (p: Point) => `${p.x * W},${p.y * H}`;
  const markShape = (m: HealMark, key: string, pending = false) => {
    const r = (m.radius ?? HEAL_RADIUS.default) * side;
    return m.points.length === 1 ? (
      <circle key={key} data-mark={pending ? 'pending' : 'done'} className={pending ? 'fill-accent-2/25' : 'fill-accent-2/45'} cx={m.points[0]!.x * W} cy={m.points[0]!.y * H} r={r} />
    ) : (
      <polyline key={key} data-mark={pending ? 'pending' : 'done'} className={pending ? 'stroke-accent-2/25' : 'stroke-accent-2/45'} points={m.points.map(toView).join(' ')} strokeWidth={2 * r} fill="none" strokeLinecap="round" strokeLinejoin="round" />
    );
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
        </p>
        <div className="flex flex-wrap items-center gap-3">
          <label className="label flex items-center gap-2" htmlFor={`${ids}-size`}>
            Brush size
          </label>
          <select id={`${ids}-size`} className="field w-auto" value={size} onChange={(e) => setSize(e.currentTarget.value as BrushSize)}>
            {BRUSH_SIZES.map((b) => (
              <option key={b.id} value={b.id}>
                {b.label}
              </option>
            ))}
          </select>
        </div>
        {/* A drawing surface: role="application" hands arrow keys and pointer input to the handlers below. */}
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
        <div
          ref={boxRef}
          role="application"
          tabIndex={0}
          aria-label="Picture for the heal brush"
          aria-describedby={`${ids}-help ${ids}-count`}
          aria-disabled={busy || undefined}
          aria-busy={busy || undefined}
          onPointerDown={onPointerDown}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={() => setDrag(null)}
          onKeyDown={onCanvasKey}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            setStrokeStart(null);
          }}
          onContextMenu={(e) => e.preventDefault()}
          className={`relative touch-none select-none overflow-hidden rounded-md border border-border ${busy ? 'cursor-progress' : 'cursor-crosshair'}`}
          data-testid="heal-canvas"
        >
          <img ref={imgRef} src={imageUrl} width={width} height={height} alt="Result, mark the damage to remove" className="block h-auto w-full" decoding="async" draggable={false} />
          <svg className="pointer-events-none absolute inset-0 h-full w-full" viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" aria-hidden="true" data-testid="heal-marks">
            {shown.map((m, i) => markShape(m, `m${i}`))}
            {live && markShape({ points: live, radius }, 'live', true)}
            {focused && (
              <g className="stroke-accent-2" strokeWidth={2} data-testid="heal-crosshair">
                <circle cx={cursor.x * W} cy={cursor.y * H} r={radius * side} fill="none" vectorEffect="non-scaling-stroke" />
                <line x1={cursor.x * W - 3 * radius * side} x2={cursor.x * W + 3 * radius * side} y1={cursor.y * H} y2={cursor.y * H} vectorEffect="non-scaling-stroke" />
                <line x1={cursor.x * W} x2={cursor.x * W} y1={cursor.y * H - 3 * radius * side} y2={cursor.y * H + 3 * radius * side} vectorEffect="non-scaling-stroke" />
              </g>
            )}
          </svg>
          {busy && (
            <div className="absolute inset-0 grid place-items-center bg-black/30" data-testid="heal-busy">
              <span aria-hidden="true" className="h-8 w-8 animate-spin rounded-full border-4 border-white/40 border-t-white" />
            </div>
          )}
        </div>
        {busy && <progress className="h-2 w-full accent-[var(--c-accent-strong)]" aria-label="Re-rendering the picture" max={1} />}
        <div className="flex flex-wrap items-center gap-3">
          <span id={`${ids}-count`} className="text-sm font-semibold" data-testid="heal-count">
            {marksLabel(shown.length)}
          </span>
          <button type="button" className="btn-secondary" onClick={undo} disabled={busy || shown.length === 0}>
            Undo
          </button>
          <button type="button" className="link text-sm" onClick={clear} disabled={busy || shown.length === 0}>
            Clear marks
          </button>
        </div>
        <p className="sr-only" role="status" aria-live="polite">
          {busy ? 'Re-rendering the picture…' : status}
        </p>
      </div>
    </details>
  );
}
