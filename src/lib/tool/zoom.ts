/**
 * Pure geometry of the full-size result viewer: a zoom `scale` (1 = 100 %, one image pixel per CSS pixel)
 * and the image point shown at the viewport's centre. The island only turns events into these calls.
 */
export interface Size {
  w: number;
  h: number;
}
export interface View {
  scale: number;
  /** Image coordinates (px) of the point at the viewport's centre. */
  cx: number;
  cy: number;
}

export const ZOOM_MAX = 2;
export const ZOOM_STEP = 1.25;
/** Screen pixels an arrow key pans (Shift: the large step). */
export const PAN_STEP = 40;
export const PAN_STEP_LARGE = 200;

/** The whole image in the viewport, never enlarged past 100 %. */
export function fitScale(image: Size, viewport: Size): number {
  if (image.w <= 0 || image.h <= 0 || viewport.w <= 0 || viewport.h <= 0) return 1;
  return Math.min(1, viewport.w / image.w, viewport.h / image.h);
}

const minScale = (image: Size, viewport: Size) => fitScale(image, viewport);
const maxScale = (image: Size, viewport: Size) => Math.max(ZOOM_MAX, fitScale(image, viewport));

/** Keeps the scale in range and the image covering the viewport (or centred on an axis where it is smaller). */
export function clampView(view: View, image: Size, viewport: Size): View {
  const scale = Math.min(maxScale(image, viewport), Math.max(minScale(image, viewport), view.scale));
  const axis = (c: number, length: number, port: number) => {
    const half = port / (2 * scale);
    if (length * scale <= port) return length / 2;
    return Math.min(length - half, Math.max(half, c));
  };
  return { scale, cx: axis(view.cx, image.w, viewport.w), cy: axis(view.cy, image.h, viewport.h) };
}

export function fitView(image: Size, viewport: Size): View {
  return { scale: fitScale(image, viewport), cx: image.w / 2, cy: image.h / 2 };
}

/** Zooms to `scale` keeping the image point under `at` (viewport px; default the centre) where it is. */
export function zoomTo(view: View, scale: number, image: Size, viewport: Size, at?: { x: number; y: number }): View {
  const point = at ?? { x: viewport.w / 2, y: viewport.h / 2 };
  const ix = view.cx + (point.x - viewport.w / 2) / view.scale;
  const iy = view.cy + (point.y - viewport.h / 2) / view.scale;
  const next = Math.min(maxScale(image, viewport), Math.max(minScale(image, viewport), scale));
  return clampView({ scale: next, cx: ix - (point.x - viewport.w / 2) / next, cy: iy - (point.y - viewport.h / 2) / next }, image, viewport);
}

/** Moves the picture by (dx, dy) screen pixels, as a drag does. */
export function panBy(view: View, dx: number, dy: number, image: Size, viewport: Size): View {
  return clampView({ ...view, cx: view.cx - dx / view.scale, cy: view.cy - dy / view.scale }, image, viewport);
}

/** The CSS transform (origin 0 0) that shows `view`. */
export function transformFor(view: View, viewport: Size): string {
  const x = viewport.w / 2 - view.cx * view.scale;
  const y = viewport.h / 2 - view.cy * view.scale;
  return `translate(${x.toFixed(2)}px, ${y.toFixed(2)}px) scale(${view.scale.toFixed(4)})`;
}

/** The view after a key press in the viewer, or null when the key is not the viewer's. */
export function viewForKey(key: string, shift: boolean, view: View, image: Size, viewport: Size): View | null {
  const step = shift ? PAN_STEP_LARGE : PAN_STEP;
  switch (key) {
    case 'ArrowLeft':
      return panBy(view, step, 0, image, viewport);
    case 'ArrowRight':
      return panBy(view, -step, 0, image, viewport);
    case 'ArrowUp':
      return panBy(view, 0, step, image, viewport);
    case 'ArrowDown':
      return panBy(view, 0, -step, image, viewport);
    case '+':
    case '=':
      return zoomTo(view, view.scale * ZOOM_STEP, image, viewport);
    case '-':
    case '_':
      return zoomTo(view, view.scale / ZOOM_STEP, image, viewport);
    case '0':
      return fitView(image, viewport);
    case '1':
      return zoomTo(view, 1, image, viewport);
    default:
      return null;
  }
}

/** The image point (px) shown at viewport point `at`. */
export function imagePoint(view: View, viewport: Size, at: { x: number; y: number }): { x: number; y: number } {
  return { x: view.cx + (at.x - viewport.w / 2) / view.scale, y: view.cy + (at.y - viewport.h / 2) / view.scale };
}

/**
 * The view moved just enough that image point `p` (px) is at least `margin` screen pixels inside the viewport
 * (the heal brush's keyboard crosshair stays in sight while it moves).
 */
export function keepInView(view: View, p: { x: number; y: number }, image: Size, viewport: Size, margin = 40): View {
  const half = (port: number) => Math.max(0, port / 2 - margin) / view.scale;
  const hx = half(viewport.w);
  const hy = half(viewport.h);
  const cx = Math.min(Math.max(view.cx, p.x - hx), p.x + hx);
  const cy = Math.min(Math.max(view.cy, p.y - hy), p.y + hy);
  return clampView({ ...view, cx, cy }, image, viewport);
}
