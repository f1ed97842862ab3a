import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, newPage, useBrowser } from './harness';
import { site } from '../../src/lib/site';

const browser = useBrowser();
const siteOrigin = new URL(site.url).origin;

/** The cards of /blog as a reader sees them, in page order. */
async function cards(page: Page) {
  return page.locator('[data-post]').evaluateAll((items) =>
    items.map((li) => {
      const link = li.querySelector('a')!;
      return {
        id: li.getAttribute('data-post')!,
        title: li.querySelector('h3')!.textContent!.trim(),
        category: li.querySelector('p span')!.textContent!.trim(),
        date: li.querySelector('time')!.getAttribute('datetime')!,
        href: link.getAttribute('href')!,
        target: link.getAttribute('target'),
        linkText: link.textContent!,
      };
    }),
  );
}

/** RSS items parsed by the browser's own XML parser. */
async function feedItems(page: Page) {
  const xml = await (await fetch(baseUrl() + '/rss.xml')).text();
  return page.evaluate((source) => {
    const doc = new DOMParser().parseFromString(source, 'application/xml');
    if (doc.querySelector('parsererror')) throw new Error('rss.xml is not well-formed XML');
    return [...doc.querySelectorAll('item')].map((item) => ({
      title: item.querySelector('title')?.textContent ?? '',
      link: item.querySelector('link')?.textContent ?? '',
      description: item.querySelector('description')?.textContent ?? '',
      category: item.querySelector('category')?.textContent ?? '',
      content: item.getElementsByTagNameNS('http://purl.org/rss/1.0/modules/content/', 'encoded')[0]?.textContent ?? '',
    }));
  }, xml);
}

describe('blog on the site (no external blog configured)', () => {
  it('is built in on-site mode', () => {
    expect(site.external.blog, 'these tests describe the default: PUBLIC_EXTERNAL_BLOG_URL unset').toBe('');
  });

  it('every card opens its article on the site, in the same tab', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/blog');
    const list = await cards(page);
    expect(list).toHaveLength(6);
    expect(await page.getByRole('link', { name: /Visit the Full Blog/ }).count()).toBe(0);
    expect(await page.locator('a[href*="blog.lumora-ai.example.com"], a[target="_blank"][href^="/blog/"]').count()).toBe(0);
    for (const card of list) {
      expect(card.href).toBe(`/blog/${card.id}`);
      expect(card.target).toBeNull();
      expect(card.linkText).not.toContain('new tab');
      await page.goto(baseUrl() + '/blog');
      await page.locator(`[data-post="${card.id}"] a`).click();
      await page.waitForURL(`${baseUrl()}/blog/${card.id}`);
      expect(await page.locator('h1').textContent()).toBe(card.title);
      expect(await page.title()).toBe(`${card.title} | ${site.brand}`);
      expect(await page.locator('[data-post-category]').textContent()).toBe(card.category);
      expect(await page.locator('[data-post-date]').getAttribute('datetime')).toBe(card.date);
    }
    await context.close();
  });

  it('post pages have reading time, date, category, previous/next in date order, BlogPosting JSON-LD and no JS', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/blog');
    const list = await cards(page); // newest first
    for (const [i, card] of list.entries()) {
      const response = await page.goto(baseUrl() + card.href);
      expect(response?.status()).toBe(200);
      expect(await page.locator('h1').count()).toBe(1);
      const article = page.locator('article[data-post-article]');
      expect(await article.locator('h2').count()).toBeGreaterThanOrEqual(2);
      expect(await page.locator('[data-post-date]').textContent()).toMatch(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
      const image = article.locator('img').first();
      expect((await image.getAttribute('alt'))!.length).toBeGreaterThan(10);
      expect(await image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);

      // Previous is the next older post, next the next newer one; none past the ends.
      const previous = page.locator('a[data-post-previous]');
      const next = page.locator('a[data-post-next]');
      expect(await previous.count()).toBe(i < list.length - 1 ? 1 : 0);
      expect(await next.count()).toBe(i > 0 ? 1 : 0);
      if (i < list.length - 1) {
        expect(await previous.getAttribute('href')).toBe(list[i + 1]!.href);
        expect(await previous.getAttribute('rel')).toBe('prev');
        expect(await previous.textContent()).toContain(list[i + 1]!.title);
      }
      if (i > 0) expect(await next.getAttribute('href')).toBe(list[i - 1]!.href);

      const jsonLd = await page.locator('script[type="application/ld+json"]').allTextContents();
      expect(jsonLd).toHaveLength(1);
      const data = JSON.parse(jsonLd[0]!);
      expect(data['@type']).toBe('BlogPosting');

      // Reading time at 200 words a minute, from a word count close to what the reader sees.
      const visibleWords = (await article.locator('.prose-content').innerText()).split(/\s+/).filter(Boolean).length;
      expect(visibleWords).toBeGreaterThanOrEqual(600);
      expect(Math.abs(data.wordCount - visibleWords) / visibleWords).toBeLessThan(0.05);
      const minutes = Number((await page.locator('[data-reading-time]').textContent())!.match(/^(\d+) min read$/)![1]);
      expect(minutes).toBe(Math.ceil(data.wordCount / 200));
      expect(data.timeRequired).toBe(`PT${minutes}M`);
      expect(data.headline).toBe(card.title);
      expect(data.datePublished).toBe(card.date);
      expect(data.articleSection).toBe(card.category);
      expect(data.mainEntityOfPage['@id']).toBe(`${siteOrigin}/blog/${card.id}`);
      expect(data.image[0]).toMatch(new RegExp(`^${siteOrigin}/_astro/`));
      expect((await fetch(baseUrl() + new URL(data.image[0]).pathname)).status).toBe(200);

      expect(await page.locator('astro-island').count()).toBe(0);
    }
    // Same scripts as the island-free /blog index: the shell's and nothing of the post's own.
    const scripts = (p: Page) => p.locator('script[src], script[type="module"]').evaluateAll((els) => els.map((e) => e.getAttribute('src') ?? e.textContent).sort());
    const postScripts = await scripts(page);
    await page.goto(baseUrl() + '/blog');
    expect(postScripts).toEqual(await scripts(page));
    await context.close();
  });

  it('following Previous from the newest post walks every post, oldest last', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/blog');
    const titles = (await cards(page)).map((c) => c.title);
    await page.getByRole('link', { name: /^Read More/ }).first().click();
    const visited = [await page.locator('h1').textContent()];
    while (await page.locator('a[data-post-previous]').count()) {
      await page.locator('a[data-post-previous]').click();
      await page.waitForLoadState();
      visited.push(await page.locator('h1').textContent());
    }
    expect(visited).toEqual(titles);
    await page.getByRole('link', { name: /Next article/ }).click();
    expect(await page.locator('h1').textContent()).toBe(titles.at(-2));
    await context.close();
  });

  it('every RSS item opens its post page and carries the full article', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/blog');
    const list = await cards(page);
    await expect(page.locator('link[rel="alternate"][type="application/rss+xml"]').getAttribute('href')).resolves.toBe('/rss.xml');
    const items = await feedItems(page);
    expect(items.map((i) => i.title)).toEqual(list.map((c) => c.title));
    for (const item of items) {
      const link = new URL(item.link);
      expect(link.origin).toBe(siteOrigin);
      const response = await page.goto(baseUrl() + link.pathname);
      expect(response?.status()).toBe(200);
      expect(await page.locator('h1').textContent()).toBe(item.title);
      expect(item.description.length).toBeGreaterThan(20);
      expect(item.category).toBe(await page.locator('[data-post-category]').textContent());
      // Full content: the article's headings and paragraphs, its image, links made absolute.
      const body = await page.locator('article .prose-content').innerText();
      const firstParagraph = body.split('\n')[0]!.trim();
      const content = await page.evaluate((html) => {
        const doc = new DOMParser().parseFromString(html, 'text/html');
        return {
          text: doc.body.innerText ?? doc.body.textContent,
          headings: doc.querySelectorAll('h2').length,
          image: doc.querySelector('img')?.getAttribute('src') ?? '',
          alt: doc.querySelector('img')?.getAttribute('alt') ?? '',
          relative: [...doc.querySelectorAll('[href^="/"], [src^="/"]')].length,
        };
      }, item.content);
      expect(content.text.replace(/\s+/g, ' ')).toContain(firstParagraph.replace(/\s+/g, ' '));
      expect(content.headings).toBe(await page.locator('article .prose-content h2').count());
      expect(content.image.startsWith(`${siteOrigin}/_astro/`)).toBe(true);
      expect(content.alt).toBe(await page.locator('article img').first().getAttribute('alt'));
      expect(content.relative).toBe(0);
    }
    await context.close();
  });

  it('the sitemap lists every post page', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/blog');
    const list = await cards(page);
    const sitemap = await (await fetch(baseUrl() + '/sitemap-0.xml')).text();
    for (const card of list) expect(sitemap).toContain(`<loc>${siteOrigin}/blog/${card.id}</loc>`);
    await context.close();
  });
});
