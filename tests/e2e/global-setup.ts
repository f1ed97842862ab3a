import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startSiteServer } from '../../scripts/platform/server';
import { startEmbeddedServices } from '../../scripts/platform/embedded/embedded-services';
import { TEST_HEALTH_SECRET } from '../support/operator-health';
import { E2E_OPERATOR } from './inbox-operator';
import { launchBrowserServer } from '../support/browser';
import { runCommand } from '../support/command';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    platformEnv: Record<string, string>;
    /** The run's one Chromium: test files connect to it (harness.ts useBrowser). */
    browserWsEndpoint: string;
  }
}

/**
 * Builds the site once and runs the product exactly as `npm start` does (same modules): a fresh
 * embedded database and storage in a temp folder, then the site and functions on a free port.
 * Set E2E_SKIP_BUILD=1 to reuse an existing dist/ while iterating.
 */
export default async function setup(project: TestProject) {
  // The build runs beside the database and browser start-up (it leaves a core idle much of the time). It starts
  // here, so it gets the environment as it was before the changes below.
  const built = process.env.E2E_SKIP_BUILD ? Promise.resolve('') : runCommand('npx', ['astro', 'build'], { cwd: root });
  // Browser tests never mail anyone: confirmations go to the temp folder's outbox.
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  // The operator's secret, so tests can read /api/health's details.
  process.env.HEALTH_SECRET = TEST_HEALTH_SECRET;
  // The team's inbox (/admin/inbox): who may sign in; the owner's notices go to the outbox folder like all mail.
  process.env.OPERATOR_EMAILS = E2E_OPERATOR;
  process.env.NOTIFY_EMAIL = 'owner@lumora.test';
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-e2e-'));
  const [services, browser, build] = await Promise.allSettled([startEmbeddedServices({ dataDir }), launchBrowserServer(), built]);
  if (services.status === 'rejected' || browser.status === 'rejected' || build.status === 'rejected') {
    if (browser.status === 'fulfilled') await browser.value.close();
    if (services.status === 'fulfilled') await services.value.stop();
    rmSync(dataDir, { recursive: true, force: true });
    throw [services, browser, build].find((r) => r.status === 'rejected')!.reason;
  }
  const server = await startSiteServer({ root, port: 0 });
  project.provide('baseUrl', server.url);
  project.provide('platformEnv', { ...services.value.env });
  project.provide('browserWsEndpoint', browser.value.wsEndpoint());
  return async () => {
    await browser.value.close();
    await server.close();
    await services.value.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
