import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closePool, query } from '../../netlify/lib/db';
import { findImagePackage, packageTermsLine } from '../../src/lib/catalog';
import { readZip } from '../support/zip-reader';
import { baseUrl, downloadBytes, hydrated, newPage, useBrowser } from './harness';
import { BATCH_PHOTOS, writeBatchPhotos } from './package-photos';

// A family buys Basic Restoration (demo), opens the package link in another browser, drops a pile of photos (one of
// them a flatbed scan of three prints, restored apart), closes the page half way, reopens the link and finds the batch going on; at the end one ZIP of clean JPEGs under their own
// names, and the package shows what is left.
const browser = useBrowser();
let dir: string;

beforeAll(async () => {
  Object.assign(process.env, inject('platformEnv'));
  dir = await mkdtemp(path.join(os.tmpdir(), 'lumora-batch-photos-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await closePool();
});

describe('a package that delivers', () => {
  it('buy Basic Restoration, open its link elsewhere, restore a batch that survives closing the page, download all', { timeout: 600_000 }, async () => {
    const basic = findImagePackage('basic-restoration')!;
    // Buy it (demo) from the image services page.
    const buyer = await newPage(browser(), { acceptDownloads: true });
    await buyer.page.goto(`${baseUrl()}/image-restoration`);
    await buyer.page.locator(`[data-package="${basic.id}"] button`).scrollIntoViewIfNeeded();
    await hydrated(buyer.page, `[data-package="${basic.id}"] button`);
    await expect(buyer.page.locator(`[data-package="${basic.id}"] [data-testid=package-terms]`).textContent()).resolves.toBe(packageTermsLine(basic));
    await buyer.page.locator(`[data-package="${basic.id}"] button`).click();
    await buyer.page.goto(`${baseUrl()}/image-video-transformation`);
    await expect(buyer.page.getByTestId('cart-package-terms').textContent()).resolves.toBe(packageTermsLine(basic));
    await buyer.page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await buyer.page.waitForURL(/\/checkout\/success\?order=/);
    const allowance = buyer.page.getByTestId('package-allowance');
    await allowance.waitFor();
    await expect(allowance.getByTestId('package-left').textContent()).resolves.toBe(`${basic.images} of ${basic.images} images left`);
    await expect(buyer.page.textContent('body')).resolves.not.toContain('Our team will e-mail');
    const link = (await allowance.getByTestId('package-link-text').textContent())!.trim();
    expect(link).toMatch(/\/image-video-transformation#package=/);
    await buyer.context.close();

    // Another browser (no storage): the link opens the package, and opening it spent nothing.
    const files = await writeBatchPhotos(dir);
    const family = await newPage(browser(), { acceptDownloads: true });
    await family.page.goto(link);
    await family.page.getByTestId('package-banner').waitFor();
    await expect(family.page.getByTestId('package-left').textContent()).resolves.toBe(`${basic.images} left`);
    // The key left the address bar.
    expect(family.page.url()).not.toContain('#package=');
    const panel = family.page.locator('#panel-image');
    await hydrated(family.page, '#panel-image');
    await panel.locator('input[type=file]').setInputFiles(files);
    await family.page.getByTestId('batch-chosen').waitFor();
    await panel.getByRole('button', { name: `Restore ${files.length} photos` }).click();
    // The scan of three prints: each print shown, straightened, before anything is spent; the family restores them apart.
    const choice = family.page.getByTestId('scan-choice');
    await choice.waitFor({ timeout: 120_000 });
    await expect(choice.getByRole('img').count()).resolves.toBe(BATCH_PHOTOS.scanPrints);
    await expect(choice.getByRole('img').first().getAttribute('alt')).resolves.toMatch(/^Print 1, straightened by \d+°$/);
    await choice.getByRole('button', { name: `Restore ${BATCH_PHOTOS.scanPrints} prints` }).click();
    await choice.waitFor({ state: 'detached' });

    // Close the page once the first photo is done and others still wait.
    await family.page.locator('[data-testid=batch-item][data-status=done]').first().waitFor({ timeout: 300_000 });
    const allowanceId = decodeURIComponent(link.split('#package=')[1]!).slice(0, 36);
    const ofPackage = `from batch_items i join tool_batches b on b.id = i.batch_id where b.allowance_id = '${allowanceId}'`;
    const waiting = await query<{ n: number }>(`select count(*)::int as n ${ofPackage} and i.status in ('waiting', 'working')`);
    expect(waiting[0]!.n).toBeGreaterThan(0);
    await family.context.close();

    // Reopen the link: the batch is there and goes on to the end.
    const again = await newPage(browser(), { acceptDownloads: true });
    await again.page.goto(link);
    await again.page.getByTestId('batch').waitFor();
    const expected = BATCH_PHOTOS.expectedResults;
    await again.page.waitForFunction(
      (n) => document.querySelectorAll('[data-testid=batch-item][data-status=done]').length === n,
      expected,
      { timeout: 480_000, polling: 1000 },
    );
    expect(await again.page.getByTestId('batch-item').count()).toBe(expected);
    await expect(again.page.getByTestId('batch-progress-text').textContent()).resolves.toBe(`${expected} of ${expected} photos done`);
    await again.page.waitForFunction((text) => document.querySelector('[data-testid=package-left]')?.textContent === text, `${basic.images - expected} left`, { timeout: 30_000 });

    const zipLink = again.page.getByTestId('batch-zip').getByRole('link').first();
    const [download] = await Promise.all([again.page.waitForEvent('download'), zipLink.click()]);
    const entries = readZip(await downloadBytes(download));
    expect(entries).toHaveLength(expected);
    expect(new Set(entries.map((e) => e.name.toLowerCase())).size).toBe(expected);
    for (const entry of entries) {
      expect(entry.name).toMatch(/\.jpg$/);
      expect((await sharp(entry.bytes).metadata()).format).toBe('jpeg');
    }
    // Clean files: the bytes of the stored results, not the watermarked previews.
    const results = await query<{ transformation_id: string }>(`select i.transformation_id ${ofPackage} and i.status = 'done' and i.taken order by i.position`);
    expect(results).toHaveLength(expected);
    const { getStorage } = await import('../../netlify/lib/storage');
    const stored = await Promise.all(results.map(async (r) => (await getStorage().get(`results/${r.transformation_id}.jpg`))!));
    for (const entry of entries) expect(stored.some((b) => b.equals(entry.bytes))).toBe(true);
    await again.context.close();
  });
});
