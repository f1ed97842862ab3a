import { inject, afterAll, afterEach, beforeAll, expect } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContextOptions, Download, Page } from 'playwright-core';
import { connectBrowser, newPage as openPage, recordCspViolations } from '../support/browser';

/** Base URL of the server the e2e globalSetup started. */
export const baseUrl = (): string => inject('baseUrl');

/** CSP violations seen by the pages of the running test (see useBrowser). */
const cspViolations: string[] = [];

/**
 * The run's one Chromium (started by the global setup), connected for this test file; every page opens in
 * a fresh context. Every test whose pages hit a Content-Security-Policy violation fails: the production
 * policy is served here, so a blocked script, style, image or upload shows up in whichever flow meets it first.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await connectBrowser(inject('browserWsEndpoint'));
  });
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(() => {
    const seen = cspViolations.splice(0);
    expect(seen, 'Content-Security-Policy violations').toEqual([]);
  });
  return () => {
    if (!browser) throw new Error('browser not started');
    return browser;
  };
}

/** A page in a fresh context, its CSP violations recorded for the running test. */
export async function newPage(browser: Browser, options: BrowserContextOptions = {}) {
  const opened = await openPage(browser, options);
  await recordCspViolations(opened.page, cspViolations);
  return opened;
}

/**
 * Stops the page's clock at `start` + 1 s before it loads: however long the page takes to load and hydrate on a
 * busy machine, its timers move only on `page.clock.runFor` (an installed clock otherwise runs at real speed).
 */
export async function standStill(page: Page, start: number): Promise<void> {
  await page.clock.install({ time: start });
  await page.clock.pauseAt(start + 1000);
}

/**
 * Waits until the Astro island holding `selector` has hydrated and React owns that element.
 * Waiting for any island is not enough: on a loaded machine a file chosen before React attached its
 * handlers is set on the input but never seen by the island.
 */
export async function hydrated(page: Page, selector: string): Promise<void> {
  // Astro drops `ssr` when it starts hydrating, but React 19 hydrates in a later task: typing before React owns the
  // element is lost when it does. React marks each hydrated node with its fiber (a `__reactFiber$…` key).
  await page.waitForFunction((sel) => {
    const element = document.querySelector(sel), island = element?.closest('astro-island');
    return !!island && !island.hasAttribute('ssr') && Object.keys(element!).some((key) => key.startsWith('__reactFiber$'));
  }, selector);
}

/**
 * The bytes of a finished download. The browser is shared over a connection (useBrowser), so Playwright
 * keeps no local path for downloads: they are copied out with saveAs.
 */
export async function downloadBytes(download: Download): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'lumora-download-'));
  try {
    const file = path.join(dir, download.suggestedFilename() || 'download');
    await download.saveAs(file);
    return await readFile(file);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
