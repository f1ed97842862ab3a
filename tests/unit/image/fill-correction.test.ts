import { describe, expect, it } from 'vitest';
import { correctFill } from '../../../engines/image/fill/learned';
import { fillFromSurroundings } from '../../../engines/image/fill/fill';
import { pixelNoise } from '../../../engines/image/detect/residual';
import { grainy } from '../../support/planes';

// The fill's learned correction (fill/learned.ts): where it may act. What it gains is measured by the benchmark
// (npm run bench: the fixtures and the validation photos), on photos painted like those it was trained on.

/** The engine's fill of `mask` on a copy of L, and what the patch fill says of its own pixels. */
function filled(L: Float32Array, w: number, h: number, mask: Uint8Array) {
  const out = L.slice();
  return { out, confidence: fillFromSurroundings(out, L, w, h, mask) };
}

describe('the fill’s learned correction', () => {
  // A cage: bright 1-px wires every 7 px; a semi-transparent dark scratch lies inside one wire for its whole
  // length (the parrot fixture's case).
  const w = 120, h = 120;
  const L = grainy(w, h, (x) => (x % 7 === 3 ? 70 : 45));
  const mask = new Uint8Array(w * h);
  const stroke: number[] = [];
  for (let y = 0; y < h; y++) {
    const i = y * w + 59; // x = 59: a wire
    L[i] = 0.6 * L[i]! + 0.4 * 15;
    mask[i] = 1;
    stroke.push(i);
  }
  const grain = pixelNoise(L, w, h);

  it('leaves the pixels it is told to leave (a scratch’s twin) as the fill made them', () => {
    const { out, confidence } = filled(L, w, h, mask);
    const plain = out.slice();
    const leave = new Uint8Array(w * h);
    for (const i of stroke.slice(0, 60)) leave[i] = 1;
    expect(correctFill(L, out, mask, w, h, grain, confidence, leave)).toBe(60);
    for (const i of stroke.slice(0, 60)) expect(out[i]).toBe(plain[i]);
    expect(stroke.slice(60).some((i) => out[i] !== plain[i])).toBe(true);
  });

  it('changes nothing where the fill is sure (its matches agree and fit)', () => {
    const flat = new Float32Array(w * h).fill(50);
    const hole = new Uint8Array(w * h);
    for (let y = 50; y < 60; y++) for (let x = 50; x < 53; x++) hole[y * w + x] = 1;
    const { out, confidence } = filled(flat, w, h, hole);
    correctFill(flat, out, hole, w, h, 0, confidence);
    for (let i = 0; i < out.length; i++) expect(out[i]).toBe(50);
  });
});
