import { describe, expect, it } from 'vitest';
import { asShares, fromShares } from '../../../engines/vision/known-subjects';

// Boxes the tab's defaults found on the whole photo, placed on a copy of it or on the part of it a clip's frame shows.
describe('fromShares', () => {
  const dog = { label: 'dog', score: 0.6, box: { x: 0.5, y: 0.25, width: 0.2, height: 0.5 } };

  it('maps a box on the whole photo into the pixels of a frame that shows all of it', () => {
    expect(fromShares([dog], 400, 200, { x: 0, y: 0, width: 1, height: 1 })).toEqual([{ label: 'dog', score: 0.6, box: { x: 200, y: 50, width: 80, height: 100 } }]);
  });

  it('follows the crop: the frame shows the right half of a wide photo', () => {
    const [moved] = fromShares([dog], 300, 600, { x: 0.5, y: 0, width: 0.5, height: 1 });
    expect(moved!.box.x).toBeCloseTo(0, 6);
    expect(moved!.box.width).toBeCloseTo(120, 6);
    expect(moved!.box.y).toBeCloseTo(150, 6);
    expect(moved!.box.height).toBeCloseTo(300, 6);
  });

  it('clips a box the crop cuts, and leaves out one mostly outside the frame', () => {
    const half = { x: 0, y: 0, width: 0.6, height: 1 };
    const [clipped] = fromShares([{ ...dog, box: { x: 0.45, y: 0, width: 0.2, height: 1 } }], 600, 1000, half);
    expect(clipped!.box.x).toBeCloseTo(450, 6);
    expect(clipped!.box.width).toBeCloseTo(150, 6);
    expect(fromShares([dog], 600, 1000, half)).toEqual([]);
  });

  it('drops a label the detector does not have', () => {
    expect(fromShares([{ ...dog, label: 'unicorn' }], 100, 100, { x: 0, y: 0, width: 1, height: 1 })).toEqual([]);
  });
});

describe('asShares', () => {
  it('turns boxes on an image into shares of it, kept inside it, and back', () => {
    const found = [{ label: 'cat', score: 0.5, box: { x: 64, y: 48, width: 640, height: 96 } }];
    const shares = asShares(found, 640, 480);
    expect(shares).toEqual([{ label: 'cat', score: 0.5, box: { x: 0.1, y: 0.1, width: 0.9, height: 0.2 } }]);
    const back = fromShares(shares, 1280, 960)[0]!.box;
    for (const [k, v] of Object.entries({ x: 128, y: 96, width: 1152, height: 192 })) expect(back[k as keyof typeof back]).toBeCloseTo(v, 6);
  });
});
