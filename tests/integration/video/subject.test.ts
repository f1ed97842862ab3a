import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { findSubject } from '../../../engines/video/layers/find-subject';
import { sceneAt } from '../../support/video';

// The subject finder run whole on generated scenes (segmentation, graph cut and matte at working size).
function iou(a: Uint8Array, b: Uint8Array): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) {
    both += a[i]! & b[i]!;
    either += a[i]! | b[i]!;
  }
  return both / Math.max(1, either);
}

describe('findSubject', () => {
  it.each(['portrait', 'object', 'figure'] as const)('cuts out the %s of a generated scene along its true outline', async (kind) => {
    for (const seed of [3, 7]) {
      const { image, truth } = await sceneAt(kind, 240, 180, seed);
      const { subject, reason } = findSubject(image);
      expect(reason, `seed ${seed}`).toBeUndefined();
      expect(iou(subject!.mask, truth), `seed ${seed}`).toBeGreaterThan(0.85);
    }
  });

  it('finds no subject in a scene without one, nor on a flat grey photo, and says why', async () => {
    for (const seed of [1, 3, 7]) {
      const { image } = await sceneAt('none', 240, 180, seed);
      const found = findSubject(image);
      expect(found.subject).toBeNull();
      expect(found.reason).toBe('no subject found');
    }
    const grey = await sharp({ create: { width: 240, height: 180, channels: 3, background: '#707070' } }).raw().toBuffer();
    expect(findSubject({ data: grey, width: 240, height: 180 }).reason).toBeTruthy();
  });

  it('reads a band of landscape across the frame as no subject', async () => {
    // Sky over a textured field running the full width: a region touching both sides is not a subject.
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="240" height="180"><rect width="240" height="180" fill="#9cc3e6"/>
      <rect y="100" width="240" height="80" fill="#4f7a2a"/>${Array.from({ length: 60 }, (_, i) => `<circle cx="${(i * 37) % 240}" cy="${110 + ((i * 23) % 65)}" r="3" fill="#2e4d16"/>`).join('')}</svg>`;
    const data = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer();
    const found = findSubject({ data, width: 240, height: 180 });
    expect(found.subject).toBeNull();
  });
});
