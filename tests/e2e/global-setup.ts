import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startSiteServer, type RunningServer } from '../../scripts/lib/server';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
  }
}

/**
 * Builds the site once and serves it exactly as `npm start` does (same server module), on a free port.
 * Set E2E_SKIP_BUILD=1 to reuse an existing dist/ while iterating.
 */
export default async function setup(project: TestProject) {
  if (!process.env.E2E_SKIP_BUILD) {
    const build = spawnSync('npx', ['astro', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('astro build failed');
  }
  const server: RunningServer = await startSiteServer({ root, port: 0 });
  project.provide('baseUrl', server.url);
  return async () => {
    await server.close();
  };
}
