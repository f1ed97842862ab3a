import { describe, expect, it } from 'vitest';
import { transformationStatusSchema } from '../../../src/lib/tool/status-schema';

const running = {
  success: true,
  transformationId: 'aaaaaaaa-0000-4000-8000-000000000001',
  kind: 'video',
  status: 'processing',
  progress: 0.4,
  purchased: false,
  videoUrl: null,
  originalImageUrl: '/api/files/originals/x.jpg?t=1',
  processedUrl: null,
  error: null,
};

describe('transformationStatusSchema (GET /api/transformations/{id})', () => {
  it('accepts a running video and a finished image with process-image’s fields', () => {
    expect(transformationStatusSchema.parse(running)).toEqual(running);
    const image = {
      ...running,
      kind: 'image',
      status: 'completed',
      progress: 1,
      purchased: true,
      processedUrl: '/p.jpg',
      originalUrl: '/o.jpg',
      width: 800,
      height: 600,
      hints: [{ x: 0.5, y: 0.5, color: '#aabbcc' }],
      healMarks: [],
      tone: 'sepia',
      reference: false,
    };
    expect(transformationStatusSchema.parse(image)).toEqual(image);
  });

  it('refuses an answer without purchased, an unknown status or progress above 1', () => {
    const { purchased: _, ...withoutPurchased } = running;
    expect(transformationStatusSchema.safeParse(withoutPurchased).success).toBe(false);
    expect(transformationStatusSchema.safeParse({ ...running, status: 'done' }).success).toBe(false);
    expect(transformationStatusSchema.safeParse({ ...running, progress: 1.5 }).success).toBe(false);
  });
});
