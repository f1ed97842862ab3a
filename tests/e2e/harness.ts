import { inject, afterAll, beforeAll } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage } from '../support/browser';

/** Base URL of the server the e2e globalSetup started. */
export const baseUrl = (): string => inject('baseUrl');

/** One Chromium per test file, closed after it. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('browser not started');
    return browser;
  };
}

export { newPage };

/**
 * Waits until the Astro island holding `selector` has hydrated (Astro drops its `ssr` attribute then).
 * Waiting for any island is not enough: on a loaded machine a file chosen before React attached its
 * handlers is set on the input but never seen by the island.
 */
export async function hydrated(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const island = document.querySelector(sel)?.closest('astro-island');
    return !!island && !island.hasAttribute('ssr');
  }, selector);
}
