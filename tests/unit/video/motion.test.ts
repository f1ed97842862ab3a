import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import {
  AUTO_PUSH_ZOOM,
  cameraRectAt,
  parseMotion,
  planCameraPath,
  type CameraRect,
} from '../../../engines/video/motion';
import { salientPoint } from '../../../engines/video/saliency';
import { outputSize } from '../../../engines/video/frame';

const centre = (r: CameraRect) => ({ x: r.x + r.w / 2, y: r.y + r.h / 2 });
const inside = (r: CameraRect) =>
  r.x >= -1e-9 && r.y >= -1e-9 && r.x + r.w <= 1 + 1e-9 && r.y + r.h <= 1 + 1e-9;

describe('parseMotion', () => {
  it.each([
    ['zoom in slowly', { zoom: 'in', pan: null, tilt: null, speed: 'slow', auto: false }],
    ['Pan left', { zoom: null, pan: 'left', tilt: null, speed: 'normal', auto: false }],
    ['tilt up fast', { zoom: null, pan: null, tilt: 'up', speed: 'fast', auto: false }],
    ['zoom out and pan right', { zoom: 'out', pan: 'right', tilt: null, speed: 'normal', auto: false }],
    ['slow push in while the camera tilts down', { zoom: 'in', tilt: 'down', speed: 'slow' }],
    ['pull back to reveal the valley', { zoom: 'out' }],
    ['a quick pan to the right, then settle', { pan: 'right', speed: 'fast', easing: 'out' }],
    ['crane up over the rooftops', { tilt: 'up' }],
    ['linear zoom into her eyes', { zoom: 'in', easing: 'linear' }],
    ['the leaves rustle in a gentle breeze', { zoom: null, pan: null, tilt: null, auto: true, speed: 'slow' }],
    ['make it come alive', { auto: true, easing: 'inOut' }],
  ])('%s', (prompt, expected) => {
    expect(parseMotion(prompt)).toMatchObject(expected);
  });
});

describe('planCameraPath', () => {
  const path = (prompt: string) => planCameraPath(parseMotion(prompt), 150);

  it('zoom in slowly: starts on the full frame, ends centred and tighter', () => {
    const p = path('zoom in slowly');
    expect(p.from).toEqual({ x: 0, y: 0, w: 1, h: 1 });
    expect(p.to.w).toBeCloseTo(1 / 1.12, 6);
    expect(centre(p.to)).toEqual({ x: 0.5, y: 0.5 });
    // slow zooms less than normal, which zooms less than fast
    expect(path('zoom in').to.w).toBeLessThan(p.to.w);
    expect(path('zoom in fast').to.w).toBeLessThan(path('zoom in').to.w);
  });

  it('pan left: window travels from the right edge to the left edge at constant zoom', () => {
    const p = path('pan left');
    expect(p.from.w).toBeCloseTo(p.to.w, 9);
    expect(p.from.x + p.from.w).toBeCloseTo(1, 9);
    expect(p.to.x).toBeCloseTo(0, 9);
    expect(centre(p.from).y).toBeCloseTo(0.5, 9);
    expect(centre(p.to).y).toBeCloseTo(0.5, 9);
  });

  it('tilt up fast: window travels bottom to top, further than a normal tilt', () => {
    const p = path('tilt up fast');
    expect(p.from.y + p.from.h).toBeCloseTo(1, 9);
    expect(p.to.y).toBeCloseTo(0, 9);
    expect(centre(p.from).x).toBeCloseTo(0.5, 9);
    const travel = (q: typeof p) => centre(q.from).y - centre(q.to).y;
    expect(travel(p)).toBeGreaterThan(travel(path('tilt up')));
  });

  it('zoom out and pan right: widens while moving from the left edge to the right edge', () => {
    const p = path('zoom out and pan right');
    expect(p.to.w).toBeGreaterThan(p.from.w);
    expect(p.from.x).toBeCloseTo(0, 9);
    expect(p.to.x + p.to.w).toBeCloseTo(1, 9);
  });

  it('every frame of every move stays inside the photo and moves smoothly', () => {
    for (const prompt of ['zoom out and pan right', 'zoom in, pan left and tilt down fast', 'tilt up', 'slow push in, pan right']) {
      const p = path(prompt);
      let prev = cameraRectAt(p, 0);
      expect(prev).toMatchObject({ x: expect.closeTo(p.from.x, 9), w: expect.closeTo(p.from.w, 9) });
      for (let n = 1; n < 150; n++) {
        const r = cameraRectAt(p, n);
        expect(inside(r), `${prompt} @${n}`).toBe(true);
        // no frame-to-frame step bigger than 1.5 % of the frame (no jumps)
        expect(Math.abs(r.x - prev.x)).toBeLessThan(0.015);
        prev = r;
      }
      expect(prev.x).toBeCloseTo(p.to.x, 9);
      expect(prev.w).toBeCloseTo(p.to.w, 9);
    }
  });

  it('eases in and out: the first and last steps are far slower than the middle one', () => {
    const p = path('pan right');
    const step = (n: number) => cameraRectAt(p, n + 1).x - cameraRectAt(p, n).x;
    expect(step(0)).toBeLessThan(step(74) / 20);
    expect(step(148)).toBeLessThan(step(74) / 20);
    const linear = path('pan right at constant speed');
    expect(cameraRectAt(linear, 1).x - cameraRectAt(linear, 0).x).toBeCloseTo(cameraRectAt(linear, 75).x - cameraRectAt(linear, 74).x, 9);
  });
});

describe('automatic push-in toward the salient region', () => {
  async function blobImage(cx: number, cy: number) {
    const [w, h] = [1200, 675];
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
      <rect width="100%" height="100%" fill="#6b6f73"/>
      <circle cx="${cx * w}" cy="${cy * h}" r="70" fill="#ff2a10"/><circle cx="${cx * w}" cy="${cy * h}" r="30" fill="#ffe000"/></svg>`;
    return sharp(Buffer.from(svg)).png().toBuffer();
  }

  it.each([
    ['top-right', 0.85, 0.2],
    ['bottom-left', 0.15, 0.8],
  ])('pushes toward a blob in the %s corner', async (_name, bx, by) => {
    const focus = await salientPoint(sharp(await blobImage(bx, by)));
    expect(Math.abs(focus.x - bx)).toBeLessThan(0.12);
    expect(Math.abs(focus.y - by)).toBeLessThan(0.12);
    const p = planCameraPath(parseMotion('the water glistens'), 150, focus);
    expect(p.from).toEqual({ x: 0, y: 0, w: 1, h: 1 });
    expect(p.to.w).toBeCloseTo(1 / AUTO_PUSH_ZOOM, 6);
    // The window's far edge is pushed against the blob's corner.
    const c = centre(p.to);
    expect(Math.sign(c.x - 0.5)).toBe(Math.sign(bx - 0.5));
    expect(Math.sign(c.y - 0.5)).toBe(Math.sign(by - 0.5));
    expect(inside(p.to)).toBe(true);
  });
});

describe('outputSize', () => {
  it.each([
    [4000, 2250, 1280, 720],
    [1600, 1200, 960, 720],
    [1200, 1600, 720, 960],
    [1080, 1920, 720, 1280],
    [1000, 1000, 720, 720],
    [6000, 1000, 1280, 720], // panorama clamped to 16:9
    [333, 250, 960, 720], // even dimensions
  ])('%i×%i → %i×%i', (w, h, ew, eh) => {
    expect(outputSize(w, h)).toMatchObject({ width: ew, height: eh });
  });
});
