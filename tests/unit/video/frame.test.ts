import { describe, expect, it } from 'vitest';
import { subjectsInFrame } from '../../../netlify/lib/video/frame';

// Boxes the tab's defaults found on the whole photo, moved into the part of it the clip's frame shows.
describe('subjectsInFrame', () => {
  const dog = { label: 'dog', score: 0.6, box: { x: 0.5, y: 0.25, width: 0.2, height: 0.5 } };

  it('maps a box on the whole photo into the pixels of a frame that shows all of it', () => {
    expect(subjectsInFrame([dog], { x: 0, y: 0, width: 1, height: 1 }, 400, 200)).toEqual([{ label: 'dog', score: 0.6, box: { x: 200, y: 50, width: 80, height: 100 } }]);
  });

  it('follows the crop: the frame shows the right half of a wide photo', () => {
    const [moved] = subjectsInFrame([dog], { x: 0.5, y: 0, width: 0.5, height: 1 }, 300, 600);
    expect(moved!.box.x).toBeCloseTo(0, 6);
    expect(moved!.box.width).toBeCloseTo(120, 6);
    expect(moved!.box.y).toBeCloseTo(150, 6);
    expect(moved!.box.height).toBeCloseTo(300, 6);
  });

  it('clips a box the crop cuts, and leaves out one mostly outside the frame', () => {
    const half = { x: 0, y: 0, width: 0.6, height: 1 };
    const [clipped] = subjectsInFrame([{ ...dog, box: { x: 0.45, y: 0, width: 0.2, height: 1 } }], half, 600, 1000);
    expect(clipped!.box.x).toBeCloseTo(450, 6);
    expect(clipped!.box.width).toBeCloseTo(150, 6);
    expect(subjectsInFrame([dog], half, 600, 1000)).toEqual([]);
  });

  it('drops a label the detector does not have', () => {
    expect(subjectsInFrame([{ ...dog, label: 'unicorn' }], { x: 0, y: 0, width: 1, height: 1 }, 100, 100)).toEqual([]);
  });
});
