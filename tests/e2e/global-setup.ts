import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startSiteServer } from '../../scripts/lib/server';
import { startEmbeddedServices } from '../../scripts/embedded/embedded-services';
import { TEST_HEALTH_SECRET } from '../support/operator-health';
import { launchBrowserServer } from '../support/browser';

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
  if (!process.env.E2E_SKIP_BUILD) {
    const build = spawnSync('npx', ['astro', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('astro build failed');
  }
  // Browser tests never mail anyone: confirmations go to the temp folder's outbox.
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  // The operator's secret, so tests can read /api/health's details.
  process.env.HEALTH_SECRET = TEST_HEALTH_SECRET;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-e2e-'));
  const services = await startEmbeddedServices({ dataDir });
  const server = await startSiteServer({ root, port: 0 });
  const browser = await launchBrowserServer();
  project.provide('baseUrl', server.url);
  project.provide('platformEnv', { ...services.env });
  project.provide('browserWsEndpoint', browser.wsEndpoint());
  return async () => {
    await browser.close();
    await server.close();
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
