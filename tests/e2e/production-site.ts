import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import { closePool } from '../../netlify/lib/db';
import { startSiteServer, type RunningServer } from '../../scripts/platform/server';
import { buildSiteCopy } from '../support/project-copy';
import { migrateWithNpm, startDebianPostgres, type RunningPostgres } from '../support/debian-postgres';
import { startFakeSupabaseStorage, type FakeSupabaseStorage } from '../support/fake-supabase-storage';
import { TEST_HEALTH_SECRET } from '../support/operator-health';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ProductionSite {
  url: string;
  /** The built site (its pages, _headers, sitemap). */
  distDir: string;
  databaseUrl: string;
  storage: FakeSupabaseStorage;
  stop(): Promise<void>;
}

/**
 * The site configured as a Netlify deploy with Supabase, served as `npm start` serves it (the same server
 * module, netlify.toml, the build's _headers): DATABASE_URL on a fresh Debian PostgreSQL migrated by
 * `npm run db:migrate`, SUPABASE_URL / SUPABASE_SERVICE_ROLE_KEY on the Storage stand-in (its own origin), its
 * own APP_SECRET; no embedded database, hosted AI, Stripe or mail server. Like a deploy, the site is built
 * with that environment (the pages' security policy is computed from SUPABASE_URL), into its own folder so
 * the other browser tests keep the default build. It is a Netlify production deploy: CONTEXT=production and
 * only URL (its own address) set, no PUBLIC_SITE_URL. The function instances inherit this process's
 * environment, so it is set here before the first request.
 */
export async function startProductionSite(): Promise<ProductionSite> {
  const temp = mkdtempSync(path.join(os.tmpdir(), 'lumora-production-'));
  // The served folder: netlify.toml beside the build, as in the repository.
  const siteRoot = path.join(temp, 'site');
  mkdirSync(siteRoot);
  copyFileSync(path.join(root, 'netlify.toml'), path.join(siteRoot, 'netlify.toml'));
  // Function bundles stay inside the project, where their external packages (node_modules) resolve.
  mkdirSync(path.join(root, '.netlify'), { recursive: true });
  const functionsOutDir = mkdtempSync(path.join(root, '.netlify', 'functions-production-'));

  let storage: FakeSupabaseStorage | undefined;
  let postgres: RunningPostgres | undefined;
  let server: RunningServer | undefined;
  // The variables this site sets are put back on stop, for whatever runs next in the same worker.
  const savedEnv = { ...process.env };
  const stop = async () => {
    try {
      await server?.close();
      await closePool();
      await storage?.close();
    } finally {
      await postgres?.stop();
      for (const folder of [temp, functionsOutDir]) rmSync(folder, { recursive: true, force: true });
      for (const name of Object.keys(process.env)) if (!(name in savedEnv)) delete process.env[name];
      Object.assign(process.env, savedEnv);
    }
  };
  try {
    storage = await startFakeSupabaseStorage();
    postgres = await startDebianPostgres();
    await migrateWithNpm(postgres.url, root);
    for (const name of Object.keys(process.env)) {
      if (/^(REPLICATE_|STRIPE_|SMTP_URL$|MAIL_FROM$|PAYMENTS$|EMBEDDED_DATABASE$|VIDEO_ENGINE$|COLORIZER_ONNX_|PUBLIC_SITE_URL$|DEPLOY_PRIME_URL$|HEAD$|BRANCH$)/.test(name)) delete process.env[name];
    }
    // The address is known before the build, as on Netlify: canonical links and the sitemap are built on it.
    const port = await getPort({ host: '127.0.0.1' });
    Object.assign(process.env, {
      CONTEXT: 'production',
      // A production deploy names its checkout; this one is the demonstration (nothing charged).
      PAYMENTS: 'demo',
      HEALTH_SECRET: TEST_HEALTH_SECRET,
      URL: `http://127.0.0.1:${port}`,
      DATABASE_URL: postgres.url,
      SUPABASE_URL: storage.url,
      SUPABASE_SERVICE_ROLE_KEY: storage.serviceRoleKey,
      APP_SECRET: randomBytes(32).toString('base64url'),
      // Unused for files with Supabase configured; the order outbox sits beside it, in the temp folder.
      STORAGE_DIR: path.join(temp, 'storage'),
    });
    // Built in a copy of the project: the e2e build's .netlify/ (its SSR function) stays as the other tests read it.
    await buildSiteCopy(path.join(siteRoot, 'dist'), process.env);
    server = await startSiteServer({ root, siteRoot, port, functionsOutDir });
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  return { url: server.url, distDir: path.join(siteRoot, 'dist'), databaseUrl: postgres.url, storage, stop };
}
