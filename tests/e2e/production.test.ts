import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pagePolicies, storageDirectivesMissing } from '../../netlify/lib/security-headers';
import { getStorage } from '../../netlify/lib/storage';
import { getTransformation } from '../../netlify/lib/transformations';
import { MSG } from '../../src/lib/messages';
import { CART_STORAGE_KEY } from '../../src/lib/cart-state';
import { ITEM_PRICES } from '../../src/lib/catalog';
import { INLINE_UPLOAD_MAX_BYTES } from '../../src/lib/tool/constants';
import { TOOL_RESULTS_STORAGE_KEY } from '../../src/lib/tool/saved';
import { greyPhoto } from '../support/tool-helpers';
import { postgresAvailability } from '../support/debian-postgres';
import { newPage, useBrowser, downloadBytes } from './harness';
import { startProductionSite, type ProductionSite } from './production-site';
import { checkoutAndDownload, downloadWithToast, openImageTab, openVideoTab, pixelDifference, toast } from './tool-page';
import { operatorHeaders } from '../support/operator-health';

// The production configuration in Chromium: the site served as `npm start` serves it, with the deploy's
// headers, on Debian PostgreSQL (migrated by `npm run db:migrate`) and the Supabase Storage stand-in on its
// own origin. Uploads go straight to Storage through signed upload URLs, previews and videos load from
// Storage's origin through signed URLs: any Content-Security-Policy violation or console error fails.
const browser = useBrowser();
const postgres = postgresAvailability();
const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-production-photos-'));
let site: ProductionSite | undefined;
let storageOrigin = '';
let photo = '';
let portrait = '';

beforeAll(async () => {
  // An uncompressed PNG over the inline limit, so the browser sends it through a signed upload URL.
  photo = path.join(dir, 'old-photo.png');
  writeFileSync(photo, await sharp(await greyPhoto(1400, 1050)).toColourspace('srgb').png({ compressionLevel: 0 }).toBuffer());
  portrait = path.join(dir, 'portrait.jpg');
  writeFileSync(portrait, await greyPhoto(960, 720, 'jpeg'));
  if (!postgres.available) return;
  site = await startProductionSite();
  storageOrigin = new URL(site.storage.url).origin;
});
afterAll(async () => {
  await site?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/**
 * Console errors and page errors, which a deploy must never show. CSP violations are recorded for every
 * browser test by the harness (and fail the test after it); a blocked load also logs a console error, which
 * fails here at once instead of at the end of a long wait.
 */
function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' || /Refused to/.test(message.text())) problems.push(`console ${message.type()}: ${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  return problems;
}

/** `work`, failing as soon as the browser reports a problem instead of at the end of a long wait. */
async function unlessProblems<T>(problems: string[], work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const reported = new Promise<never>((_, reject) => {
    timer = setInterval(() => problems.length && reject(new Error(`The browser reported:\n${problems.join('\n')}`)), 250);
  });
  try {
    return await Promise.race([work, reported]);
  } finally {
    clearInterval(timer);
  }
}

const loaded = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((img: HTMLImageElement) =>
    img.complete ? img.naturalWidth > 0 : new Promise<boolean>((resolve) => {
      img.addEventListener('load', () => resolve(img.naturalWidth > 0), { once: true });
      img.addEventListener('error', () => resolve(false), { once: true });
    }),
  );

describe.skipIf(!postgres.available)(`production mode: Debian PostgreSQL and Supabase Storage in Chromium ${postgres.note ?? ''}`, () => {
  it('is indexable, with canonical, sitemap and feed URLs on the URL Netlify gives the build', async () => {
    const address = site!.url;
    const home = await fetch(`${address}/`);
    const html = await home.text();
    expect(html).toContain(`<link rel="canonical" href="${address}/">`);
    expect(html).toContain(`<meta property="og:url" content="${address}/">`);
    expect(html).not.toContain('name="robots"');
    expect(html).not.toContain('data-preview-label');
    expect(home.headers.get('x-robots-tag')).toBeNull();
    expect((await fetch(`${address}/api/health`)).headers.get('x-robots-tag')).toBeNull();
    expect(await (await fetch(`${address}/robots.txt`)).text()).toContain(`Sitemap: ${address}/sitemap-index.xml`);
    expect(await readFile(path.join(site!.distDir, 'sitemap-0.xml'), 'utf8')).toContain(`<loc>${address}/about-us</loc>`);
    expect(await readFile(path.join(site!.distDir, 'rss.xml'), 'utf8')).toContain(`<link>${address}/blog/`);
    // Only the pages that are never meant for search results say noindex: the checkout's, the newsletter's steps, the
    // guides sent by e-mail to a lead, and the team's inbox.
    const noindex = (await readdir(site!.distDir, { recursive: true, encoding: 'utf8' }))
      .filter((file) => file.endsWith('.html'))
      .filter((file) => readFileSync(path.join(site!.distDir, file), 'utf8').includes('<meta name="robots" content="noindex">'));
    expect(noindex.sort()).toEqual([
      '404.html',
      'admin/inbox.html',
      'admin/inbox/sign-in.html',
      'checkout/cancel.html',
      'checkout/success.html',
      'guides/agency-growth-playbook.html',
      'guides/missed-call-recovery.html',
      'guides/prepare-old-photos-for-restoration.html',
      'newsletter/check-your-inbox.html',
      'newsletter/confirm.html',
      'newsletter/confirmed.html',
      'newsletter/unsubscribe.html',
      'newsletter/unsubscribed.html',
    ]);
  });

  it('uploads through a signed URL, previews from Storage, checks out (demo) and downloads the clean file', async () => {
    const { context, page } = await newPage(browser(), { acceptDownloads: true });
    const problems = watchProblems(page);
    const puts: { url: string; status: number }[] = [];
    page.on('response', (res) => {
      if (res.request().method() === 'PUT') puts.push({ url: res.url(), status: res.status() });
    });

    const panel = await openImageTab(page, site!.url);
    // The deploy's policy is in force and allows Storage's origin, as /api/health reports too.
    const response = await page.request.get(`${site!.url}/image-video-transformation`);
    const policies = pagePolicies(await response.text(), response.headers()['content-security-policy'] ?? null);
    expect(policies.length).toBeGreaterThan(0);
    expect(storageDirectivesMissing(policies, storageOrigin, site!.url)).toEqual([]);
    expect(response.headers()['x-content-type-options']).toBe('nosniff');
    const health = await page.request.get(`${site!.url}/api/health`, { headers: operatorHeaders });
    expect(health.headers()['x-content-type-options']).toBe('nosniff');
    expect(await health.json()).toMatchObject({ platform: { database: 'postgres', storage: 'supabase', ok: true }, csp: { storageOrigin, storageOriginAllowed: true } });

    expect((await readFile(photo)).length).toBeGreaterThan(INLINE_UPLOAD_MAX_BYTES);
    await panel.locator('input[type=file]').setInputFiles(photo);
    await panel.getByTestId('upload-preview').waitFor();
    await panel.getByRole('button', { name: 'Restore & Colorize' }).click();
    await unlessProblems(problems, toast(page, MSG.imageSuccess, 180_000));
    // The file went from the browser to Storage's origin, not through a function, and arrived whole.
    expect(puts).toHaveLength(1);
    expect(new URL(puts[0]!.url).origin).toBe(storageOrigin);
    expect(puts[0]!.status).toBe(200);
    const received = site!.storage.requests.filter((r) => r.method === 'PUT');
    expect(received).toHaveLength(1);
    expect(received[0]!.headers.authorization).toBeUndefined();
    expect(received[0]!.body.equals(await readFile(photo))).toBe(true);

    // The watermarked preview comes from Storage's origin through a signed URL, and the browser shows it.
    const result = panel.getByTestId('image-result');
    const after = result.getByTestId('before-after').getByAltText(/watermarked preview/);
    expect(new URL((await after.getAttribute('src'))!).origin).toBe(storageOrigin);
    expect(await loaded(page, '[data-testid=before-after] img[alt*="watermarked preview"]')).toBe(true);

    // The preview download follows the stable route's redirect to Storage (a cross-origin fetch).
    const preview = await downloadWithToast(page, result.getByRole('button', { name: 'Download' }), MSG.imageDownloaded);
    const previewBytes = await downloadBytes(preview);

    await result.getByRole('button', { name: /Add to Cart/ }).click();
    await toast(page, MSG.cartImageAdded);
    expect(await loaded(page, '#cart img')).toBe(true);
    const id: string = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]')[0]?.transformationId, CART_STORAGE_KEY);
    const t = (await getTransformation(id))!;
    const clean = (await getStorage().get(t.resultPath!))!;
    expect(clean).not.toBeNull();

    const { bought, paymentId } = await checkoutAndDownload(page, 'image');
    // The clean file is the stored result, and not the watermarked preview.
    expect(bought.equals(clean)).toBe(true);
    expect(bought.equals(previewBytes)).toBe(false);
    expect(await pixelDifference(bought, previewBytes)).toBeGreaterThan(0.5);

    // The payment is recorded in PostgreSQL as the demo checkout, completed, for this result.
    const db = new pg.Client({ connectionString: site!.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query(
        'select p.payment_method, p.status, p.amount::text as amount, i.transformation_id from payments p join payment_items i on i.payment_id = p.id where p.id = $1',
        [paymentId],
      );
      // numeric(10, 2) reads back as text with two decimals.
      expect(rows).toEqual([{ payment_method: 'demo', status: 'completed', amount: ITEM_PRICES.image.toFixed(2), transformation_id: id }]);
    } finally {
      await db.end();
    }

    expect(problems).toEqual([]);
    await context.close();
  }, 300_000);

  it('runs a video job to the player, which streams it from Storage', async () => {
    const { context, page } = await newPage(browser());
    const problems = watchProblems(page);
    const media: { status: number; type: string }[] = [];
    page.on('response', (res) => {
      if (res.request().resourceType() === 'media' && new URL(res.url()).origin === storageOrigin) media.push({ status: res.status(), type: res.headers()['content-type'] ?? '' });
    });
    const panel = await openVideoTab(page, site!.url);
    await panel.locator('input[type=file]').setInputFiles(portrait);
    await panel.getByLabel('How should the image animate?').fill('Pan slowly from left to right');
    await panel.getByRole('button', { name: 'Generate Video' }).click();
    await unlessProblems(problems, toast(page, MSG.videoSuccess, 240_000));

    const player = panel.getByTestId('video-player');
    await player.waitFor();
    const src = await player.locator('video').evaluate((video: HTMLVideoElement) => video.currentSrc || video.src);
    expect(new URL(src).origin).toBe(storageOrigin);
    await page.waitForFunction(() => document.querySelector('[data-testid=video-player]')?.getAttribute('data-state') !== 'loading', null, { timeout: 30_000 });
    if ((await player.getAttribute('data-state')) !== 'playing') await player.getByRole('button', { name: 'Play' }).click();
    await page.waitForFunction(() => (document.querySelector('[data-testid=video-player] video') as HTMLVideoElement)?.currentTime > 0.2);
    // The player streams the MP4 from Storage in byte ranges.
    expect(media).toContainEqual({ status: 206, type: 'video/mp4' });
    const id: string = await page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '{}').video, TOOL_RESULTS_STORAGE_KEY);
    expect(await getTransformation(id)).toMatchObject({ kind: 'video', status: 'completed' });

    expect(problems).toEqual([]);
    await context.close();
  }, 300_000);
});
