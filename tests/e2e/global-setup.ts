import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { startSiteServer } from '../../scripts/lib/server';
import { startEmbeddedServices } from '../../scripts/embedded/services';
import { startFakeSupabaseStorage } from '../support/fake-supabase-storage';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The stand-in's port the last build was made for, so E2E_SKIP_BUILD can start it there again. */
const storagePortFile = path.join(root, '.netlify', 'e2e-storage-port');

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    platformEnv: Record<string, string>;
    /** The Supabase Storage stand-in of the production-mode run (tests/e2e/production.test.ts). */
    supabaseStorage: { url: string; serviceRoleKey: string };
  }
}

/**
 * Builds the site once and runs the product exactly as `npm start` does (same modules): a fresh
 * embedded database and storage in a temp folder, then the site and functions on a free port.
 * Set E2E_SKIP_BUILD=1 to reuse an existing dist/ while iterating.
 *
 * The Supabase Storage stand-in starts first: the build is made with SUPABASE_URL pointing at it, as a
 * deploy is built with its Supabase project's URL, because the pages' security policy is computed from it.
 * Only the production-mode run stores files there; the embedded server below keeps local storage.
 */
export default async function setup(project: TestProject) {
  const skipBuild = !!process.env.E2E_SKIP_BUILD;
  const storage = await startFakeSupabaseStorage({ port: skipBuild ? previousStoragePort() : 0 }).catch((error: Error) => {
    throw new Error(`Could not start the Storage stand-in${skipBuild ? ' on the port dist/ was built for (run once without E2E_SKIP_BUILD)' : ''}: ${error.message}`);
  });
  if (!skipBuild) {
    const build = spawnSync('npx', ['astro', 'build'], {
      cwd: root,
      stdio: 'inherit',
      env: { ...process.env, SUPABASE_URL: storage.url, SUPABASE_SERVICE_ROLE_KEY: storage.serviceRoleKey },
    });
    if (build.status !== 0) {
      await storage.close();
      throw new Error('astro build failed');
    }
    mkdirSync(path.dirname(storagePortFile), { recursive: true });
    writeFileSync(storagePortFile, new URL(storage.url).port);
  }
  // Browser tests never mail anyone: confirmations go to the temp folder's outbox.
  delete process.env.SMTP_URL;
  delete process.env.MAIL_FROM;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-e2e-'));
  const services = await startEmbeddedServices({ dataDir });
  const server = await startSiteServer({ root, port: 0 });
  project.provide('baseUrl', server.url);
  project.provide('platformEnv', { ...services.env });
  project.provide('supabaseStorage', { url: storage.url, serviceRoleKey: storage.serviceRoleKey });
  return async () => {
    await server.close();
    await services.stop();
    await storage.close();
    rmSync(dataDir, { recursive: true, force: true });
  };
}

function previousStoragePort(): number {
  try {
    return Number(readFileSync(storagePortFile, 'utf8'));
  } catch {
    throw new Error('E2E_SKIP_BUILD: dist/ was not built by the e2e setup (no .netlify/e2e-storage-port); run once without E2E_SKIP_BUILD.');
  }
}
