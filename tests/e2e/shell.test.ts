import { describe, expect, it } from 'vitest';
import { baseUrl, newPage, standStill, useBrowser } from './harness';
import { foundationPages } from './pages';
import { site } from '../../src/lib/site';
import { transformationItem } from '../../src/lib/catalog';
import { API_HEADERS, STATIC_HEADERS, pagePolicies } from '../../netlify/lib/security-headers';
import { operatorHeaders } from '../support/operator-health';

const browser = useBrowser();

describe('foundation pages', () => {
  for (const { path, title } of foundationPages) {
    // Accessibility (axe) is checked for every page of the sitemap in accessibility.test.ts.
    it(`${path} has its title and one <h1>`, async () => {
      const { context, page } = await newPage(browser());
      const response = await page.goto(baseUrl() + path);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe(`${title} | ${site.brand}`);
      expect(await page.locator('h1').count()).toBe(1);
      await context.close();
    });
  }

  it('the contact page carries the fixed heading and description', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/contact');
    await expect(page.locator('h1').textContent()).resolves.toBe('Contact Us');
    await expect(page.getByText('Get in touch with our team to discuss your AI project needs').first().isVisible()).resolves.toBe(true);
    await context.close();
  });

  it('the home page shows 40 particles, 24 service cards and rotates testimonials with dots', async () => {
    const { context, page } = await newPage(browser());
    // The page's clock stands still until the test moves it: on a loaded machine loading the page took over the
    // carousel's 5 s while an installed clock ran at real speed.
    const start = new Date('2025-03-01T10:00:00Z').getTime();
    await standStill(page, start);
    await page.goto(baseUrl() + '/');
    expect(await page.locator('particle-field .particle').count()).toBe(40);
    expect(await page.locator('#services li').count()).toBe(24);
    const carousel = page.locator('testimonial-carousel');
    await expect(carousel.getAttribute('data-index')).resolves.toBe('0');
    await page.clock.runFor(5000);
    await expect(carousel.getAttribute('data-index')).resolves.toBe('1');
    await page.locator('[data-dot="2"]').click();
    await expect(carousel.getAttribute('data-index')).resolves.toBe('2');
    // Focus inside pauses rotation.
    await page.clock.runFor(10_000);
    await expect(carousel.getAttribute('data-index')).resolves.toBe('2');
    // Resizing lays the particles out anew.
    const before = await page.locator('particle-field .particle').first().getAttribute('style');
    await page.setViewportSize({ width: 900, height: 700 });
    // The browser dispatches 'resize' on its own frame, in real time, so it may land after a single
    // runFor: advance the fake clock past the 150 ms debounce until the new layout shows.
    await expect
      .poll(async () => {
        await page.clock.runFor(200);
        return page.locator('particle-field .particle').first().getAttribute('style');
      }, { timeout: 10_000, interval: 100 })
      .not.toBe(before);
    expect(await page.locator('particle-field .particle').count()).toBe(40);
    await context.close();
  });

  it("the footer year comes from the visitor's clock, with the build year in the HTML", async () => {
    const html = await (await fetch(baseUrl() + '/contact')).text();
    expect(html).toMatch(new RegExp(`<span data-year>${new Date().getFullYear()}</span>`));
    const { context, page } = await newPage(browser());
    await page.clock.setFixedTime(new Date('2041-03-01T12:00:00Z'));
    await page.goto(baseUrl() + '/contact');
    await expect(page.locator('footer [data-year]').textContent()).resolves.toBe('2041');
    await context.close();
  });

  it('unknown paths get the not-found page with status 404', async () => {
    const { context, page } = await newPage(browser());
    const response = await page.goto(baseUrl() + '/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.locator('h1').textContent()).resolves.toBe('Page Not Found');
    await expect(page.getByText("The page you're looking for doesn't exist or has been moved.").isVisible()).resolves.toBe(true);
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(baseUrl() + '/');
    await context.close();
  });

  it('every response carries the generated security headers, and every page its policy', async () => {
    for (const path of ['/', '/no-such-page', '/favicon.svg']) {
      const res = await fetch(baseUrl() + path);
      for (const [name, value] of Object.entries(STATIC_HEADERS)) expect(res.headers.get(name), `${path} ${name}`).toBe(value);
      if (path === '/favicon.svg') continue;
      const [meta] = pagePolicies(await res.text(), null);
      expect(meta?.['default-src']).toEqual(["'self'"]);
      expect(meta?.['script-src']).not.toContain("'unsafe-inline'");
    }
    const api = await fetch(baseUrl() + '/api/orders/nope');
    for (const [name, value] of Object.entries(API_HEADERS)) expect(api.headers.get(name), `/api/orders ${name}`).toBe(value);
  });

  it('the health function answers, and finds the storage reachable under the pages\' policy', async () => {
    // Anyone: yes or no, and what the pages need; no configuration.
    const open = await fetch(baseUrl() + '/api/health');
    expect(open.status).toBe(200);
    expect(await open.json()).toEqual({ ok: true, status: 'ok', video: { available: expect.any(Boolean) }, payments: { mode: 'demo' } });
    const res = await fetch(baseUrl() + '/api/health', { headers: operatorHeaders });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.ok).toBe(true);
    // Local storage: files come from this site, which the policy's 'self' allows.
    expect(body.csp).toEqual({ storageOrigin: baseUrl(), storageOriginAllowed: true, missing: [], checked: `${baseUrl()}/` });
  });

  it('does not serve project sources', async () => {
    for (const path of ['/package.json', '/src/lib/site.ts', '/netlify.toml']) {
      expect((await fetch(baseUrl() + path)).status).toBe(404);
    }
  });
});

describe('theme', () => {
  it('is dark by default, toggles to light, and stays light across reloads with no flash', async () => {
    const { context, page } = await newPage(browser());
    // Records <html>'s class at the moment <body> first exists, i.e. before anything can paint.
    await page.addInitScript(() => {
      const w = window as unknown as { __classAtBody?: string };
      new MutationObserver((_, observer) => {
        if (document.body) {
          w.__classAtBody = document.documentElement.className;
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(baseUrl() + '/about-us');
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    expect(await page.evaluate(() => document.documentElement.classList.contains('light-mode'))).toBe(false);
    await page.getByRole('button', { name: 'Light Mode' }).click();
    expect(await page.evaluate(() => document.documentElement.classList.contains('light-mode'))).toBe(true);
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('light');
    await page.reload();
    expect(await page.evaluate(() => (window as unknown as { __classAtBody?: string }).__classAtBody)).toContain('light-mode');
    await page.goto(baseUrl() + '/contact');
    expect(await page.evaluate(() => (window as unknown as { __classAtBody?: string }).__classAtBody)).toContain('light-mode');
    await page.getByRole('button', { name: 'Dark Mode' }).click();
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    await context.close();
  });
});

describe('sidebar', () => {
  it('marks the current route and shows the groups open', async () => {
    const { context, page } = await newPage(browser());
    // `/` too: the build writes it as index.html, which must still mark Home.
    for (const path of ['/ai-consulting', '/']) {
      await page.goto(baseUrl() + path);
      const current = page.locator('#site-sidebar a[aria-current="page"]');
      await expect(current.count()).resolves.toBe(1);
      await expect(current.getAttribute('href')).resolves.toBe(path);
    }
    expect(await page.locator('#site-sidebar details[open]').count()).toBe(2);
    const external = page.locator('#site-sidebar a[target="_blank"]');
    expect(await external.count()).toBe(2);
    await context.close();
  });

  it('is a drawer at 390 px: opens, closes on Escape, on the backdrop and on navigation', async () => {
    const { context, page } = await newPage(browser(), { viewport: { width: 390, height: 844 } });
    await page.goto(baseUrl() + '/');
    const drawer = page.locator('#site-sidebar');
    const open = page.getByRole('button', { name: 'Open navigation menu' });
    await expect(drawer.isVisible()).resolves.toBe(false);

    await open.click();
    await expect(drawer.getAttribute('data-open')).resolves.toBe('true');
    await expect(page.getByRole('button', { name: 'Close navigation menu' }).evaluate((el) => el === document.activeElement)).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await expect(drawer.getAttribute('data-open')).resolves.toBe('false');
    await expect(open.evaluate((el) => el === document.activeElement)).resolves.toBe(true);

    await open.click();
    await page.locator('[data-drawer-backdrop]').click({ position: { x: 370, y: 400 } });
    await expect(drawer.getAttribute('data-open')).resolves.toBe('false');

    await open.click();
    await page.getByRole('button', { name: 'Close navigation menu' }).click();
    await expect(drawer.getAttribute('data-open')).resolves.toBe('false');

    await open.click();
    await drawer.getByRole('link', { name: 'About Us' }).click();
    await page.waitForURL(baseUrl() + '/about-us');
    await expect(page.locator('#site-sidebar').getAttribute('data-open')).resolves.not.toBe('true');
    await expect(page.locator('#site-sidebar').isVisible()).resolves.toBe(false);

    // Newsletter button scrolls to the form and closes the drawer.
    await page.getByRole('button', { name: 'Open navigation menu' }).click();
    await page.getByRole('link', { name: 'Subscribe to Newsletter' }).click();
    await expect(page.locator('#site-sidebar').getAttribute('data-open')).resolves.toBe('false');
    await page.waitForFunction(() => {
      const r = document.getElementById('newsletter-section')!.getBoundingClientRect();
      return r.top < window.innerHeight && r.bottom > 0;
    });
    await context.close();
  });

  it('shows a live cart count badge', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/');
    const badge = page.locator('[data-cart-badge]');
    await expect(badge.isVisible()).resolves.toBe(false);
    const cart = JSON.stringify([{ id: 'restored-1', type: 'image', ...transformationItem('image'), imageUrl: '/a.jpg' }]);
    await page.evaluate((value) => localStorage.setItem('lumora-cart', value), cart);
    await page.reload();
    await expect(badge.textContent()).resolves.toBe('1');
    await context.close();
  });
});
