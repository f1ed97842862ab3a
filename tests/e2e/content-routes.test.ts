import { describe, expect, it } from 'vitest';
import { baseUrl, newPage, useBrowser } from './harness';
import { contentPages } from './content-pages';
import { site } from '../../src/lib/site';
import { MSG } from '../../src/lib/messages';

const browser = useBrowser();

describe('content pages', () => {
  // Independent pages, each in its own browser context: checked a few at a time.
  for (const { path, title, figures, islands = [] } of contentPages) {
    // Accessibility (axe) is checked for every page of the sitemap in accessibility.test.ts.
    it.concurrent(`${path}: 200, title, one <h1>, key figures, only its islands`, async () => {
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
      await context.close();
    });
  }

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

  it('sample videos: a poster without JS until seen, the video file only on Play, then the watermarked player', async () => {
    const { context, page } = await newPage(browser());
    const requested: string[] = [];
    page.on('request', (r) => requested.push(new URL(r.url()).pathname));
    await page.goto(baseUrl() + '/video-production');
    const players = page.getByTestId('video-player');
    expect(await players.count()).toBe(1 + 5 + 5 + 3);
    expect(await page.locator('main video').count()).toBe(0);
    // Server-rendered posters: every one is there (with the watermark) before any script runs.
    const html = await (await fetch(baseUrl() + '/video-production')).text();
    expect(html.match(/data-state="poster"/g)).toHaveLength(14);
    expect(html.match(/client="visible"/g)?.length).toBe(14);
    expect(requested.some((p) => p.endsWith('.mp4'))).toBe(false);

    const reel = players.first();
    await reel.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => !document.querySelector('[data-testid=video-player]')?.closest('astro-island')?.hasAttribute('ssr'));
    await expect(reel.textContent()).resolves.toContain(site.brand);
    await reel.getByRole('button', { name: /^Play video: / }).click();
    const player = page.getByRole('group', { name: 'Lumora AI studio showreel' });
    await player.locator('video').waitFor();
    await page.waitForFunction(() => ((document.querySelector('main video') as HTMLVideoElement | null)?.currentTime ?? 0) > 0.2, null, { timeout: 30_000 });
    await expect.poll(() => player.getAttribute('data-state')).toBe('playing');
    await expect(player.locator('video').getAttribute('controlslist')).resolves.toContain('nodownload');
    expect(await player.locator('video').evaluate((v) => (v as HTMLVideoElement).controls)).toBe(false);
    // Right-click is refused with the toast.
    await player.click({ button: 'right' });
    await page.getByText(MSG.videoRightClick).waitFor();
    // Pause by keyboard; only the played video's file was fetched.
    await player.getByRole('button', { name: 'Pause' }).press('Enter');
    await expect.poll(() => player.getAttribute('data-state')).toBe('paused');
    expect(requested.filter((p) => p.endsWith('.mp4'))).toEqual(['/media/content/demo.mp4']);

    // Image-to-video carousel: 3 samples with label and prompt, two per view on medium screens.
    expect(await page.locator('[data-i2v] > li').count()).toBe(3);
    await page.setViewportSize({ width: 800, height: 900 });
    const widths = await page.locator('[data-i2v] > li').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    const list = await page.locator('[data-i2v]').evaluate((e) => e.clientWidth);
    expect(Math.round((list + 20) / (widths[0]! + 20))).toBe(2);
    await context.close();
  });
});
