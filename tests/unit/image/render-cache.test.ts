import { describe, expect, it } from 'vitest';
import { decodePass, encodePass, PASS_VERSION } from '../../../engines/image/render-cache';
import type { AutomaticPass } from '../../../engines/image/pipeline';

const pass = (): AutomaticPass => {
  const width = 40, height = 30;
  return {
    model: 'sd-xl', width, height, tone: 'sepia', method: 'restoration + exemplar colorization',
    colourSource: { kind: 'reference', key: 'originals/x.reference.jpg' },
    L: Float32Array.from({ length: width * height }, (_, i) => (i * 7.31) % 100),
    chroma: { a: Float32Array.from({ length: 20 * 15 }, (_, i) => (i % 17) - 8), b: Float32Array.from({ length: 20 * 15 }, (_, i) => (i % 5) * 3.5), width: 20, height: 15 },
  };
};

describe('kept automatic pass (render-cache)', () => {
  it('round-trips a pass: L* within 1/600, chroma and the rest exactly', async () => {
    const p = pass();
    const back = (await decodePass(await encodePass(p), 'sd-xl'))!;
    expect({ ...back, L: null, chroma: null }).toEqual({ ...p, L: null, chroma: null });
    for (let i = 0; i < p.L.length; i++) expect(Math.abs(back.L[i]! - p.L[i]!)).toBeLessThanOrEqual(0.5 / 600 + 1e-6);
    expect(back.chroma).toEqual(p.chroma);
  });

  it('ignores what is not a pass of this engine for this model', async () => {
    const bytes = await encodePass(pass());
    expect(await decodePass(bytes, 'kandinsky-2')).toBeNull();
    expect(await decodePass(Buffer.from('not a pass at all'), 'sd-xl')).toBeNull();
    expect(await decodePass(bytes.subarray(0, bytes.length - 10), 'sd-xl')).toBeNull();
    // The same header with another version number (a version of as many digits, still valid JSON).
    const older = Buffer.from(bytes);
    const header = `{"version":${PASS_VERSION}`;
    expect(older.toString('utf8', 8, 8 + header.length)).toBe(header);
    older.write(`{"version":${PASS_VERSION + 1}`, 8, 'utf8');
    expect(await decodePass(older, 'sd-xl')).toBeNull();
  });
});
