import { describe, expect, it } from 'vitest';
import { scoreAnswer } from '../../support/scans';
import { rectCorners, type Quad } from '../../../engines/scans/geometry';
import type { ScanTruth } from '../../support/scans';

// The bench's rules (bench/scans.ts): what counts as the right number of images, and how prints are matched.
const print = (cx: number, angle: number) => {
  const rect = { cx, cy: 100, width: 80, height: 60, angle };
  return { corners: rectCorners(rect), picture: rectCorners({ ...rect, width: 70, height: 50 }), angle, border: true, tone: 'colour' as const };
};
const truth = (kind: ScanTruth['kind'], prints = [print(100, 5), print(300, -10)]): ScanTruth => ({
  seed: 1, kind, bed: 'white', width: 400, height: 200, dpi: 100, whole: kind !== 'split', count: kind === 'split' ? prints.length : 1, prints,
  scanner: { shadow: false, light: 0, noise: 1, frame: false, quality: 90 },
});
const found = (cx: number, angle: number, size = 80): { corners: Quad; angle: number } => ({ corners: rectCorners({ cx, cy: 100, width: size, height: 60, angle }), angle });

describe('the scan bench’s scoring', () => {
  it('counts a split right only with exactly the prints, and scores each print by its best match', () => {
    const s = scoreAnswer(truth('split'), { whole: false, prints: [found(300, -10.5), found(100, 5)] });
    expect(s.countRight).toBe(true);
    expect(s.prints[0]!.iou).toBeCloseTo(1, 6);
    expect(s.prints[1]!.tilt).toBeCloseTo(0.5, 6);
    expect(scoreAnswer(truth('split'), { whole: false, prints: [found(100, 5)] }).countRight).toBe(false);
    expect(scoreAnswer(truth('split'), { whole: true, prints: [] }).countRight).toBe(false);
  });

  it('accepts a cut to the picture inside the white border', () => {
    const s = scoreAnswer(truth('split', [print(100, 5)]), { whole: false, prints: [{ corners: rectCorners({ cx: 100, cy: 100, width: 70, height: 50, angle: 5 }), angle: 5 }] });
    expect(s.prints[0]!.iou).toBeCloseTo(1, 6);
  });

  it('matches one found print to one true print: a print found twice still misses one', () => {
    const s = scoreAnswer(truth('split'), { whole: false, prints: [found(100, 5), found(102, 5)] });
    expect(s.prints.map((p) => p.iou >= 0.85)).toEqual([true, false]);
    expect(s.prints[1]!.tilt).toBeNull();
  });

  it('wants touching, album and cut scans kept whole: one image, however many prints are split off', () => {
    for (const kind of ['touching', 'album', 'cut'] as const) {
      expect(scoreAnswer(truth(kind), { whole: true, prints: [] })).toEqual({ countRight: true, prints: [] });
      expect(scoreAnswer(truth(kind), { whole: false, prints: [found(100, 5)] }).countRight).toBe(false);
    }
  });
});
