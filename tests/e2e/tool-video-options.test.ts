import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closePool } from '../../netlify/lib/db';
import { getTransformation } from '../../netlify/lib/transformations';
import { MSG } from '../../src/lib/messages';
import { TOOL_RESULTS_STORAGE_KEY } from '../../src/lib/tool/saved';
import { greyPhoto } from '../support/tool-helpers';
import { newPage, useBrowser } from './harness';
import { openImageTab, openVideoTab, toast } from './tool-page';

// The video tab's switches in Chromium: the server's default for the chosen photo shown and changeable, the
// choice sent with the job, and "Animate this photo" from a finished restoration.
const browser = useBrowser();
const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-tool-video-options-'));
let photo = '';

beforeAll(async () => {
  Object.assign(process.env, inject('platformEnv'));
  photo = path.join(dir, 'old.jpg');
  writeFileSync(photo, await greyPhoto(640, 480, 'jpeg'));
});
afterAll(async () => {
  await closePool();
});

/** The JSON bodies the page POSTs to /api/process-video. */
function jobRequests(page: Awaited<ReturnType<typeof newPage>>['page']): Record<string, unknown>[] {
  const bodies: Record<string, unknown>[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/process-video') bodies.push(JSON.parse(request.postData() ?? '{}'));
  });
  return bodies;
}

describe('transformation tool: video options', () => {
  it('shows the server\'s default for an old photo, and sends the buyer\'s own choice with the job', async () => {
    const { context, page } = await newPage(browser());
    const sent = jobRequests(page);
    const panel = await openVideoTab(page);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/video-defaults');
    await panel.locator('input[type=file]').setInputFiles(photo);
    const response = await answered;
    expect(response.status()).toBe(200);
    const defaults = (await response.json()) as { subjects: unknown[] };
    expect(defaults.subjects).toEqual(expect.any(Array));
    const restore = panel.getByRole('checkbox', { name: 'Restore & colorize first' });
    const faces = panel.getByRole('checkbox', { name: 'Bring faces to life' });
    await panel.getByText('On because your photo is black and white').waitFor({ timeout: 60_000 });
    await expect(restore.isChecked()).resolves.toBe(true);
    // No face in this photo: the server leaves faces off, and says what the switch would do.
    await expect(faces.isChecked()).resolves.toBe(false);
    await restore.press('Space');
    await expect(restore.isChecked()).resolves.toBe(false);
    await faces.check();
    await panel.getByLabel('How should the image animate?').fill('Zoom in slowly on the subject');
    await panel.getByRole('button', { name: 'Generate Video' }).click();
    await toast(page, MSG.videoSuccess, 180_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ restoreFirst: false, animateFaces: true });
    // The object detector's boxes travel from the defaults to the job (the video function cannot ship it).
    expect(sent[0]!.subjects).toEqual(defaults.subjects);
    await panel.getByTestId('video-player').waitFor();
    // Made from the upload as it is: no restored still beside the clip.
    expect(await panel.getByTestId('video-still').count()).toBe(0);
    await context.close();
  }, 300_000);

  it('"Animate this photo" on a restored image opens the video tab with it and makes the clip from it', async () => {
    const { context, page } = await newPage(browser());
    const sent = jobRequests(page);
    const imagePanel = await openImageTab(page);
    await imagePanel.locator('input[type=file]').setInputFiles(photo);
    await imagePanel.getByTestId('upload-preview').waitFor();
    await imagePanel.getByRole('button', { name: 'Restore & Colorize' }).click();
    await toast(page, MSG.imageSuccess, 90_000);
    const answered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/video-defaults');
    await imagePanel.getByRole('button', { name: 'Animate this photo' }).click();
    // The defaults are asked for the image result itself (the server reads its restored file).
    const asked = await answered;
    expect(JSON.parse(asked.request().postData() ?? '{}')).toEqual({ fromImageId: expect.any(String) });
    expect(asked.status()).toBe(200);
    const defaults = (await asked.json()) as { subjects: unknown[] };
    expect(defaults.subjects).toEqual(expect.any(Array));
    await expect(page.getByRole('tab', { name: 'Image to Video' }).getAttribute('aria-selected')).resolves.toBe('true');
    const panel = page.locator('#panel-video');
    await panel.getByTestId('animate-source').waitFor();
    const restore = panel.getByRole('checkbox', { name: 'Restore & colorize first' });
    await expect(restore.isChecked()).resolves.toBe(true);
    await expect(restore.isDisabled()).resolves.toBe(true);
    await panel.getByLabel('How should the image animate?').fill('Pan slowly from left to right');
    await panel.getByRole('button', { name: 'Generate Video' }).click();
    await toast(page, MSG.videoSuccess, 180_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.fromImageId).toEqual(expect.any(String));
    expect(sent[0]!.subjects).toEqual(defaults.subjects);
    // The preview shows the restored still the clip was made from.
    await panel.getByTestId('video-still').waitFor();
    const videoId: string = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').video, TOOL_RESULTS_STORAGE_KEY);
    expect((await getTransformation(videoId))!.hints).toMatchObject({ sourceImageId: sent[0]!.fromImageId, restoreReason: 'image result' });
    await context.close();
  }, 300_000);
});
