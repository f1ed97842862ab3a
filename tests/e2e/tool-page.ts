import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { baseUrl, hydrated, downloadBytes } from './harness';
import { getStorage } from '../../netlify/lib/storage';
import { getTransformation } from '../../netlify/lib/transformations';
import { MSG } from '../../src/lib/messages';
import { TOOL_RESULTS_STORAGE_KEY } from '../../src/lib/tool/saved';
import { damageContrast } from '../support/tool-helpers';

/** The transformation tool page as the browser tests drive it. `site` is the server's URL (the e2e one by default). */
export async function openImageTab(page: Page, site = baseUrl()) {
  await page.goto(`${site}/image-video-transformation`);
  await page.getByRole('tab', { name: 'Restore & Colorize' }).waitFor();
  // Wait for hydration: the file input is enabled and the island answers clicks.
  await hydrated(page, '#panel-image');
  return page.locator('#panel-image');
}

export async function openVideoTab(page: Page, site = baseUrl()) {
  await page.goto(`${site}/image-video-transformation`);
  await hydrated(page, '#panel-video');
  await page.getByRole('tab', { name: 'Image to Video' }).click();
  const panel = page.locator('#panel-video');
  // The availability check finished (the button is enabled again).
  await panel.getByRole('button', { name: 'Generate Video' }).waitFor();
  return panel;
}

/**
 * Waits for a toast with this text. The default is a hang guard, not a speed target: beside the rest of the suite a
 * purchased download's fetch took over 15 s before its toast.
 */
export const toast = (page: Page, text: string, timeout = 60_000) =>
  page.locator('[data-sonner-toast]', { hasText: text }).first().waitFor({ timeout });

/**
 * Clicks a result's Download button and waits for the browser's download and the toast that confirms it,
 * together: the toast lasts 4 s, and reading the downloaded file first can take longer than that on a busy machine.
 */
export async function downloadWithToast(page: Page, button: Locator, text: string) {
  const [download] = await Promise.all([page.waitForEvent('download'), toast(page, text), button.click()]);
  return download;
}

/** Mean absolute difference per channel of two pictures scaled to 64 × 48 (0 = the same pixels). */
export async function pixelDifference(a: Buffer, b: Buffer): Promise<number> {
  const [x, y] = await Promise.all([sharp(a).resize(64, 48).raw().toBuffer(), sharp(b).resize(64, 48).raw().toBuffer()]);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff += Math.abs(x[i]! - y[i]!);
  return diff / x.length;
}

/**
 * Pays for the cart from the tool page's Proceed to Checkout (the demo checkout), then saves the item's clean
 * file from the success page's link. Returns its bytes and the order (payment) id.
 */
export async function checkoutAndDownload(page: Page, kind: 'image' | 'video'): Promise<{ bought: Buffer; paymentId: string }> {
  await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
  await page.waitForURL(/\/checkout\/success\?order=/);
  const summary = page.getByTestId('order-summary');
  await summary.waitFor();
  const link = summary.getByRole('link', { name: kind === 'image' ? /^Download image$/ : /^Download video$/ });
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return { bought: await downloadBytes(download), paymentId: new URL(page.url()).searchParams.get('order')! };
}

/**
 * Restores `file` (tests/support/tool-helpers' damagedPhoto) in the image tab and returns its id, a reader of
 * how much its bar and spot stand out in the clean result (damageContrast), and a reader of its stored heal marks.
 */
export async function restoreDamaged(page: Page, panel: Locator, file: string) {
  await panel.locator('input[type=file]').setInputFiles(file);
  await panel.getByTestId('upload-preview').waitFor();
  await panel.getByRole('button', { name: 'Restore & Colorize' }).click();
  await toast(page, MSG.imageSuccess, 90_000);
  const id: string = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').image, TOOL_RESULTS_STORAGE_KEY);
  const contrast = async () => damageContrast(await sharp((await getStorage().get(`results/${id}.jpg`))!).greyscale().raw().toBuffer());
  const stored = async () => ((await getTransformation(id))!.hints as { healMarks?: unknown[] }).healMarks ?? [];
  return { id, contrast, stored };
}
