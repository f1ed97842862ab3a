import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type BrowserServer, type Page } from 'playwright-core';

/**
 * Debian's Chromium driven by playwright-core (no browser download). The flags keep it from reaching
 * out to Google's services, which this network refuses.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * Which Debian Chromium to run (CHROMIUM_PATH overrides). Tests prefer `chromium-headless-shell`: the same engine
 * without the desktop browser around it (what Playwright itself tests headless with); the browser tests cost
 * about a quarter less CPU in it. Lighthouse measures the full `chromium`, the browser visitors run.
 */
export function chromiumPath(prefer: 'headless-shell' | 'full' = 'headless-shell'): string {
  const shell = '/usr/bin/chromium-headless-shell';
  const full = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  const installed = prefer === 'headless-shell' ? [shell, ...full] : [...full, shell];
  const candidates = [process.env.CHROMIUM_PATH, ...installed].filter(Boolean) as string[];
  const found = candidates.find((p) => existsSync(p));
  if (!found) throw new Error('Chromium not found: install Debian\'s `chromium-headless-shell` or `chromium` package (see .ci/run) or set CHROMIUM_PATH.');
  return found;
}

/** One Chromium for a whole test run (the e2e global setup): each test file connects to it. */
export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: chromiumPath(), args: CHROMIUM_ARGS });
}

/** A connection to the run's Chromium; closing it leaves the browser running for the other files. */
export function connectBrowser(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}

export async function newPage(browser: Browser, options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  // Hang guards, not speed limits: with the whole suite running on two cores, a dev server's first compile of a
  // page took over Playwright's default 30 s. Each test's own timeout still bounds it.
  context.setDefaultNavigationTimeout(90_000);
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  return { context, page };
}

/**
 * Records every Content-Security-Policy violation on `page` into `sink`: the document's
 * `securitypolicyviolation` events (what the policy blocked, and where) and Chromium's console reports
 * (which also cover a policy the browser could not apply, e.g. a directive ignored in a <meta>).
 */
export async function recordCspViolations(page: Page, sink: string[]): Promise<void> {
  await page.exposeBinding('__reportCspViolation', (_source, text: string) => {
    sink.push(text);
  });
  await page.addInitScript(() => {
    document.addEventListener(
      'securitypolicyviolation',
      (e) => {
        const report = (window as unknown as { __reportCspViolation?: (t: string) => void }).__reportCspViolation;
        report?.(`${e.effectiveDirective} blocked ${e.blockedURI || '(inline)'} on ${e.documentURI}${e.sourceFile ? ` (${e.sourceFile}:${e.lineNumber})` : ''}`);
      },
      true,
    );
  });
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to (load|execute|apply|connect|frame)/i.test(message.text())) sink.push(`console: ${message.text()}`);
  });
}
