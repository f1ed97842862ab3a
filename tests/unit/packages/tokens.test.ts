import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { isBatchZipToken, batchZipToken, packageKey, readPackageKey, readTakenDownloadToken, takenDownloadToken } from '../../../netlify/lib/packages/tokens';
import { keyFromHash, packageLinkPath } from '../../../src/lib/packages';

const A = '0b5e8a8e-1c2d-4e5f-8a9b-0c1d2e3f4a5b';
const T = 'aaaaaaaa-0000-4000-8000-000000000001';

describe('package links', () => {
  beforeEach(() => vi.stubEnv('APP_SECRET', 'unit-test-secret-0123456789-abcdefghij'));
  afterEach(() => vi.unstubAllEnvs());

  it('a key opens its allowance at its version; any change to it opens nothing', () => {
    const key = packageKey(A, 3);
    expect(readPackageKey(key)).toEqual({ allowanceId: A, version: 3 });
    expect(readPackageKey(key.replace('.3.', '.4.'))).toBeNull();
    expect(readPackageKey(`${key}x`)).toBeNull();
    expect(readPackageKey(`${A}.3`)).toBeNull();
    expect(readPackageKey(null)).toBeNull();
    vi.stubEnv('APP_SECRET', 'another-secret-0123456789-abcdefghijkl');
    expect(readPackageKey(key)).toBeNull();
  });

  it('travels in the fragment of the tool page, and only a well-formed key is read from it', () => {
    const key = packageKey(A, 1);
    const link = packageLinkPath(key);
    expect(link).toBe(`/image-video-transformation#package=${key}`);
    expect(keyFromHash(new URL(link, 'https://x.example').hash)).toBe(key);
    expect(keyFromHash('#package=<script>')).toBeNull();
    expect(keyFromHash('#lost-package-link')).toBeNull();
  });

  it('a taken result’s token is good for that item only; a ZIP token for its batch and version', () => {
    const token = takenDownloadToken(A, 1, T);
    expect(readTakenDownloadToken(T, token)).toEqual({ allowanceId: A, version: 1 });
    expect(readTakenDownloadToken('aaaaaaaa-0000-4000-8000-000000000002', token)).toBeNull();
    expect(readTakenDownloadToken(T, token.replace('pkg.', 'xyz.'))).toBeNull();
    const zip = batchZipToken(T, A, 2);
    expect(isBatchZipToken(T, A, 2, zip)).toBe(true);
    expect(isBatchZipToken(T, A, 3, zip)).toBe(false);
  });
});
