import { describe, expect, it } from 'vitest';
import { cleanName, planParts, zipNames } from '../../../netlify/lib/batches/zip';

const entry = (name: string, bytes: number | null = 1000) => ({ transformationId: name, name, resultPath: `results/${name}.jpg`, bytes, createdAt: new Date(0) });

describe('the batch ZIP', () => {
  it('keeps the original names as .jpg, numbers repeats case-insensitively, and makes no path', () => {
    expect(zipNames([{ name: 'Grandma.png' }, { name: 'grandma.JPG' }, { name: 'GRANDMA.tif' }, { name: 'box/beach.jpeg' }, { name: 'C:\\scans\\beach.tiff' }])).toEqual([
      'Grandma.jpg', 'grandma (2).jpg', 'GRANDMA (3).jpg', 'beach.jpg', 'beach (2).jpg',
    ]);
    expect(cleanName('../../etc/passwd')).toBe('passwd');
    expect(cleanName('...')).toBe('photo');
    expect(cleanName('a<b>:c"d|e?f*\u0001.jpg')).toBe('a_b_c_d_e_f__');
  });

  it('cuts a large batch into parts under the limit, in order, with names unique over the whole batch', () => {
    const entries = Array.from({ length: 10 }, (_, i) => entry(i % 2 ? 'same.jpg' : `p${i}.jpg`, 4_000_000));
    const parts = planParts(entries, 18 * 1024 * 1024);
    expect(parts.map((p) => p.entries.length)).toEqual([4, 4, 2]);
    expect(parts.every((p) => p.bytes <= 18 * 1024 * 1024)).toBe(true);
    const names = parts.flatMap((p) => p.entries.map((e) => e.zipName));
    expect(new Set(names).size).toBe(10);
    expect(names.slice(0, 4)).toEqual(['p0.jpg', 'same.jpg', 'p2.jpg', 'same (2).jpg']);
    // A single file larger than the limit still gets its own part.
    expect(planParts([entry('huge', 30_000_000)], 18 * 1024 * 1024)).toHaveLength(1);
  });
});
