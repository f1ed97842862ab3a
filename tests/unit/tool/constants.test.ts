import { describe, expect, it } from 'vitest';
import { fileType, isAcceptedFile, withTimestamp } from '../../../src/lib/tool/constants';

describe('tool constants', () => {
  it('accepts JPEG/PNG/TIFF for images and JPEG/PNG for videos', () => {
    expect(isAcceptedFile('image', { type: 'image/tiff', name: 'a.tif' })).toBe(true);
    expect(isAcceptedFile('image', { type: '', name: 'scan.TIFF' })).toBe(true);
    expect(isAcceptedFile('image', { type: 'image/gif', name: 'a.gif' })).toBe(false);
    expect(isAcceptedFile('video', { type: 'image/tiff', name: 'a.tif' })).toBe(false);
    expect(isAcceptedFile('video', { type: 'image/jpg', name: 'a.jpg' })).toBe(true);
    expect(fileType({ type: 'text/plain', name: 'a.jpg' })).toBe('text/plain');
  });

  it('adds a time-stamp query without breaking signed URLs', () => {
    expect(withTimestamp('/api/files/a.jpg?exp=1&sig=x', 5)).toBe('/api/files/a.jpg?exp=1&sig=x&t=5');
    expect(withTimestamp('https://x.test/v.mp4', 7)).toBe('https://x.test/v.mp4?t=7');
  });
});
