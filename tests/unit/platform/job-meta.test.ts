import { describe, expect, it } from 'vitest';
import { jobMetaSchema } from '../../../netlify/lib/transformations';

describe('job metadata (the hints jsonb, read once with a schema)', () => {
  it('reads a finished image job’s fields', () => {
    const meta = jobMetaSchema.parse({ width: 640, height: 480, tone: 'sepia', originalViewPath: 'previews/x.original.jpg', colorHints: [{ x: 0.5, y: 0.5, color: '#336699' }], healMarks: [{ points: [{ x: 0.1, y: 0.2 }] }], referencePath: null });
    expect(meta).toMatchObject({ width: 640, height: 480, tone: 'sepia', originalViewPath: 'previews/x.original.jpg', referencePath: null });
    expect(meta.colorHints).toHaveLength(1);
    expect(meta.healMarks).toHaveLength(1);
  });

  it('reads a missing or damaged field as absent, never throwing, and keeps other kinds’ keys', () => {
    const meta = jobMetaSchema.parse({ width: 'wide', tone: 'purple', colorHints: 'nope', healMarks: [{ points: [] }], videoStep: 3 });
    expect(meta).toMatchObject({ width: undefined, tone: undefined, colorHints: [], healMarks: [], videoStep: 3 });
    expect(jobMetaSchema.parse({})).toMatchObject({ colorHints: [], healMarks: [] });
  });
});
