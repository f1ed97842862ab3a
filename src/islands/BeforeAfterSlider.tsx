import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import {
  SLIDER_START,
  afterImageError,
  clampPercent,
  initialImageState,
  percentFromPointer,
  positionForKey,
  type ImageLoadState,
} from '../lib/before-after';
import { MSG } from '../lib/messages';
import Watermark from './Watermark';
import { site } from '../lib/site';

/**
 * Before/after comparison (shared with the transformation tool). The "before" image sits on
 * top, clipped to the split position. Drag the handle (mouse, pen or touch), use the arrow keys, Home/End
 * on the focused handle, or the range input below. The right-click menu is blocked over the images.
 */
export interface BeforeAfterSliderProps {
  beforeSrc: string;
  afterSrc: string;
  beforeAlt: string;
  afterAlt: string;
  beforeLabel?: string;
  afterLabel?: string;
  watermarkText?: string;
  width: number;
  height: number;
  /** Eager-load (hero) or lazy-load (below the fold). */
  eager?: boolean;
}

type Which = 'before' | 'after';

export default function BeforeAfterSlider({
  beforeSrc,
  afterSrc,
  beforeAlt,
  afterAlt,
  beforeLabel = 'Original',
  afterLabel = 'Restored',
  watermarkText = site.brand,
  width,
  height,
  eager = false,
}: BeforeAfterSliderProps) {
  const [position, setPosition] = useState(SLIDER_START);
  const [dragging, setDragging] = useState(false);
  // Before hydration the plain addresses render (works without JavaScript); once mounted, and whenever
  // the addresses change, the flags and retry counters reset and each address gets a time-stamp.
  const [images, setImages] = useState<Record<Which, ImageLoadState> | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const now = Date.now();
    setImages({ before: initialImageState(beforeSrc, now), after: initialImageState(afterSrc, now) });
  }, [beforeSrc, afterSrc]);

  const onLoad = (which: Which) => setImages((s) => (s ? { ...s, [which]: { ...s[which], loaded: true } } : s));
  const onError = (which: Which) =>
    setImages((s) => (s ? { ...s, [which]: afterImageError(s[which], which === 'before' ? beforeSrc : afterSrc) } : s));

  const moveTo = useCallback((clientX: number) => {
    const box = boxRef.current?.getBoundingClientRect();
    if (box) setPosition(percentFromPointer(clientX, box.left, box.width));
  }, []);

  const start = (event: PointerEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(true);
    moveTo(event.clientX);
  };
  const move = (event: PointerEvent<HTMLElement>) => {
    if (dragging) moveTo(event.clientX);
  };
  const stop = () => setDragging(false);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const next = positionForKey(event.key, position);
    if (next === null) return;
    event.preventDefault();
    setPosition(next);
  };

  const loading = images !== null && !(images.before.loaded && images.after.loaded) && !images.before.error && !images.after.error;
  const failed = images !== null && (images.before.error || images.after.error);
  const url = (which: Which) => images?.[which].url ?? (which === 'before' ? beforeSrc : afterSrc);
  const rounded = Math.round(position);

  // Both pictures fill the box, one over the other; the "before" one is clipped to the split.
  const layer = (which: Which) => ({
    src: url(which),
    width,
    height,
    loading: eager ? ('eager' as const) : ('lazy' as const),
    decoding: 'async' as const,
    draggable: false,
    onLoad: () => onLoad(which),
    onError: () => onError(which),
    className: 'absolute inset-0 h-full w-full object-cover',
  });

  return (
    <div className="before-after">
      <div
        ref={boxRef}
        className="relative overflow-hidden rounded-xl border border-border bg-surface-2 select-none"
        style={{ aspectRatio: `${width} / ${height}`, touchAction: dragging ? 'none' : 'pan-y' }}
        onContextMenu={(e) => e.preventDefault()}
        onPointerMove={move}
        onPointerUp={stop}
        onPointerLeave={stop}
        onPointerCancel={stop}
        data-testid="before-after"
        data-dragging={dragging || undefined}
      >
        <img {...layer('after')} alt={afterAlt} />
        <img {...layer('before')} alt={beforeAlt} style={{ clipPath: `inset(0 ${100 - position}% 0 0)` }} />
        <span className="absolute left-3 top-3 rounded bg-black/70 px-2 py-1 text-xs font-semibold text-white">{beforeLabel}</span>
        <span className="absolute right-3 top-3 rounded bg-black/70 px-2 py-1 text-xs font-semibold text-white">{afterLabel}</span>
        <Watermark text={watermarkText} />
        <SliderHandle position={position} beforeLabel={beforeLabel} afterLabel={afterLabel} onKeyDown={onKeyDown} onPointerDown={start} />
        {loading && (
          <div className="absolute inset-0 z-20 grid place-items-center bg-bg/70 text-sm font-medium" role="status" data-loading>
            Loading images…
          </div>
        )}
        {failed && (
          <div className="absolute inset-0 z-20 grid place-items-center bg-bg/90 p-6 text-center text-danger" role="alert" data-error>
            {MSG.imagesLoadError}
          </div>
        )}
      </div>
      <label className="mt-3 flex items-center gap-3 text-sm text-muted">
        <span className="shrink-0">Compare</span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={rounded}
          onChange={(e) => setPosition(clampPercent(Number(e.currentTarget.value)))}
          className="w-full accent-[var(--c-accent-strong)]"
        />
      </label>
    </div>
  );
}

type HandleProps = {
  position: number;
  beforeLabel: string;
  afterLabel: string;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  onPointerDown: (event: PointerEvent<HTMLElement>) => void;
};

/** The split's handle: a slider for keyboard and screen-reader users, dragged with a pointer. */
function SliderHandle({ position, beforeLabel, afterLabel, onKeyDown, onPointerDown }: HandleProps) {
  const rounded = Math.round(position);
  return (
    <div
      role="slider"
      tabIndex={0}
      aria-label={`Comparison: ${beforeLabel} on the left, ${afterLabel} on the right`}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={rounded}
      aria-valuetext={`${rounded}% ${beforeLabel}`}
      onKeyDown={onKeyDown}
      onPointerDown={onPointerDown}
      className="absolute inset-y-0 z-10 flex w-11 -translate-x-1/2 cursor-ew-resize justify-center"
      style={{ left: `${position}%`, touchAction: 'none' }}
      data-handle
    >
      <span className="h-full w-1 bg-white shadow" aria-hidden="true" />
      <span
        aria-hidden="true"
        className="absolute top-1/2 grid h-10 w-10 -translate-y-1/2 place-items-center rounded-full border-2 border-white bg-accent-strong font-bold text-white shadow-lg"
      >
        ⇔
      </span>
    </div>
  );
}
