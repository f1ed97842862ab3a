import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Page } from 'playwright-core';
import { closePool } from '../../netlify/lib/db';
import { MSG } from '../../src/lib/messages';
import { VIEWER_CROSSHAIR_PX } from '../../src/lib/tool/heal-brush';
import { DAMAGED, damagedPhoto } from '../support/tool-helpers';
import { newPage, useBrowser } from './harness';
import { seriousViolations } from '../support/axe';
import { openImageTab, restoreDamaged, toast } from './tool-page';

// The heal brush in the full-size viewer: a scratch the automatic pass left is marked zoomed in at 200 % with
// the mouse, a spot with the keyboard crosshair, Ctrl+Z undoes, and the clean file's pixels there end up like
// their neighbours. The marks show on the small picture under the result too.
const browser = useBrowser();
const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-heal-'));
let damaged = '';

beforeAll(async () => {
  Object.assign(process.env, inject('platformEnv'));
  damaged = path.join(dir, 'damaged.png');
  writeFileSync(damaged, await damagedPhoto());
});
afterAll(async () => {
  await closePool();
});

/**
 * The screen point of the photo's pixel (x, y) in the viewer, from the view its stage reports. The viewer shows
 * the preview, which is smaller than the photo (`k`: its width over the photo's), so photo pixels are scaled.
 */
async function screenPoint(page: Page, k: number, x: number, y: number): Promise<[number, number]> {
  [x, y] = [(x + 0.5) * k - 0.5, (y + 0.5) * k - 0.5];
  const stage = page.getByTestId('viewer-stage');
  const pane = (await page.getByTestId('viewer-heal').boundingBox())!;
  const scale = Number(await stage.getAttribute('data-scale'));
  const [cx, cy] = (await stage.getAttribute('data-center'))!.split(',').map(Number) as [number, number];
  return [pane.x + pane.width / 2 + (x + 0.5 - cx) * scale, pane.y + pane.height / 2 + (y + 0.5 - cy) * scale];
}

describe('heal brush in the full-size viewer', () => {
  it('heals a scratch at 200 % with the mouse and a spot with the keyboard; Ctrl+Z undoes; the small picture shows the marks', async () => {
    const { context, page } = await newPage(browser());
    // A pane smaller than the picture at 200 %: the marks are made on a zoomed, panned view.
    await page.setViewportSize({ width: 800, height: 640 });
    const panel = await openImageTab(page);
    const { contrast, stored } = await restoreDamaged(page, panel, damaged);
    const before = await contrast();
    expect(before.bar, 'the automatic pass left the bar').toBeGreaterThan(30);
    expect(before.spot, 'the automatic pass left the spot').toBeLessThan(-30);

    const result = panel.getByTestId('image-result');
    await result.getByRole('button', { name: 'View full size' }).click();
    const viewer = page.getByRole('dialog', { name: 'Full-size view' });
    await viewer.waitFor();
    await viewer.getByRole('button', { name: 'Heal' }).click();
    await expect(viewer.getByRole('button', { name: 'Heal' }).getAttribute('aria-pressed')).resolves.toBe('true');
    const stage = viewer.getByTestId('viewer-stage');
    await expect.poll(() => viewer.getByAltText(/watermarked preview/).evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0), { timeout: 60_000 }).toBe(true);
    const k = (await viewer.getByAltText(/watermarked preview/).evaluate((img: HTMLImageElement) => img.naturalWidth)) / DAMAGED.width;
    // 200 %: 1 shows 100 %, plus zooms to the maximum.
    await stage.focus();
    await page.keyboard.press('1');
    for (let i = 0; i < 4; i++) await page.keyboard.press('+');
    await expect.poll(async () => Number(await stage.getAttribute('data-scale'))).toBe(2);
    await expect(viewer.getByTestId('zoom-level').textContent()).resolves.toBe('200 %');
    expect(await seriousViolations(page, '[data-testid=result-viewer]')).toEqual([]);

    /** Waits until `n` marks are stored and shown in the viewer and the re-render is over. */
    const count = viewer.getByTestId('heal-count');
    const settled = async (n: number) => {
      await expect.poll(async () => (await stored()).length, { timeout: 90_000, interval: 250 }).toBe(n);
      await expect.poll(async () => (await viewer.getByTestId('viewer-heal-busy').count()) === 0 && (await count.textContent()), { timeout: 30_000 }).toBe(n === 1 ? '1 mark' : `${n} marks`);
    };

    // The bar with the mouse, along its middle and a little beyond both ends, on the zoomed picture.
    const { bar, spot } = DAMAGED;
    const cx = bar.x + (bar.w - 1) / 2;
    await page.mouse.move(...(await screenPoint(page, k, cx, bar.y - 3)));
    await page.mouse.down();
    for (let y = bar.y; y <= bar.y + bar.h + 3; y += 4) await page.mouse.move(...(await screenPoint(page, k, cx, y)));
    await page.mouse.up();
    await settled(1);
    const stroked = await contrast();
    expect(Math.abs(stroked.bar), 'the bar matches its neighbours').toBeLessThan(6);
    expect(stroked.spot).toBeLessThan(-30);

    // The spot from the keyboard: the crosshair starts at the centre and moves by VIEWER_CROSSHAIR_PX screen
    // pixels a key (ten with Shift), the view following it.
    await stage.focus();
    const crosshair = viewer.getByTestId('heal-crosshair').locator('circle');
    await crosshair.waitFor();
    const imagePx = VIEWER_CROSSHAIR_PX / 2;
    const moveTo = async (x: number, y: number) => {
      for (const axis of ['x', 'y'] as const) {
        const now = Number(await crosshair.getAttribute(axis === 'x' ? 'cx' : 'cy'));
        const d = ((axis === 'x' ? x : y) + 0.5) * k - now;
        const key = axis === 'x' ? (d < 0 ? 'ArrowLeft' : 'ArrowRight') : d < 0 ? 'ArrowUp' : 'ArrowDown';
        const steps = Math.round(Math.abs(d) / imagePx);
        for (let i = 0; i < Math.floor(steps / 10); i++) await page.keyboard.press(`Shift+${key}`);
        for (let i = 0; i < steps % 10; i++) await page.keyboard.press(key);
      }
    };
    await moveTo(spot.x, spot.y);
    await page.keyboard.press('Enter');
    await settled(2);
    const healed = await contrast();
    expect(Math.abs(healed.bar)).toBeLessThan(6);
    expect(Math.abs(healed.spot), 'the spot matches its neighbours').toBeLessThan(8);

    // Ctrl+Z in the viewer takes the spot's mark back.
    await page.keyboard.press('Control+z');
    await settled(1);
    await toast(page, MSG.healUndone);
    expect((await contrast()).spot).toBeLessThan(-30);

    // Closed, the small picture under the result shows the stroke made in the viewer.
    await page.keyboard.press('Escape');
    await expect.poll(() => viewer.isVisible()).toBe(false);
    const heal = panel.getByTestId('heal');
    await heal.getByText('Heal brush: remove a missed scratch or spot (optional)').click();
    await expect(heal.locator('polyline[data-mark=done]').count()).resolves.toBe(1);
    await expect(heal.getByTestId('heal-count').textContent()).resolves.toBe('1 mark');
    await context.close();
  }, 300_000);
});
