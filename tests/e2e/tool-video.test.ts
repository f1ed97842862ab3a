import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closePool } from '../../netlify/lib/db';
import { getStorage } from '../../netlify/lib/storage';
import { getTransformation } from '../../netlify/lib/transformations';
import { MSG } from '../../src/lib/messages';
import { formatPrice, ITEM_PRICES, transformationItem } from '../../src/lib/catalog';
import { probe } from '../support/video';
import { greyPhoto } from '../support/tool-helpers';
import { newPage, useBrowser, downloadBytes } from './harness';
import { checkoutAndDownload, openVideoTab, toast } from './tool-page';
import type { PublicHealth } from '../../src/lib/health';

// The video flow in Chromium: upload → generate with visible progress → play → cart → checkout → clean MP4.
const browser = useBrowser();
const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-tool-video-'));
let photo = '';
let tiff = '';

beforeAll(async () => {
  Object.assign(process.env, inject('platformEnv'));
  photo = path.join(dir, 'portrait.jpg');
  writeFileSync(photo, await greyPhoto(960, 720, 'jpeg'));
  tiff = path.join(dir, 'scan.tif');
  writeFileSync(tiff, Buffer.from([0x49, 0x49, 0x2a, 0x00, 0, 0, 0, 0]));
});
afterAll(async () => {
  await closePool();
});

describe('transformation tool: video', () => {
  it('validates the file type, the missing file and the prompt', async () => {
    const { context, page } = await newPage(browser());
    const panel = await openVideoTab(page);
    await panel.getByRole('button', { name: 'Generate Video' }).click();
    await toast(page, MSG.uploadFirst);
    await panel.locator('input[type=file]').setInputFiles(tiff);
    await toast(page, MSG.videoInvalidType);
    await panel.locator('input[type=file]').setInputFiles(photo);
    await panel.getByTestId('upload-preview').waitFor();
    const prompt = panel.getByLabel('How should the image animate?');
    for (const [text, message] of [
      ['   ', MSG.videoPromptBlank],
      ['zoom', MSG.videoPromptMin],
      ['z'.repeat(201), MSG.videoPromptMax],
    ] as const) {
      await prompt.fill(text);
      await panel.getByRole('button', { name: 'Generate Video' }).click();
      await toast(page, message);
    }
    await context.close();
  });

  it('refuses generation while the video service is unavailable', async () => {
    const { context, page } = await newPage(browser());
    // The public health answer, whole (src/lib/health.ts): the page reads it with that schema.
    const health: PublicHealth = { ok: true, status: 'ok', video: { available: false }, payments: { mode: 'demo' } };
    await page.route('**/api/health', (route) => route.fulfill({ json: health }));
    const sent: string[] = [];
    page.on('request', (request) => {
      if (request.method() !== 'GET') sent.push(`${request.method()} ${new URL(request.url()).pathname}`);
    });
    const panel = await openVideoTab(page);
    const alert = panel.getByRole('alert').filter({ hasText: MSG.videoUnavailable });
    await alert.waitFor();
    await expect(alert.isVisible()).resolves.toBe(true);
    await panel.locator('input[type=file]').setInputFiles(photo);
    await panel.getByLabel('How should the image animate?').fill('Zoom in slowly on the subject');
    await panel.getByRole('button', { name: 'Generate Video' }).click();
    await toast(page, MSG.videoUnavailable);
    // Refused in the page: no job was sent, nothing is generating and there is nothing to buy.
    expect(sent.filter((s) => s.includes('/api/'))).toEqual([]);
    expect(await panel.getByText('Generating your video...').count()).toBe(0);
    expect(await panel.getByTestId('video-player').count()).toBe(0);
    expect(await panel.getByRole('button', { name: /Add to Cart/ }).count()).toBe(0);
    await context.close();
  });

  it('generates with visible progress, plays, buys and downloads the clean MP4', async () => {
    const { context, page } = await newPage(browser(), { acceptDownloads: true });
    const panel = await openVideoTab(page);
    await panel.locator('input[type=file]').setInputFiles(photo);
    await panel.getByLabel('Model').selectOption('cinematic');
    await panel.getByLabel('How should the image animate?').fill('Pan slowly from left to right');
    await panel.getByRole('button', { name: 'Generate Video' }).click();
    await panel.getByText('Generating your video...').waitFor();
    await expect(panel.getByText('Video generation may take up to 5 minutes.').isVisible()).resolves.toBe(true);
    await expect(panel.locator('progress').count()).resolves.toBe(1);
    await toast(page, MSG.videoStarting);
    await toast(page, MSG.videoSuccess, 180_000);

    const player = panel.getByTestId('video-player');
    await player.waitFor();
    await expect(player.locator('video').getAttribute('controlslist')).resolves.toContain('nodownload');
    // Autoplay (muted if need be) or a click on Play starts it.
    await page.waitForFunction(() => document.querySelector('[data-testid=video-player]')?.getAttribute('data-state') !== 'loading', null, { timeout: 30_000 });
    if ((await player.getAttribute('data-state')) !== 'playing') await player.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction(() => (document.querySelector('[data-testid=video-player] video') as HTMLVideoElement)?.currentTime > 0.2);
    await player.click({ button: 'right' });
    await toast(page, MSG.videoRightClick);

    // Keyboard-operable, labelled controls: volume 0 means muted; seek moves the playhead.
    const volume = player.getByRole('slider', { name: 'Volume' });
    await volume.fill('0');
    await player.getByRole('button', { name: 'Unmute' }).waitFor();
    await player.getByRole('button', { name: 'Unmute' }).click();
    await player.getByRole('button', { name: 'Mute' }).waitFor();
    await expect(player.getByRole('slider', { name: 'Seek' }).getAttribute('step')).resolves.toBe('0.1');
    await expect(volume.getAttribute('step')).resolves.toBe('0.1');
    if ((await player.getAttribute('data-state')) === 'playing') await player.getByRole('button', { name: 'Pause' }).click();
    await player.getByRole('slider', { name: 'Seek' }).fill('50');
    const time = await page.evaluate(() => (document.querySelector('[data-testid=video-player] video') as HTMLVideoElement).currentTime);
    expect(time).toBeGreaterThan(2);
    expect(time).toBeLessThan(3);
    await expect(page.getByText(MSG.videoTagUnsupported).count()).resolves.toBe(1);

    const [preview] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'Download' }).click()]);
    expect(preview.suggestedFilename()).toMatch(/^generated-video-\d+\.mp4$/);
    const previewBytes = await downloadBytes(preview);

    await panel.getByRole('button', { name: `Add to Cart (${formatPrice(ITEM_PRICES.video)})` }).click();
    await toast(page, MSG.cartVideoAdded);
    const id = await page.evaluate(() => JSON.parse(localStorage.getItem('lumora-cart') ?? '[]')[0]?.transformationId);
    const t = (await getTransformation(id))!;
    expect(t).toMatchObject({ kind: 'video', status: 'completed', mode: 'cinematic' });
    const clean = (await getStorage().get(t.resultPath!))!;
    expect(previewBytes.equals(clean)).toBe(false);

    const { bought } = await checkoutAndDownload(page, 'video');
    expect(bought.equals(clean)).toBe(true);
    expect(bought.subarray(4, 8).toString('latin1')).toBe('ftyp');
    await context.close();
  });

  it('sells the chosen 1080p: the price follows the choice and the downloaded file is 1080p and 5.0 s', async () => {
    const { context, page } = await newPage(browser(), { acceptDownloads: true });
    const panel = await openVideoTab(page);
    await panel.locator('input[type=file]').setInputFiles(photo);
    const hd = transformationItem('video', '1080p');
    await expect(panel.getByRole('radio', { name: /720p/ }).isChecked()).resolves.toBe(true);
    await panel.getByRole('radio', { name: new RegExp(`1080p.*${formatPrice(hd.price).replace('$', '\\$')}`) }).check();
    await panel.getByLabel('How should the image animate?').fill('Zoom in slowly on the subject');
    await panel.getByRole('button', { name: 'Generate Video' }).click();
    await toast(page, MSG.videoSuccess, 180_000);
    await panel.getByTestId('video-player').waitFor();
    await panel.getByRole('button', { name: `Add to Cart (${formatPrice(hd.price)})` }).click();
    await toast(page, MSG.cartVideoAdded);
    const { bought } = await checkoutAndDownload(page, 'video');
    await page.getByTestId('order-summary').getByText(hd.name).waitFor();
    const video = await probe(bought);
    expect(Math.min(video.width, video.height)).toBe(1080);
    expect({ width: video.width, height: video.height }).toEqual({ width: 1440, height: 1080 });
    expect(video.frames).toBe(150);
    expect(Math.abs(video.duration - 5)).toBeLessThanOrEqual(0.05);
    await context.close();
  });
});
