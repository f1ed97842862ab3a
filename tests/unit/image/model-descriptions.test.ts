import { describe, expect, it } from 'vitest';
import { IMAGE_MODELS } from '../../../src/lib/tool/image-schema';

// Buyers read these under the model choice: one plain sentence each; the engineering lives in the README.
describe('image model descriptions', () => {
  it.each(IMAGE_MODELS.map((m) => [m.id, m.description]))('%s is one short sentence in plain words', (_id, text) => {
    expect(text).toMatch(/^[A-Z][^.!?]*\.$/);
    expect(text.length).toBeLessThanOrEqual(160);
    expect(text).not.toMatch(/[:;()*]|exemplar|chroma|L\*|neural|resolution|pixel|\bMP\b|denois|guided|library/i);
  });

  it('tells the three choices apart', () => {
    expect(new Set(IMAGE_MODELS.map((m) => m.description)).size).toBe(IMAGE_MODELS.length);
  });
});
