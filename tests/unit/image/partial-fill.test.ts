import { describe, expect, it } from 'vitest';
import { fillDamage } from '../../../engines/image/fill/fill';
import { weightedFlanks } from '../../../engines/image/detect/paths';

// Borderline damage is filled partly (detect/detector.ts DETECT.soft): the fill blended over the original by a
// weight, so a real structure taken for damage keeps part of its contrast.
const w = 40;
const h = 40;
const GROUND = 50;
const STROKE = 80;

/** A flat plane crossed by a light 1-px vertical stroke at x = 20, and the stroke as damage. */
function strokePlane() {
  const plane = new Float32Array(w * h).fill(GROUND);
  const damage = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    plane[y * w + 20] = STROKE;
    damage[y * w + 20] = 1;
  }
  return { plane, damage };
}

describe('partial fill of borderline damage', () => {
  it('replaces a pixel by the fill in proportion to its weight: all of it at 1, half at 0.5, none at 0', () => {
    const { plane, damage } = strokePlane();
    const weight = new Float32Array(w * h);
    for (let y = 0; y < h; y++) weight[y * w + 20] = y < 10 ? 1 : y < 30 ? 0.5 : 0;
    fillDamage({ out: plane, W: w, H: h, working: plane, w, h, damage, weight, grain: 0 });
    for (let y = 0; y < h; y++) {
      const expected = y < 10 ? GROUND : y < 30 ? (GROUND + STROKE) / 2 : STROKE;
      expect(plane[y * w + 20], `row ${y}`).toBeCloseTo(expected, 0);
    }
    // The ground beside the stroke is untouched.
    expect(plane[5 * w + 19]).toBe(GROUND);
  });

  it('fills all of the damage when no weight is given', () => {
    const { plane, damage } = strokePlane();
    fillDamage({ out: plane, W: w, H: h, working: plane, w, h, damage, grain: 0 });
    for (let y = 0; y < h; y++) expect(plane[y * w + 20], `row ${y}`).toBeCloseTo(GROUND, 0);
  });

  it('gives a stroke’s flank the weight of the damage beside it, and never lowers a weight', () => {
    const core = new Float32Array(w * h);
    const r = new Float32Array(w * h);
    // Two light pixels, partly and fully kept, each with a light neighbour to the right (a flank).
    core[10 * w + 10] = 0.4;
    core[30 * w + 10] = 1;
    for (const i of [10 * w + 10, 10 * w + 11, 30 * w + 10, 30 * w + 11]) r[i] = 5;
    const weight = weightedFlanks(core, r, 1, w, h, 1);
    expect(weight[10 * w + 11]).toBeCloseTo(0.4);
    expect(weight[30 * w + 11]).toBe(1);
    expect(weight[10 * w + 10]).toBeCloseTo(0.4);
    // A neighbour that does not stand out is no flank.
    expect(weight[10 * w + 9]).toBe(0);
  });
});
