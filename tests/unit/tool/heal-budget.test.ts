import { describe, expect, it } from 'vitest';
import { HEAL_BUDGET, healMarkedShare, healWork, withinHealBudget } from '../../../src/lib/tool/heal-budget';
import { HEAL_RADIUS, type HealMark } from '../../../src/lib/tool/image-schema';

const W = 1000, H = 750;
/** The rectangle the engine works a mark on (brush plus its 8 px margin), in pixels. */
const box = (m: HealMark) => {
  const r = (m.radius ?? HEAL_RADIUS.default) * Math.max(W, H) + 8;
  const xs = m.points.map((p) => p.x * W), ys = m.points.map((p) => p.y * H);
  return (Math.max(...xs) - Math.min(...xs) + 2 * r) * (Math.max(...ys) - Math.min(...ys) + 2 * r);
};
const work = (marks: HealMark[]) => healWork(marks, W, H).reduce((sum, m) => sum + box(m), 0);

describe('heal budget', () => {
  it('measures the brush area as a share of the picture', () => {
    // A click: a disc of radius 0.01 × 1000 px.
    expect(healMarkedShare([{ radius: 0.01, points: [{ x: 0.5, y: 0.5 }] }], W, H)).toBeCloseTo((Math.PI * 100) / (W * H), 6);
    // A level stroke across half the width: 500 px × 2r plus the round ends.
    expect(healMarkedShare([{ radius: 0.01, points: [{ x: 0.25, y: 0.5 }, { x: 0.75, y: 0.5 }] }], W, H)).toBeCloseTo((500 * 20 + Math.PI * 100) / (W * H), 6);
  });

  it('lets a buyer heal scratches and spots, and refuses the picture painted over', () => {
    const scratch = { points: [{ x: 0.3, y: 0.1 }, { x: 0.32, y: 0.6 }] };
    const spots = Array.from({ length: 30 }, (_, i) => ({ points: [{ x: i / 30, y: 0.8 }] }));
    expect(withinHealBudget([scratch, ...spots], W, H)).toBe(true);
    const painted = Array.from({ length: 10 }, (_, i) => ({ radius: HEAL_RADIUS.max, points: [{ x: 0, y: i / 10 }, { x: 1, y: i / 10 }] }));
    expect(healMarkedShare(painted, W, H)).toBeGreaterThan(HEAL_BUDGET.maxShare);
  });

  it('cuts a long slanted stroke so the work follows the area marked, and leaves clicks and upright strokes alone', () => {
    const slanted: HealMark = { radius: HEAL_RADIUS.min, points: [{ x: 0, y: 0 }, { x: 1, y: 1 }] };
    const area = healMarkedShare([slanted], W, H) * W * H;
    expect(box(slanted) / area).toBeGreaterThan(100); // the whole picture for a 2 px line
    const pieces = healWork([slanted], W, H);
    expect(pieces.length).toBeGreaterThan(10);
    expect(work([slanted]) / area).toBeLessThan(25);
    // Same path: the pieces join end to end from one corner to the other, with the stroke's brush.
    expect(pieces[0]!.points[0]).toEqual({ x: 0, y: 0 });
    expect(pieces.at(-1)!.points.at(-1)).toEqual({ x: 1, y: 1 });
    for (let i = 1; i < pieces.length; i++) expect(pieces[i]!.points[0]).toEqual(pieces[i - 1]!.points[1]);
    expect(pieces.every((p) => p.radius === HEAL_RADIUS.min)).toBe(true);
    const upright: HealMark = { points: [{ x: 0.5, y: 0.1 }, { x: 0.5, y: 0.9 }] };
    const click: HealMark = { points: [{ x: 0.2, y: 0.2 }] };
    expect(healWork([upright, click], W, H)).toEqual([upright, click]);
  });
});
