import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { closePool, query } from '../../netlify/lib/db';
import { startSiteServer, type RunningServer } from '../../scripts/platform/server';
import { CART_STORAGE_KEY, type CartItem } from '../../src/lib/cart-state';
import { formatPrice, ITEM_PRICES, transformationItem } from '../../src/lib/catalog';
import { FakeStripe } from '../support/fake-stripe';
import { seedCompleted } from '../integration/platform/helpers/seed';
import { hydrated, newPage, useBrowser, downloadBytes } from './harness';

// A real purchase with PAYMENTS=stripe in Chromium: the product's own server (same modules as `npm start`)
// on the e2e database, the official stripe library pointed at a local stand-in whose hosted page has a
// Pay button that sends the signed webhook and returns to success_url, as Stripe does.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const browser = useBrowser();
const stripe = new FakeStripe();
const STRIPE_ENV = ['PAYMENTS', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'STRIPE_API_BASE'];
let site: RunningServer;
let functionsDir: string;

beforeAll(async () => {
  Object.assign(process.env, inject('platformEnv'));
  await stripe.start();
  // The functions run in child processes that inherit this environment.
  Object.assign(process.env, stripe.env());
  // Its own bundle folder beside the main server's; inside the project, where the bundles find node_modules.
  functionsDir = path.join(root, '.netlify/functions-e2e-stripe');
  site = await startSiteServer({ root, port: 0, functionsOutDir: functionsDir });
  stripe.webhookUrl = `${site.url}/api/stripe-webhook`;
});
afterAll(async () => {
  await site?.close();
  await stripe.stop();
  for (const name of STRIPE_ENV) delete process.env[name];
  rmSync(functionsDir, { recursive: true, force: true });
  await closePool();
});

const cartWith = (id: string): CartItem[] => [
  { id: `restored-${id}`, type: 'image', ...transformationItem('image'), transformationId: id, imageUrl: `/preview/${id}` },
];

async function toolPageWithCart(cart: CartItem[]) {
  const { context, page } = await newPage(browser(), { acceptDownloads: true });
  await page.goto(`${site.url}/`);
  await page.evaluate(([key, value]) => localStorage.setItem(key!, value!), [CART_STORAGE_KEY, JSON.stringify(cart)]);
  await page.goto(`${site.url}/image-video-transformation`);
  await hydrated(page, '#cart');
  return { context, page };
}

describe('checkout with Stripe', () => {
  it('pays on the payment page, confirms on the success page and downloads the clean file', async () => {
    const image = await seedCompleted('image');
    const { context, page } = await toolPageWithCart(cartWith(image.id));
    await page.getByText('Secure payment by Stripe').waitFor();
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();

    await page.waitForURL(`${stripe.base}/pay/**`);
    await expect(page.locator('main').textContent()).resolves.toContain(`Total ${formatPrice(ITEM_PRICES.image)}`);
    // Nothing is sold while the buyer is on the payment page.
    const [pending] = await query('select status, payment_method from payments p join payment_items pi on pi.payment_id = p.id where pi.transformation_id = $1', [image.id]);
    expect(pending).toEqual({ status: 'pending', payment_method: 'stripe' });

    // The buyer is back before the webhook: the page says so, then shows the order once it has landed.
    stripe.deliveryDelayMs = 2500;
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForURL(/\/checkout\/success\?session_id=cs_test_/);
    await page.getByTestId('payment-confirming').waitFor();
    await expect(page.getByRole('link', { name: 'Download image' }).count()).resolves.toBe(0);
    const summary = page.getByTestId('order-summary');
    await summary.waitFor();
    // Once confirmed, the address becomes the order's permanent link.
    expect(new URL(page.url()).searchParams.get('order')).toBeTruthy();
    await expect(summary.textContent()).resolves.toContain(`Total paid${formatPrice(ITEM_PRICES.image)}`);
    expect(stripe.deliveries.at(-1)).toMatchObject({ status: 200 });

    const link = summary.getByRole('link', { name: 'Download image' });
    const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
    expect(await downloadBytes(download)).toEqual(image.clean);
    await expect(page.evaluate((key) => localStorage.getItem(key), CART_STORAGE_KEY)).resolves.toBe('[]');
    await context.close();
  });

  it('cancelling on the payment page returns to the cancel page with the cart intact', async () => {
    const image = await seedCompleted('image');
    const cart = cartWith(image.id);
    const { context, page } = await toolPageWithCart(cart);
    await page.getByRole('button', { name: 'Proceed to Checkout' }).click();
    await page.waitForURL(`${stripe.base}/pay/**`);
    await page.getByRole('link', { name: 'Cancel' }).click();
    await page.waitForURL(`${site.url}/checkout/cancel`);
    await expect(page.locator('h1').textContent()).resolves.toBe('Payment Cancelled');
    await expect(page.evaluate((key) => JSON.parse(localStorage.getItem(key) ?? '[]'), CART_STORAGE_KEY)).resolves.toEqual(cart);
    await context.close();
  });
});
