import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../support/axe';
import { baseUrl, newPage, useBrowser } from './harness';
import { contentPages } from './content-pages';
import { foundationPages } from './pages';

// The accessibility pass reads the built site's own page list (its sitemap), so every page, a new one
// included, is checked without a list to keep. Each pass reuses one page for every address, and the two
// passes run side by side (each page has its own renderer process).
const browser = useBrowser();

/** The paths the sitemap index lists, through each sitemap it names. */
async function sitemapPaths(): Promise<string[]> {
  const locs = (xml: string) => [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  const index = await (await fetch(`${baseUrl()}/sitemap-index.xml`)).text();
  const found: string[] = [];
  for (const sitemap of locs(index)) found.push(...locs(await (await fetch(baseUrl() + sitemap)).text()));
  return found;
}

/** Serious and critical axe violations of every path, opened one after the other in `page`. */
async function violations(page: Page, label: string): Promise<string[]> {
  const failures: string[] = [];
  for (const path of paths) {
    const response = await page.goto(baseUrl() + path);
    if (response?.status() !== 200) failures.push(`${label} ${path}: status ${response?.status()}`);
    for (const violation of await seriousViolations(page)) failures.push(`${label} ${path} ${violation}`);
  }
  return failures;
}

const paths = await sitemapPaths();
// A pass's time limit grows with the sitemap. Axe takes about 2 s a page on an idle 2-core machine and over 7 s
// while the rest of the suite runs beside it (a pass over 44 pages took 324 s there): the limit is a hang guard,
// not a speed target (the speed of pages is measured by `npm run bench:pages`).
const PASS_TIMEOUT_MS = 60_000 + paths.length * 15_000;

describe('accessibility of every page in the sitemap', () => {
  it('the sitemap lists every page the other tests know, blog posts included', () => {
    const known = [...foundationPages, ...contentPages].map((p) => p.path);
    expect(known.filter((p) => !paths.includes(p))).toEqual([]);
    expect(paths.filter((p) => p.startsWith('/blog/')).length).toBeGreaterThan(0);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it.concurrent('no serious axe violations in dark mode on a desktop', async () => {
    const { context, page } = await newPage(browser());
    expect(await violations(page, 'dark')).toEqual([]);
    await context.close();
  }, PASS_TIMEOUT_MS);

  it.concurrent('no serious axe violations in light mode on a phone', async () => {
    const { context, page } = await newPage(browser(), { viewport: { width: 390, height: 844 } });
    await context.addInitScript(() => localStorage.setItem('theme', 'light'));
    await page.goto(baseUrl() + '/');
    expect(await page.evaluate(() => document.documentElement.classList.contains('light-mode'))).toBe(true);
    expect(await violations(page, 'light')).toEqual([]);
    await context.close();
  }, PASS_TIMEOUT_MS);
});
