import { describe, expect, it } from 'vitest';
import { PAN_STEP, ZOOM_MAX, clampView, fitScale, fitView, panBy, transformFor, viewForKey, zoomTo, imagePoint, keepInView } from '../../../src/lib/tool/zoom';

const image = { w: 2000, h: 1000 };
const port = { w: 800, h: 600 };

describe('result viewer geometry', () => {
  it('fits the whole image, never enlarging a small one', () => {
    expect(fitScale(image, port)).toBe(0.4);
    expect(fitScale({ w: 300, h: 200 }, port)).toBe(1);
    expect(fitView(image, port)).toEqual({ scale: 0.4, cx: 1000, cy: 500 });
  });

  it('zooms to 100 % around a point, keeping that image point under it', () => {
    const fit = fitView(image, port);
    const at = { x: 600, y: 300 };
    const imagePointBefore = fit.cx + (at.x - port.w / 2) / fit.scale;
    const z = zoomTo(fit, 1, image, port, at);
    expect(z.scale).toBe(1);
    expect(z.cx + (at.x - port.w / 2) / z.scale).toBeCloseTo(imagePointBefore);
  });

  it('clamps zoom between fit and the maximum, and pans only within the image', () => {
    expect(zoomTo(fitView(image, port), 99, image, port).scale).toBe(ZOOM_MAX);
    expect(zoomTo(fitView(image, port), 0.01, image, port).scale).toBe(0.4);
    const at100 = zoomTo(fitView(image, port), 1, image, port);
    expect(panBy(at100, 100, 0, image, port).cx).toBe(at100.cx - 100);
    // Dragging far right stops at the left edge: half a viewport from it.
    expect(panBy(at100, 1e6, 1e6, image, port)).toEqual({ scale: 1, cx: 400, cy: 300 });
    // At fit, the picture is centred and does not move.
    expect(panBy(fitView(image, port), 50, 50, image, port)).toEqual(fitView(image, port));
    expect(clampView({ scale: 1, cx: -5, cy: 5000 }, image, port)).toEqual({ scale: 1, cx: 400, cy: 700 });
  });

  it('maps keys: arrows pan, + and - zoom, 0 fits, 1 is 100 %, others are not its', () => {
    const at100 = zoomTo(fitView(image, port), 1, image, port);
    expect(viewForKey('ArrowRight', false, at100, image, port)!.cx).toBe(at100.cx + PAN_STEP);
    expect(viewForKey('ArrowUp', true, at100, image, port)!.cy).toBe(300);
    expect(viewForKey('+', false, at100, image, port)!.scale).toBe(1.25);
    expect(viewForKey('-', false, at100, image, port)!.scale).toBe(0.8);
    expect(viewForKey('0', false, at100, image, port)).toEqual(fitView(image, port));
    expect(viewForKey('1', false, fitView(image, port), image, port)!.scale).toBe(1);
    expect(viewForKey('Tab', false, at100, image, port)).toBeNull();
  });

  it('renders the view as a transform', () => {
    expect(transformFor({ scale: 1, cx: 400, cy: 300 }, port)).toBe('translate(0.00px, 0.00px) scale(1.0000)');
    expect(transformFor(fitView(image, port), port)).toBe('translate(0.00px, 100.00px) scale(0.4000)');
  });
});

describe('heal brush geometry in the viewer', () => {
  const image = { w: 2000, h: 1000 };
  const port = { w: 800, h: 600 };
  it('maps a viewport point to the picture pixel under it at any zoom', () => {
    const view = { scale: 2, cx: 1000, cy: 500 };
    expect(imagePoint(view, port, { x: 400, y: 300 })).toEqual({ x: 1000, y: 500 });
    expect(imagePoint(view, port, { x: 0, y: 0 })).toEqual({ x: 800, y: 350 });
    expect(imagePoint({ scale: 0.5, cx: 1000, cy: 500 }, port, { x: 800, y: 600 })).toEqual({ x: 1800, y: 1100 });
  });
  it('pans just enough to keep a point (the keyboard crosshair) in sight, and not at all when it is', () => {
    const view = { scale: 2, cx: 1000, cy: 500 };
    expect(keepInView(view, { x: 1000, y: 500 }, image, port)).toEqual(view);
    const moved = keepInView(view, { x: 1300, y: 500 }, image, port, 40);
    // 40 screen px inside the right edge: (400 − 40) / 2 = 180 picture px right of the centre.
    expect(moved.cx).toBeCloseTo(1300 - 180);
    expect(moved.cy).toBe(500);
    expect(keepInView(view, { x: 1990, y: 990 }, image, port).cx).toBeLessThanOrEqual(image.w - port.w / 4);
  });
});
