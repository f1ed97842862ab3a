import { describe, expect, it } from 'vitest';
import {
  IMAGE_RETRY_LIMIT,
  afterImageError,
  cacheBustedUrl,
  clampPercent,
  initialImageState,
  percentFromPointer,
  positionForKey,
} from '../../../src/lib/before-after';

describe('before/after slider logic', () => {
  it('clamps to 0..100', () => {
    expect(clampPercent(-5)).toBe(0);
    expect(clampPercent(105)).toBe(100);
    expect(clampPercent(42.5)).toBe(42.5);
    expect(clampPercent(Number.NaN)).toBe(50);
  });

  it('maps a pointer position to a percentage', () => {
    expect(percentFromPointer(150, 100, 200)).toBe(25);
    expect(percentFromPointer(0, 100, 200)).toBe(0);
    expect(percentFromPointer(999, 100, 200)).toBe(100);
    expect(percentFromPointer(150, 100, 0)).toBe(50);
  });

  it('moves by keys and ignores others', () => {
    expect(positionForKey('ArrowRight', 50)).toBe(51);
    expect(positionForKey('ArrowLeft', 0)).toBe(0);
    expect(positionForKey('PageUp', 95)).toBe(100);
    expect(positionForKey('Home', 70)).toBe(0);
    expect(positionForKey('End', 10)).toBe(100);
    expect(positionForKey('a', 10)).toBeNull();
  });

  it('adds a time-stamp query, with & when a query exists, replacing an earlier one', () => {
    expect(cacheBustedUrl('/a.webp', 1)).toBe('/a.webp?t=1');
    expect(cacheBustedUrl('/a.webp?w=2', 1)).toBe('/a.webp?w=2&t=1');
    expect(cacheBustedUrl('/a.webp?w=2&t=1', 5)).toBe('/a.webp?w=2&t=5');
    expect(cacheBustedUrl('https://x.test/a.png#f', 3)).toBe('https://x.test/a.png?t=3#f');
  });

  it('retries up to 3 times with fresh time-stamps, then flags the error', () => {
    let state = initialImageState('/a.webp', 0);
    const urls = [state.url];
    for (let i = 1; i <= IMAGE_RETRY_LIMIT; i++) {
      state = afterImageError(state, '/a.webp', i);
      expect(state.error).toBe(false);
      urls.push(state.url);
    }
    expect(new Set(urls).size).toBe(4);
    state = afterImageError(state, '/a.webp', 99);
    expect(state).toMatchObject({ error: true, retries: 3 });
  });
});
