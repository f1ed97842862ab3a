import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { baseUrl, newPage, standStill, useBrowser } from './harness';
import { MSG } from '../../src/lib/messages';
import { IMAGE_PACKAGES } from '../../src/lib/catalog';
import { site } from '../../src/lib/site';

const browser = useBrowser();

/** Scrolls an island into view (client:visible) and waits until it has hydrated. */
async function hydrate(page: Page, selector: string) {
  await page.locator(selector).first().scrollIntoViewIfNeeded();
  await page.waitForFunction((sel) => {
    const el = document.querySelector(sel)?.closest('astro-island');
    return !!el && !el.hasAttribute('ssr');
  }, selector);
}

const digits = async (page: Page) =>
  page.locator('[data-countdown] [data-unit]').evaluateAll((els) => els.map((e) => e.textContent).join(':'));

describe('content islands', () => {
  it('countdown ticks every second with borrow and announces at most once a minute', async () => {
    const { context, page } = await newPage(browser());
    const start = new Date('2025-03-01T10:00:00Z').getTime();
    // The countdown ticks only on runFor.
    await standStill(page, start);
    await page.goto(baseUrl() + '/lead-connect');
    await hydrate(page, '[data-countdown]');
    expect(await digits(page)).toBe('07:23:59:59');
    const live = page.locator('[data-countdown-live]');
    const firstAnnouncement = await live.textContent();
    expect(firstAnnouncement).toBe('7 days, 23 hours and 59 minutes left');
    await page.clock.runFor(1000);
    expect(await digits(page)).toBe('07:23:59:58');
    await page.clock.runFor(57_000);
    expect(await digits(page)).toBe('07:23:59:01');
    await expect(live.textContent()).resolves.toBe(firstAnnouncement);
    await page.clock.runFor(2000);
    // Seconds borrow from minutes and reset to 59.
    expect(await digits(page)).toBe('07:23:58:59');
    await page.clock.runFor(58 * 60_000 + 60_000);
    // Minutes borrow from hours.
    expect(await digits(page)).toBe('07:22:59:59');
    await expect(live.textContent()).resolves.toBe('7 days, 22 hours and 59 minutes left');
    // The digits are not announced on every tick.
    await expect(page.locator('[data-countdown] > div').first().getAttribute('aria-hidden')).resolves.toBe('true');
    await context.close();
  });

  it('lead form posts { name, email, source } to /api/leads, toasts and confirms inline for 5 s keeping the scroll', async () => {
    const { context, page } = await newPage(browser());
    // Paused (as in the countdown test): the confirmation's 5 s run only on runFor, not while a loaded machine answers.
    const start = new Date('2025-03-01T10:00:00Z').getTime();
    await standStill(page, start);
    await page.goto(baseUrl() + '/lead-connect');
    await hydrate(page, '[data-lead-form]');
    // Native validation: an empty form is not sent.
    let posted = 0;
    page.on('request', (r) => r.url().endsWith('/api/leads') && posted++);
    await page.locator('[data-lead-form] button[type="submit"]').click();
    expect(posted).toBe(0);
    await page.locator('[data-lead-form]').getByLabel('Name').fill('Test Lead');
    await page.locator('[data-lead-form]').getByLabel('Email').fill(`lead-${Date.now()}@example.com`);
    const scrollBefore = await page.evaluate(() => window.scrollY);
    const [request, response] = await Promise.all([
      page.waitForRequest((r) => r.url().endsWith('/api/leads')),
      page.waitForResponse((r) => r.url().endsWith('/api/leads')),
      page.locator('[data-lead-form] button[type="submit"]').click(),
    ]);
    expect(request.postDataJSON()).toMatchObject({ name: 'Test Lead', source: 'lead-connect' });
    expect(response.status()).toBe(200);
    await expect(response.json()).resolves.toMatchObject({ success: true });
    await page.getByText(MSG.leadConfirmation).first().waitFor();
    await expect(page.locator('[data-lead-confirmation]').textContent()).resolves.toBe(MSG.leadConfirmation);
    expect(Math.abs((await page.evaluate(() => window.scrollY)) - scrollBefore)).toBeLessThan(2);
    await page.clock.runFor(5000);
    await expect(page.locator('[data-lead-confirmation]').textContent()).resolves.toBe('');
    await context.close();
  });

  it('quiz: counter, disabled submit, correct and wrong feedback, next and final score', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/all-life-with-ai');
    await hydrate(page, '[data-quiz]');
    const quiz = page.locator('[data-quiz]');
    await expect(quiz.locator('[data-quiz-counter]').textContent()).resolves.toBe('Question 1 of 5');
    const submit = quiz.getByRole('button', { name: 'Submit Answer' });
    await expect(submit.isDisabled()).resolves.toBe(true);
    await quiz.getByLabel('Yes, more jobs are created').check();
    await expect(submit.isDisabled()).resolves.toBe(false);
    await submit.click();
    await expect(quiz.locator('[data-quiz-feedback]').textContent()).resolves.toBe(MSG.quizCorrect);
    await quiz.getByRole('button', { name: 'Next' }).click();
    await expect(quiz.locator('[data-quiz-counter]').textContent()).resolves.toBe('Question 2 of 5');
    await quiz.getByLabel('Searches a database of fixed answers').check();
    await quiz.getByRole('button', { name: 'Submit Answer' }).click();
    await expect(quiz.locator('[data-quiz-feedback]').textContent()).resolves.toContain('The correct answer is: Predicts likely next words');
    for (let n = 3; n <= 5; n++) {
      await quiz.getByRole('button', { name: 'Next' }).click();
      await expect(quiz.locator('[data-quiz-counter]').textContent()).resolves.toBe(`Question ${n} of 5`);
      await quiz.getByRole('radio').first().check();
      await quiz.getByRole('button', { name: 'Submit Answer' }).click();
    }
    await page.getByRole('button', { name: 'See your score' }).click();
    await expect(page.locator('[data-quiz-result]').textContent()).resolves.toMatch(/You scored \d out of 5/);
    await context.close();
  });

  it('career calculator shows a result for each job', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/all-life-with-ai');
    await hydrate(page, '[data-career-calculator]');
    const select = page.getByLabel('Your job');
    const options = await select.locator('option').allTextContents();
    expect(options.slice(1)).toEqual(['Teacher', 'Healthcare Worker', 'Customer Service', 'Manufacturing', 'Retail']);
    await select.selectOption('Customer Service');
    await expect(page.locator('[data-career-result]').textContent()).resolves.toContain('High automation exposure');
    await select.selectOption('Teacher');
    const result = await page.locator('[data-career-result]').textContent();
    expect(result).toContain('Low automation exposure');
    expect(result).toContain('Skills to build');
    await context.close();
  });

  it('vector vault: FAQ keeps one item open, carousel advances every 4 s over 4 items and dots select', async () => {
    const { context, page } = await newPage(browser());
    // The clock stands still until the test moves it (as in the countdown test): on a loaded machine the clicks
    // below outlasted the carousel's 4 s while an installed clock ran at real speed.
    const start = new Date('2025-03-01T10:00:00Z').getTime();
    await standStill(page, start);
    await page.goto(baseUrl() + '/vector-vault');
    const items = page.locator('[data-faq] details');
    await items.nth(0).locator('summary').click();
    await items.nth(1).locator('summary').click();
    expect(await items.evaluateAll((els) => els.map((e) => (e as HTMLDetailsElement).open))).toEqual([false, true, false, false, false]);
    await items.nth(1).locator('summary').click();
    expect(await items.evaluateAll((els) => els.filter((e) => (e as HTMLDetailsElement).open).length)).toBe(0);
    await page.mouse.move(0, 0);
    const carousel = page.locator('testimonial-carousel');
    expect(await carousel.locator('[data-slide]').count()).toBe(4);
    await expect(carousel.getAttribute('data-interval')).resolves.toBe('4000');
    await expect(carousel.getAttribute('data-index')).resolves.toBe('0');
    await page.clock.runFor(4000);
    await expect(carousel.getAttribute('data-index')).resolves.toBe('1');
    await page.clock.runFor(3 * 4000);
    await expect(carousel.getAttribute('data-index')).resolves.toBe('0');
    await carousel.locator('[data-dot="3"]').click();
    await expect(carousel.getAttribute('data-index')).resolves.toBe('3');
    // The hero's looping clip is muted and can be paused.
    const clip = page.locator('looping-clip');
    await expect(clip.locator('video').evaluate((v: HTMLVideoElement) => v.muted && v.loop && v.autoplay)).resolves.toBe(true);
    await clip.getByRole('button', { name: 'Pause animation' }).click();
    await expect(clip.locator('video').evaluate((v: HTMLVideoElement) => v.paused)).resolves.toBe(true);
    await expect(clip.locator('[data-toggle]').getAttribute('aria-pressed')).resolves.toBe('true');
    await context.close();
  });

  it('voice cards toggle play and pause', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/ai-voiceovers');
    await hydrate(page, '[data-voice="James"]');
    const play = page.locator('[data-voices="samples"] [data-voice="James"] button');
    await expect(play.getAttribute('aria-pressed')).resolves.toBe('false');
    await play.click();
    await expect(play.getAttribute('aria-pressed')).resolves.toBe('true');
    await expect(play.getAttribute('aria-label')).resolves.toBe('Pause James sample');
    await play.click();
    await expect(play.getAttribute('aria-pressed')).resolves.toBe('false');
    expect(await page.locator('[data-voices="library"] li').count()).toBe(6);
    await context.close();
  });
});

describe('image services page', () => {
  const handle = (page: Page) => page.locator('[data-testid="before-after"] [role="slider"]');

  it('slider: starts at 50, moves by keyboard, mouse, touch and range input; blocks the context menu; watermark at 60 %', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/image-restoration');
    await hydrate(page, '[data-testid="before-after"]');
    await page.locator('[data-testid="before-after"] [data-loading]').waitFor({ state: 'detached' });
    const slider = handle(page);
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('50');
    await expect(page.locator('[data-testid="before-after"]').textContent()).resolves.toContain('Restored & Colorized');
    // Keyboard.
    await slider.focus();
    await page.keyboard.press('ArrowRight');
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('51');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('49');
    await page.keyboard.press('End');
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('100');
    await page.keyboard.press('Home');
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('0');
    // Mouse drag: press on the handle, move, release. (Brought off the edge first: at 0 % the handle's
    // centre lies on the clipped border, where a press may miss it.)
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('10');
    const box = (await page.locator('[data-testid="before-after"]').boundingBox())!;
    const h = (await slider.boundingBox())!;
    await page.mouse.move(h.x + h.width / 2, h.y + h.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    expect(Number(await slider.getAttribute('aria-valuenow'))).toBeCloseTo(25, -0.5);
    // Moving without pressing does nothing.
    await page.mouse.move(box.x + box.width * 0.8, box.y + box.height / 2, { steps: 3 });
    expect(Number(await slider.getAttribute('aria-valuenow'))).toBeCloseTo(25, -0.5);
    // Touch pointer: press on the handle, drag, lift; beyond the edge clamps to 100.
    const h2 = (await slider.boundingBox())!;
    const y = box.y + box.height / 2;
    await slider.dispatchEvent('pointerdown', { pointerType: 'touch', clientX: h2.x + h2.width / 2, clientY: y, isPrimary: true, button: 0 });
    await page.locator('[data-testid="before-after"]').dispatchEvent('pointermove', { pointerType: 'touch', clientX: box.x + box.width * 0.7, clientY: y, isPrimary: true });
    expect(Number(await slider.getAttribute('aria-valuenow'))).toBeCloseTo(70, -0.5);
    await page.locator('[data-testid="before-after"]').dispatchEvent('pointermove', { pointerType: 'touch', clientX: box.x + box.width + 50, clientY: y, isPrimary: true });
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('100');
    await page.locator('[data-testid="before-after"]').dispatchEvent('pointerup', { pointerType: 'touch', clientX: box.x + box.width, clientY: y });
    await page.locator('[data-testid="before-after"]').dispatchEvent('pointermove', { pointerType: 'touch', clientX: box.x + 10, clientY: y });
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('100');
    // Range input.
    await page.locator('.before-after input[type="range"]').fill('30');
    await expect(slider.getAttribute('aria-valuenow')).resolves.toBe('30');
    // Context menu blocked.
    const prevented = await page.locator('[data-testid="before-after"] img').first().evaluate((img) => {
      const event = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
      img.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(prevented).toBe(true);
    // Watermark and cache-busting addresses.
    const watermark = page.locator('[data-testid="before-after"] [data-watermark]');
    await expect(watermark.textContent()).resolves.toBe(site.brand);
    await expect(watermark.evaluate((e) => getComputedStyle(e).opacity)).resolves.toBe('0.6');
    const srcs = await page.locator('[data-testid="before-after"] img').evaluateAll((els) => els.map((e) => e.getAttribute('src')));
    for (const src of srcs) expect(src).toMatch(/\?t=\d+$/);
    await context.close();
  });

  it('slider: failing images are retried 3 times with fresh time-stamps, then the error overlay shows', async () => {
    const { context, page } = await newPage(browser());
    const attempts: string[] = [];
    await page.route(/\/_astro\/photo-original\.[^/]*\?t=/, (route) => {
      attempts.push(route.request().url());
      return route.abort();
    });
    await page.goto(baseUrl() + '/image-restoration');
    await hydrate(page, '[data-testid="before-after"]');
    await page.locator('[data-testid="before-after"] [data-error]').waitFor();
    await expect(page.locator('[data-testid="before-after"] [data-error]').textContent()).resolves.toBe(MSG.imagesLoadError);
    expect(attempts).toHaveLength(4);
    expect(new Set(attempts).size).toBe(4);
    await context.close();
  });

  it('tabs: restoration by default, arrow keys move, the motion tab plays its demo video on click', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/image-restoration');
    const tabs = page.getByRole('tab');
    expect(await tabs.allTextContents()).toEqual(['Restoration', 'Colorization', 'Motion', 'Creation']);
    await expect(tabs.nth(0).getAttribute('aria-selected')).resolves.toBe('true');
    await expect(page.locator('[data-panel="restoration"]').isVisible()).resolves.toBe(true);
    await expect(page.locator('[data-panel="colorization"]').isVisible()).resolves.toBe(false);
    await tabs.nth(0).focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.nth(1).getAttribute('aria-selected')).resolves.toBe('true');
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('[data-panel="motion"]').isVisible()).resolves.toBe(true);
    await hydrate(page, '[data-panel="motion"] [data-testid=video-player]');
    await page.locator('[data-panel="motion"]').getByRole('button', { name: /^Play video: / }).click();
    await expect(page.locator('[data-panel="motion"] [data-testid=video-player]').textContent()).resolves.toContain(site.brand);
    await page.locator('[data-panel="motion"] video').waitFor();
    await tabs.nth(2).focus();
    await page.keyboard.press('End');
    await expect(tabs.nth(3).getAttribute('aria-selected')).resolves.toBe('true');
    await context.close();
  });

  it('packages add to the shared cart with a toast; a second click is a duplicate', async () => {
    const { context, page } = await newPage(browser());
    await page.goto(baseUrl() + '/image-restoration');
    const premium = IMAGE_PACKAGES.find((p) => p.isPopular)!;
    await hydrate(page, `[data-package="${premium.id}"] button`);
    expect(await page.locator('[data-package]').count()).toBe(4);
    await expect(page.locator(`[data-package="${premium.id}"]`).textContent()).resolves.toContain('Popular');
    const button = page.locator(`[data-package="${premium.id}"] button`);
    await button.click();
    await page.getByText(MSG.cartPackageAdded(premium.name)).waitFor();
    const cart = await page.evaluate(() => JSON.parse(localStorage.getItem('lumora-cart') ?? '[]'));
    expect(cart).toEqual([expect.objectContaining({ packageId: premium.id, name: premium.name, price: premium.priceValue, type: 'image' })]);
    await button.click();
    await page.getByText(MSG.cartDuplicate).waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('lumora-cart') ?? '[]').length)).toBe(1);
    await context.close();
  });
});
