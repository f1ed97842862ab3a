/**
 * Pure logic of the before/after comparison slider: split position, keyboard steps and the
 * cache-busting image addresses with their retry budget. The island (`src/islands/BeforeAfterSlider.tsx`)
 * only wires these to events.
 */
export const SLIDER_START = 50;
export const SLIDER_STEP = 1;
export const SLIDER_PAGE_STEP = 10;
export const IMAGE_RETRY_LIMIT = 3;

export function clampPercent(value: number): number {
  if (Number.isNaN(value)) return SLIDER_START;
  return Math.min(100, Math.max(0, value));
}

/** Split position under a pointer at clientX over a box starting at `left` and `width` wide. */
export function percentFromPointer(clientX: number, left: number, width: number): number {
  if (width <= 0) return SLIDER_START;
  return clampPercent(((clientX - left) / width) * 100);
}

/** New position for a key press on the handle, or null when the key does not move it. */
export function positionForKey(key: string, current: number): number | null {
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      return clampPercent(current - SLIDER_STEP);
    case 'ArrowRight':
    case 'ArrowUp':
      return clampPercent(current + SLIDER_STEP);
    case 'PageDown':
      return clampPercent(current - SLIDER_PAGE_STEP);
    case 'PageUp':
      return clampPercent(current + SLIDER_PAGE_STEP);
    case 'Home':
      return 0;
    case 'End':
      return 100;
    default:
      return null;
  }
}

/** The address with a time-stamp query (`t=`) that bypasses caches; replaces an earlier `t=`. */
export function cacheBustedUrl(src: string, now: number = Date.now()): string {
  if (!src) return src;
  const [withoutHash, hash] = src.split('#', 2) as [string, string | undefined];
  const [path, query = ''] = withoutHash.split('?', 2) as [string, string | undefined];
  const params = query.split('&').filter((p) => p && !p.startsWith('t='));
  params.push(`t=${now}`);
  return `${path}?${params.join('&')}${hash !== undefined ? `#${hash}` : ''}`;
}

export interface ImageLoadState {
  loaded: boolean;
  error: boolean;
  retries: number;
  url: string;
}

export function initialImageState(src: string, now: number = Date.now()): ImageLoadState {
  return { loaded: false, error: false, retries: 0, url: cacheBustedUrl(src, now) };
}

/** After a load error: retry with a fresh time-stamp while the budget lasts, else flag the error. */
export function afterImageError(state: ImageLoadState, src: string, now: number = Date.now()): ImageLoadState {
  if (state.retries < IMAGE_RETRY_LIMIT) return { ...state, retries: state.retries + 1, url: cacheBustedUrl(src, now) };
  return { ...state, error: true };
}
