import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closePool } from '../../netlify/lib/db';
import { getStorage } from '../../netlify/lib/storage';
import { CART_STORAGE_KEY, type CartItem } from '../../src/lib/cart-state';
import { OWNER_SECRETS_STORAGE_KEY } from '../../src/lib/owner-secrets';
import { MSG } from '../../src/lib/messages';
import { formatPrice, ITEM_PRICES, sumPrices, transformationItem } from '../../src/lib/catalog';
import { seedCompleted } from '../integration/platform/helpers/seed';
import { baseUrl, hydrated, newPage, useBrowser, downloadBytes } from './harness';

declare module 'vitest' {
  export interface ProvidedContext {
    /** DATABASE_URL, STORAGE_DIR and APP_SECRET of the embedded services the server runs on. */
    platformEnv: Record<string, string>;
  }
}

// The whole purchase in Chromium: two finished results in the cart → demo checkout → success page with
// download links → the download is the clean file. Results are seeded through the database and storage
// the server itself uses, as the image and video pipelines would leave them.
const browser = useBrowser();

beforeAll(() => {
  Object.assign(process.env, inject('platformEnv'));
});
afterAll(async () => {
  await closePool();
});

describe('checkout', () => {
  it('buys two results, lands on the success page with working downloads and an empty cart', async () => {
    const image = await seedCompleted('image');
    const video = await seedCompleted('video');
    const cart: CartItem[] = [
      { id: `restored-${Date.now()}`, type: 'image', ...transformationItem('image'), transformationId: image.id, imageUrl: `/preview/${image.id}` },
      { id: `video-${Date.now()}`, type: 'video', ...transformationItem('video'), transformationId: video.id, videoUrl: `/preview/${video.id}` },
    ];

    const total = sumPrices([ITEM_PRICES.image, ITEM_PRICES.video]);

    const { context, page } = await newPage(browser(), { acceptDownloads: true });
    await page.goto(`${baseUrl()}/`);
    await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [CART_STORAGE_KEY, JSON.stringify(cart)]);

    const tool = await page.goto(`${baseUrl()}/image-video-transformation`);
    if (tool?.status() === 200) {
      // The tool page's cart card pays through the cart store's checkout().
      await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
      await page.waitForURL(/\/checkout\/success\?order=/);
    } else {
      // Until the tool page exists: the same request the cart store sends, then its success URL.
      const result = await page.evaluate(async (key) => {
        const items = JSON.parse(localStorage.getItem(key) ?? '[]').map((i: CartItem) => ({ transformationId: i.transformationId }));
        const res = await fetch('/api/checkout', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ items, idempotencyKey: crypto.randomUUID() }),
        });
        return res.json();
      }, CART_STORAGE_KEY);
      expect(result).toMatchObject({ success: true, amount: total });
      await page.goto(`${baseUrl()}/checkout/success?order=${result.paymentId}&token=${result.orderToken}`);
    }

    await expect(page.locator('h1').textContent()).resolves.toBe('Payment Successful');
    const summary = page.getByTestId('order-summary');
    await summary.waitFor();
    const links = summary.getByRole('link', { name: /^Download (image|video)$/ });
    expect(await links.count()).toBe(2);
    await expect(summary.textContent()).resolves.toContain(formatPrice(total));
    await expect(page.evaluate((key) => localStorage.getItem(key), CART_STORAGE_KEY)).resolves.toBe('[]');
    // The success toast is seen on the success page itself (after the redirect), and only once.
    await page.getByText(MSG.checkoutSuccess).waitFor();
    // The page claims no e-mail: it tells the buyer to keep its links.
    const main = await page.locator('main').innerText();
    expect(main).not.toMatch(/has been sent to your e-mail|You'll receive an e-mail/);
    expect(main).toContain("Keep this page's download links");

    const [download] = await Promise.all([page.waitForEvent('download'), links.first().click()]);
    expect(download.suggestedFilename()).toMatch(/^restored-image-\d+\.jpg$/);
    expect(await downloadBytes(download)).toEqual(image.clean);

    await page.reload();
    await links.first().waitFor();
    // The order is shown again, so the page has made its once-per-order decision: the mark of the first toast
    // holds, and two frames later (the toast area draws in the next one) no toast is there.
    await expect(page.evaluate(() => Object.keys(sessionStorage).some((k) => k.startsWith('lumora:order-toasted:')))).resolves.toBe(true);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await page.getByText(MSG.checkoutSuccess).count()).toBe(0);

    // The watermark-free file is only for buyers: without the token the server refuses.
    const refused = await page.request.get(`${baseUrl()}/api/downloads/${video.id}`);
    expect(refused.status()).toBe(403);
    expect((await refused.json()).error).toBe(MSG.downloadForbidden);
    await context.close();
  });

  it('a result made in another browser cannot be bought here; in the browser that made it, it can', async () => {
    const image = await seedCompleted('image', { owned: true });
    const item: CartItem = { id: `restored-${Date.now()}`, type: 'image', ...transformationItem('image'), transformationId: image.id, imageUrl: `/preview/${image.id}` };
    const open = async (secrets: Record<string, string>) => {
      const { context, page } = await newPage(browser());
      await page.goto(`${baseUrl()}/`);
      await page.evaluate(([cartKey, cart, secretsKey, kept]) => {
        localStorage.setItem(cartKey!, cart!);
        localStorage.setItem(secretsKey!, kept!);
      }, [CART_STORAGE_KEY, JSON.stringify([item]), OWNER_SECRETS_STORAGE_KEY, JSON.stringify(secrets)]);
      await page.goto(`${baseUrl()}/image-video-transformation`);
      await hydrated(page, '#cart-email');
      return { context, page };
    };

    // Someone who only has the id (a shared preview link), with the item put in their cart: refused, cart kept.
    const stranger = await open({});
    await stranger.page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await stranger.page.getByText(MSG.checkoutFailed(MSG.notYourCartItem)).waitFor();
    expect(stranger.page.url()).toContain('/image-video-transformation');
    await expect(stranger.page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]').length, CART_STORAGE_KEY)).resolves.toBe(1);
    // Its preview link still shows the watermarked preview to anyone.
    expect((await stranger.page.request.get(`${baseUrl()}/api/transformations/${image.id}/preview`, { maxRedirects: 0 })).status()).toBe(302);
    await stranger.context.close();

    // The browser that made it keeps its secret beside the cart: the same cart is bought.
    const maker = await open({ [image.id]: image.ownerSecret! });
    await maker.page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await maker.page.waitForURL(/\/checkout\/success\?order=/);
    await maker.page.getByTestId('order-summary').getByRole('link', { name: 'Download image' }).waitFor();
    await maker.context.close();
  });

  it('asks for an optional e-mail, refuses a malformed one in the browser, and says the confirmation was saved locally', async () => {
    const image = await seedCompleted('image');
    const cart: CartItem[] = [
      { id: `restored-${Date.now()}`, type: 'image', ...transformationItem('image'), transformationId: image.id, imageUrl: `/preview/${image.id}` },
    ];
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl()}/`);
    await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [CART_STORAGE_KEY, JSON.stringify(cart)]);
    await page.goto(`${baseUrl()}/image-video-transformation`);
    await hydrated(page, '#cart-email');
    const email = page.getByLabel(/E-mail for your order confirmation/);
    await expect(email.getAttribute('autocomplete')).resolves.toBe('email');

    // Native validation keeps a malformed address from being sent: no navigation, the field reports it.
    await email.fill('not-an-address');
    const checkouts: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/checkout')) checkouts.push(request.url());
    });
    // The browser refuses the submit with an `invalid` event on the field, before any script sends anything.
    const refused = email.evaluate((input: HTMLInputElement) => new Promise<boolean>((done) => input.addEventListener('invalid', () => done(true), { once: true })));
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await expect(refused).resolves.toBe(true);
    expect(checkouts).toEqual([]);
    expect(page.url()).toContain('/image-video-transformation');
    await expect(email.evaluate((input: HTMLInputElement) => input.validity.typeMismatch)).resolves.toBe(true);

    await email.fill('grace@example.com');
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL(/\/checkout\/success\?order=/);
    const sentence = page.getByTestId('confirmation');
    await sentence.waitFor();
    await expect(sentence.textContent()).resolves.toBe(MSG.confirmationSaved('g…@example.com'));
    expect(await page.locator('main').innerText()).not.toContain('grace@example.com');

    // The message itself is in the server's outbox, with this order's download link.
    const paymentId = new URL(page.url()).searchParams.get('order')!;
    const outbox = path.join(path.dirname(process.env.STORAGE_DIR!), 'outbox');
    const file = (await readdir(outbox)).find((name) => name.includes(paymentId));
    expect(file).toBeDefined();
    const mail = await simpleParser(await readFile(path.join(outbox, file!)));
    expect(mail.to).toMatchObject({ text: 'grace@example.com' });
    expect(mail.text).toContain(`/api/downloads/${image.id}?token=`);
    await context.close();
  });

  it('the cancel page says no charge was made and links home and to contact', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl()}/checkout/cancel`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Payment Cancelled');
    await expect(page.getByText('no charge was made').first().isVisible()).resolves.toBe(true);
    expect(await page.locator('main a[href="/contact"]').count()).toBeGreaterThan(0);
    await context.close();
  });

  it('the browser uploads straight to a signed upload URL and reads the file back through a signed URL', async () => {
    const storage = getStorage();
    const key = `originals/e2e-${Date.now()}.png`;
    const grant = await storage.createSignedUpload(key, 'image/png');
    const readUrl = await storage.signedUrl(key, { expiresIn: 60 });
    const { context, page } = await newPage(browser());
    await page.goto(`${baseUrl()}/`);
    const result = await page.evaluate(
      async ({ grant, readUrl }) => {
        const put = await fetch(grant.url, { method: grant.method, headers: grant.headers, body: new Blob(['png-bytes'], { type: 'image/png' }) });
        const get = await fetch(readUrl);
        return { put: put.status, get: get.status, type: get.headers.get('content-type'), body: await get.text() };
      },
      { grant, readUrl },
    );
    expect(result).toEqual({ put: 200, get: 200, type: 'image/png', body: 'png-bytes' });
    expect((await storage.get(key))!.toString()).toBe('png-bytes');
    await context.close();
  });
});
