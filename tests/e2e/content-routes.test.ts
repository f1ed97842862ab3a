import { describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import { baseUrl, newPage, useBrowser } from './harness';
import { contentPages } from './content-pages';
import { site } from '../../src/lib/site';

const browser = useBrowser();

describe('content pages (spec 001)', () => {
  // Independent pages, each in its own browser context: checked a few at a time.
  for (const { path, title, figures, islands = [] } of contentPages) {
    it.concurrent(`${path}: 200, title, one <h1>, key figures, only its islands, no serious axe violations`, async () => {
      const { context, page } = await newPage(browser());
      const response = await page.goto(baseUrl() + path);
      expect(response?.status()).toBe(200);
      expect(await page.title()).toBe(`${title} | ${site.brand}`);
      expect(await page.locator('h1').count()).toBe(1);
      const text = (await page.locator('main').textContent()) ?? '';
      for (const figure of figures) expect(text, `${path} shows ${figure}`).toContain(figure);
      const hydrated = await page.locator('astro-island').evaluateAll((els) =>
        [...new Set(els.map((el) => (el.getAttribute('component-url') ?? '').split('/').pop()!.split('.')[0]!))].sort(),
      );
      expect(hydrated).toEqual([...islands].sort());
      const results = await new AxeBuilder({ page }).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await context.close();
    });
  }

  // A sample covering every section type (the full list runs in dark mode above).
  const lightSample = ['/image-restoration', '/vector-vault', '/lead-connect', '/all-life-with-ai', '/cookie-policy', '/ai-voiceovers', '/video-production', '/blog', '/gohighlevel', '/ask-ai', '/website-design', '/ai-superagent', '/aila-lawyers'];
  it('content pages also pass axe in light mode', async () => {
    const { context, page } = await newPage(browser());
    await context.addInitScript(() => localStorage.setItem('theme', 'light'));
    const failures: string[] = [];
    for (const path of lightSample) {
      await page.goto(baseUrl() + path);
      expect(await page.evaluate(() => document.documentElement.classList.contains('light-mode'))).toBe(true);
      const results = await new AxeBuilder({ page }).analyze();
      for (const v of results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')) {
        failures.push(`${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      }
    }
    expect(failures).toEqual([]);
    await context.close();
  });

  it('external links in content open in a new tab and come from site.external', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/ai-implementation-course');
    const enroll = page.getByRole('link', { name: /Enroll Now/ }).first();
    await expect(enroll.getAttribute('href')).resolves.toBe(site.external.courseCheckout);
    await expect(enroll.getAttribute('target')).resolves.toBe('_blank');
    await page.goto(baseUrl() + '/website-design');
    expect(await page.getByRole('link', { name: /Visit Site/ }).count()).toBe(3);
    await page.goto(baseUrl() + '/llm-fine-tuning');
    await expect(page.getByRole('link', { name: 'Get a Proposal' }).getAttribute('href')).resolves.toBe('#contact-form');
    expect(await page.locator('#contact-form').count()).toBe(1);
    await context.close();
  });

  it('legal pages link the privacy and legal addresses by mailto and list the cookies in a table', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/privacy-policy');
    expect(await page.locator(`a[href="mailto:${site.privacyEmail}"]`).count()).toBeGreaterThan(0);
    await page.goto(baseUrl() + '/terms-of-service');
    expect(await page.locator(`a[href="mailto:${site.legalEmail}"]`).count()).toBeGreaterThan(0);
    await page.goto(baseUrl() + '/cookie-policy');
    const rows = await page.locator('[data-cookie-table] tbody tr').allTextContents();
    expect(rows).toHaveLength(4);
    expect(rows.find((r) => r.includes('_ga') && !r.includes('_gid'))).toContain('2 years');
    expect(rows.find((r) => r.includes('_gid'))).toContain('24 hours');
    expect(rows.find((r) => r.includes('session_id'))).toContain('Session');
    expect(rows.find((r) => r.includes('language_pref'))).toContain('1 year');
    await context.close();
  });

  it('videos load only on click (facade) and carry the watermark', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/video-production');
    expect(await page.locator('main video').count()).toBe(0);
    expect(await page.locator('video-facade').count()).toBe(1 + 5 + 5 + 3);
    const first = page.locator('video-facade').first();
    await first.getByRole('button').click();
    await expect(first.locator('video').count()).resolves.toBe(1);
    await expect(first.textContent()).resolves.toContain(site.brand);
    // Image-to-video carousel: 3 samples with label and prompt, two per view on medium screens.
    expect(await page.locator('[data-i2v] > li').count()).toBe(3);
    await page.setViewportSize({ width: 800, height: 900 });
    const widths = await page.locator('[data-i2v] > li').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    const list = await page.locator('[data-i2v]').evaluate((e) => e.clientWidth);
    expect(Math.round((list + 20) / (widths[0]! + 20))).toBe(2);
    await context.close();
  });
});
