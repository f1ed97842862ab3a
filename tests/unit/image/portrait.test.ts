import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { restoreAndColorize } from '../../../engines/image/pipeline';
import { fillPolygon, faceRegions } from '../../../engines/image/portrait/regions';
import { portraitHints } from '../../../engines/image/portrait/hints';
import { skinChroma } from '../../../engines/image/portrait/skin-prior';
import type { Face, PhotoAnalysis } from '../../../engines/vision';

/** A face-like mesh: all 468 points on an ellipse around (cx, cy), which makes the outline an ellipse too. */
function ellipseFace(cx: number, cy: number, rx: number, ry: number): Face {
  const mesh = Array.from({ length: 468 }, (_, i) => ({ x: cx + rx * Math.cos((2 * Math.PI * i) / 468), y: cy + ry * Math.sin((2 * Math.PI * i) / 468), z: 0 }));
  const eye = { upper: [], lower: [], centre: { x: cx, y: cy }, width: 1, openness: 0.3 };
  return { box: { x: cx - rx, y: cy - ry, width: 2 * rx, height: 2 * ry }, score: 0.9, mesh, eyes: { left: eye, right: eye }, pose: { yaw: 0, pitch: 0, roll: 0 }, frontal: true };
}

describe('face regions', () => {
  it('fill a polygon over the pixel centres inside it', () => {
    const m = new Uint8Array(10 * 10);
    fillPolygon([{ x: 2, y: 2 }, { x: 8, y: 2 }, { x: 8, y: 8 }, { x: 2, y: 8 }], m, 10, 10);
    expect(m.reduce((s, v) => s + v, 0)).toBe(36);
  });

  it('give skin inside the outline and nothing outside', () => {
    const r = faceRegions([ellipseFace(20, 20, 10, 14)], 40, 40, 1);
    expect(r.face[20 * 40 + 20]).toBe(1);
    expect(r.face[2 * 40 + 2]).toBe(0);
  });
});

describe('portrait hints', () => {
  it('lean the face to the skin prior at its lightness, not the background', () => {
    const w = 60, h = 60;
    const L = new Float32Array(w * h).fill(30);
    for (let y = 10; y < 50; y++) for (let x = 15; x < 45; x++) if ((x - 30) ** 2 / 15 ** 2 + (y - 30) ** 2 / 20 ** 2 < 1) L[y * w + x] = 65;
    const analysis: PhotoAnalysis = { width: w, height: h, people: null, faces: [ellipseFace(30, 30, 12, 16)], subjects: [], timings: {}, unavailable: [] };
    const soft = portraitHints(analysis, L, w, h, 1)!;
    const [a, b] = skinChroma(65);
    expect(soft.a[30 * w + 30]).toBeCloseTo(a, 4);
    expect(soft.b[30 * w + 30]).toBeCloseTo(b, 4);
    expect(soft.weight[30 * w + 30]).toBeGreaterThan(0);
    expect(soft.weight[2 * w + 2]).toBe(0);
  });

  it('skin is warm (a*, b* > 0) in the mid-tones', () => {
    const [a, b] = skinChroma(60);
    expect(a).toBeGreaterThan(5);
    expect(b).toBeGreaterThan(10);
  });
});

describe('a photo without a face', () => {
  it('is coloured exactly as without the vision module', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="240"><rect width="320" height="240" fill="#bbb"/><rect y="150" width="320" height="90" fill="#555"/><rect x="60" y="60" width="80" height="90" fill="#333"/></svg>`;
    const input = await sharp(Buffer.from(svg)).greyscale().toColourspace('srgb').jpeg().toBuffer();
    const guided = await restoreAndColorize(input, { model: 'sd-xl' });
    const plain = await restoreAndColorize(input, { model: 'sd-xl', portrait: false });
    expect(guided.method).toBe(plain.method);
    expect(Buffer.compare(guided.image, plain.image)).toBe(0);
  }, 60_000);
});
