import { describe, expect, it } from 'vitest';
import { HEAL_RADIUS, MAX_HEAL_POINTS, healMarkSchema } from '../../../src/lib/tool/image-schema';
import { BRUSH_SIZES, CROSSHAIR_STEP, CROSSHAIR_STEP_LARGE, VIEWER_CROSSHAIR_PX, markPoints, moveCrosshair, screenStep } from '../../../src/lib/tool/heal-brush';

describe('heal brush logic', () => {
  it('moves the crosshair with the arrow keys, Shift for bigger steps, and keeps it on the picture', () => {
    expect(moveCrosshair({ x: 0.5, y: 0.5 }, 'ArrowRight', false)).toEqual({ x: 0.5 + CROSSHAIR_STEP, y: 0.5 });
    expect(moveCrosshair({ x: 0.5, y: 0.5 }, 'ArrowUp', true)).toEqual({ x: 0.5, y: 0.5 - CROSSHAIR_STEP_LARGE });
    expect(moveCrosshair({ x: 0.01, y: 0.99 }, 'ArrowLeft', true)).toEqual({ x: 0, y: 0.99 });
    expect(moveCrosshair({ x: 0.01, y: 0.99 }, 'ArrowDown', true)).toEqual({ x: 0.01, y: 1 });
    expect(moveCrosshair({ x: 0.5, y: 0.5 }, 'Enter', false)).toBeNull();
  });

  it('turns a barely moving drag into one point and a stroke into thinned points with both ends', () => {
    expect(markPoints([{ x: 0.5, y: 0.5 }, { x: 0.502, y: 0.501 }], 500, 400, MAX_HEAL_POINTS)).toEqual([{ x: 0.5, y: 0.5 }]);
    // 101 samples one screen pixel apart along 100 px: about one point every 3 px, ends kept.
    const path = Array.from({ length: 101 }, (_, i) => ({ x: 0.2 + i / 500, y: 0.3 }));
    const points = markPoints(path, 500, 400, MAX_HEAL_POINTS);
    expect(points[0]).toEqual({ x: 0.2, y: 0.3 });
    expect(points.at(-1)).toEqual({ x: 0.4, y: 0.3 });
    expect(points.length).toBeGreaterThan(25);
    expect(points.length).toBeLessThan(40);
    // A long scribble is cut down to what the server takes.
    const long = Array.from({ length: 2000 }, (_, i) => ({ x: (i % 500) / 500, y: i / 2000 }));
    const capped = markPoints(long, 2000, 2000, MAX_HEAL_POINTS);
    expect(capped).toHaveLength(MAX_HEAL_POINTS);
    expect(healMarkSchema.safeParse({ points: capped }).success).toBe(true);
    expect(markPoints([], 500, 400, MAX_HEAL_POINTS)).toEqual([]);
  });

  it('offers brush sizes the server accepts', () => {
    for (const b of BRUSH_SIZES) {
      expect(b.radius).toBeGreaterThanOrEqual(HEAL_RADIUS.min);
      expect(b.radius).toBeLessThanOrEqual(HEAL_RADIUS.max);
    }
  });
});

describe('heal brush crosshair in the full-size viewer', () => {
  it('moves by a few screen pixels whatever the zoom: a smaller share of a picture shown larger', () => {
    const at100 = screenStep(1000, 500);
    const at200 = screenStep(2000, 1000);
    expect(at100).toEqual({ x: VIEWER_CROSSHAIR_PX / 1000, y: VIEWER_CROSSHAIR_PX / 500 });
    expect(at200.x).toBeCloseTo(at100.x / 2);
    expect(moveCrosshair({ x: 0.5, y: 0.5 }, 'ArrowRight', false, at200)).toEqual({ x: 0.501, y: 0.5 });
    expect(moveCrosshair({ x: 0.5, y: 0.5 }, 'ArrowDown', true, at200)).toEqual({ x: 0.5, y: 0.52 });
  });
});
