import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { $batch, refreshBatch } from '../../../src/lib/tool/batch-state';
import { $package, refreshPackage, requestLostLink, takeWithPackage } from '../../../src/lib/tool/package-state';
import { $packageKey } from '../../../src/lib/packages';
import type { PackageAnswer } from '../../../src/lib/packages-schema';
import type { BatchAnswer } from '../../../src/lib/tool/batch';
import { ApiError } from '../../../src/lib/api-answer';
import { MSG } from '../../../src/lib/messages';

// The image tab's batch (batch-state.ts) and package (package-state.ts) read every answer with the schema the
// functions build it from (src/lib/tool/batch.ts, src/lib/packages.ts): an answer of another shape changes nothing
// the tab shows, or is the ApiError a server error gives.
const KEY = `${'0b7c2f9e-3a8d-4c51-9e0f-6d2a1b3c4d5e'}.1.${'A'.repeat(43)}`;

const batch = (fields: Partial<BatchAnswer> = {}): BatchAnswer => ({
  success: true, batchId: 'b1', createdAt: new Date(0).toISOString(), items: [],
  counts: { waiting: 0, working: 0, done: 0, failed: 0, choosing: 0, held: 0, split: 0 }, zip: [], ...fields,
});
const pkg = (fields: Partial<PackageAnswer['allowance']> = {}): PackageAnswer => ({
  success: true,
  allowance: { packageId: 'basic-restoration', name: 'Basic', imagesTotal: 10, imagesUsed: 2, imagesLeft: 8, expiresAt: new Date(0).toISOString(), state: 'active', link: `/image-video-transformation#package=${KEY}`, ...fields },
  batchId: null,
});
const answer = (body: unknown, status = 200) => vi.stubGlobal('fetch', vi.fn(async () => Response.json(body, { status })));

beforeEach(() => {
  $batch.set({ chosen: [], batchId: 'b1', answer: null, uploads: [], running: false });
  $package.set({ status: 'none', allowance: null, batchId: null, error: null });
  $packageKey.set(KEY);
});
afterEach(() => {
  vi.unstubAllGlobals();
  $packageKey.set('');
});

describe('the batch’s answers', () => {
  it('a batch of the schema’s shape is shown; one of another shape is not (the tab keeps what it showed)', async () => {
    answer(batch());
    await expect(refreshBatch()).resolves.toMatchObject({ batchId: 'b1' });
    expect($batch.get().answer).toMatchObject({ batchId: 'b1' });
    for (const odd of [{ ...batch(), counts: { done: 1 } }, { ...batch(), items: [{ id: 'i1', status: 'lost' }] }, { ...batch(), zip: null }]) {
      answer(odd);
      await expect(refreshBatch()).resolves.toBeNull();
      expect($batch.get()).toMatchObject({ batchId: 'b1', answer: { batchId: 'b1' } });
    }
  });
});

describe('the package’s answers', () => {
  it('opens a package of the schema’s shape; one of another shape leaves it as it was, never “invalid”', async () => {
    answer(pkg());
    await refreshPackage();
    expect($package.get()).toMatchObject({ status: 'open', allowance: { imagesLeft: 8 } });
    answer({ ...pkg(), allowance: { ...pkg().allowance, imagesLeft: 'eight' } });
    await refreshPackage();
    expect($package.get()).toMatchObject({ status: 'open', allowance: { imagesLeft: 8 } });
    answer({ success: false, error: 'This package link is not valid.' }, 403);
    await refreshPackage();
    expect($package.get()).toMatchObject({ status: 'invalid', error: 'This package link is not valid.' });
  });

  it('a take or a lost-link answer of another shape is the ApiError a server error gives', async () => {
    answer({ success: true, outcome: 'taken', imagesUsed: 3, imagesTotal: 10, imagesLeft: 7, message: 'Taken' });
    await expect(takeWithPackage('t1', {})).rejects.toEqual(new ApiError(MSG.imageError(), 200));
    answer({ success: true });
    await expect(requestLostLink('a@example.com')).rejects.toEqual(new ApiError(MSG.serverError, 200));
    answer({ success: true, message: MSG.packageLinkSent });
    await expect(requestLostLink('a@example.com')).resolves.toBe(MSG.packageLinkSent);
  });
});
