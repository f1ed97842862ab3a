import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { findFaces, hasColour } from '../../../engines/video/layers/people';
import { alphaMatte } from '../../../engines/video/layers/matte';
import { fillBackground, pullPush } from '../../../engines/video/layers/background';
import { distanceTo } from '../../../engines/video/layers/planes';
import { rgbToYuv420 } from '../../../engines/video/yuv';
import { sceneAt } from '../../support/video';

describe('people', () => {
  it('tells colour photos from greyscale and sepia ones', async () => {
    const { image } = await sceneAt('portrait', 160, 120);
    expect(hasColour(image)).toBe(true);
    const grey = Uint8Array.from(image.data);
    for (let i = 0; i < grey.length; i += 3) grey[i] = grey[i + 1] = grey[i + 2] = Math.round((grey[i]! + grey[i + 1]! + grey[i + 2]!) / 3);
    expect(hasColour({ ...image, data: grey })).toBe(false);
    const sepia = Uint8Array.from(grey);
    for (let i = 0; i < sepia.length; i += 3) {
      sepia[i] = Math.min(255, sepia[i]! * 1.07 + 10);
      sepia[i + 2] = sepia[i + 2]! * 0.82;
    }
    expect(hasColour({ ...image, data: sepia })).toBe(false);
    expect(findFaces({ ...image, data: sepia })).toEqual([]);
  });

  it('finds an upright skin-toned face and not a skin-toned bar', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="150"><rect width="200" height="150" fill="#5a7d9a"/>
      <ellipse cx="70" cy="55" rx="18" ry="24" fill="#e0ac69"/><circle cx="63" cy="50" r="3" fill="#222"/><circle cx="77" cy="50" r="3" fill="#222"/>
      <rect x="120" y="30" width="70" height="10" fill="#e0ac69"/></svg>`;
    const data = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
    const faces = findFaces({ data, width: 200, height: 150 });
    expect(faces).toHaveLength(1);
    expect(faces[0]!.x + faces[0]!.width / 2).toBeCloseTo(70, -1);
  });
});

describe('alphaMatte', () => {
  it('is opaque inside, clear outside, and soft only within a few pixels of the edge', () => {
    const [mw, mh, width, height] = [60, 45, 240, 180];
    const mask = new Uint8Array(mw * mh);
    for (let y = 0; y < mh; y++) for (let x = 0; x < mw; x++) mask[y * mw + x] = (x - 30) ** 2 + (y - 22) ** 2 < 15 ** 2 ? 1 : 0;
    const luma = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) luma[y * width + x] = (x - 120) ** 2 + (y - 90) ** 2 < 60 ** 2 ? 200 : 60;
    const alpha = alphaMatte(mask, mw, mh, luma, width, height, 2);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const r = Math.hypot(x + 0.5 - 120, y + 0.5 - 90);
        const a = alpha[y * width + x]!;
        if (r < 52) expect(a, `inside at ${x},${y}`).toBe(255);
        if (r > 68) expect(a, `outside at ${x},${y}`).toBe(0);
        // The mask was 4× smaller: its edge, a step of 4 pixels, becomes a ramp of a few pixels either side.
        if (a > 0 && a < 255) expect(Math.abs(r - 60), `soft at ${x},${y}`).toBeLessThanOrEqual(7);
      }
    }
  });
});

describe('fillBackground', () => {
  it('leaves no trace of the subject where it was, and keeps the rest of the photo', async () => {
    const { image, truth } = await sceneAt('object', 240, 180);
    const frame = rgbToYuv420(image.data, 240, 180);
    const before = rgbToYuv420(image.data, 240, 180);
    const inside = new Uint8Array(truth.length);
    for (let i = 0; i < truth.length; i++) inside[i] = truth[i] ? 0 : 1;
    const depth = distanceTo(inside, 240, 180);
    const near = distanceTo(truth, 240, 180);
    const hole = Uint8Array.from(truth, (t, i) => (t || near[i]! <= 2 ? 1 : 0));
    // The band the move would uncover gets the exemplar fill, the rest the smooth one.
    const needed = Uint8Array.from(hole, (h, i) => (h && depth[i]! < 12 ? 1 : 0));
    fillBackground(frame, hole, needed);
    let changedOutside = 0;
    let warm = 0;
    let holePixels = 0;
    for (let y = 0; y < 90; y++) {
      for (let x = 0; x < 120; x++) {
        const i = y * 2 * 240 + x * 2;
        if (!hole[i]) {
          if (frame.v[y * 120 + x] !== before.v[y * 120 + x] && !hole[i + 1] && !hole[i + 240] && !hole[i + 241]) changedOutside++;
          continue;
        }
        holePixels++;
        // The subject is red and orange (Cr well above 150); the background is cool (Cr below 135).
        if (frame.v[y * 120 + x]! > 145) warm++;
      }
    }
    expect(holePixels).toBeGreaterThan(500);
    expect(changedOutside).toBe(0);
    expect(warm / holePixels).toBeLessThan(0.01);
  });

  it('pull-push fills a hole smoothly from its surroundings', () => {
    const [width, height] = [32, 32];
    const plane = new Float32Array(width * height);
    const mask = new Uint8Array(width * height);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        plane[y * width + x] = x < 16 ? 50 : 150;
        if (Math.abs(x - 16) < 6 && Math.abs(y - 16) < 6) mask[y * width + x] = 1;
      }
    }
    pullPush(plane, mask, width, height);
    for (let y = 11; y < 21; y++) {
      expect(plane[y * width + 11]!).toBeLessThan(plane[y * width + 20]!);
      for (let x = 11; x < 21; x++) expect(plane[y * width + x]!).toBeGreaterThanOrEqual(50 - 1e-3);
    }
  });
});
