import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { closePool } from '../../netlify/lib/db';
import { startSiteServer } from '../../scripts/lib/server';
import { migrateWithNpm, startDebianPostgres } from '../support/debian-postgres';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface ProductionSite {
  url: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * The site as `npm start` serves it (same server module, the e2e build's dist/ and netlify.toml headers),
 * configured as a Netlify deploy with Supabase: DATABASE_URL on a fresh Debian PostgreSQL migrated by
 * `npm run db:migrate`, SUPABASE_URL / SUPABASE_SERVICE_ROLE_KEY on the Storage stand-in, its own
 * APP_SECRET, no embedded database, no hosted AI, the demo checkout, no mail server. The function
 * instances inherit this process's environment, so it is set here before the first request.
 */
export async function startProductionSite(storage: { url: string; serviceRoleKey: string }): Promise<ProductionSite> {
  const temp = mkdtempSync(path.join(os.tmpdir(), 'lumora-production-'));
  // Bundles stay inside the project, where their external packages (node_modules) resolve.
  mkdirSync(path.join(root, '.netlify'), { recursive: true });
  const functionsOutDir = mkdtempSync(path.join(root, '.netlify', 'functions-production-'));
  const postgres = await startDebianPostgres();
  let server: Awaited<ReturnType<typeof startSiteServer>> | undefined;
  try {
    await migrateWithNpm(postgres.url, root);
    for (const name of Object.keys(process.env)) {
      if (/^(REPLICATE_|STRIPE_|SMTP_URL$|MAIL_FROM$|PAYMENTS$|EMBEDDED_DATABASE$|VIDEO_ENGINE$|COLORIZER_ONNX_)/.test(name)) delete process.env[name];
    }
    Object.assign(process.env, {
      DATABASE_URL: postgres.url,
      SUPABASE_URL: storage.url,
      SUPABASE_SERVICE_ROLE_KEY: storage.serviceRoleKey,
      APP_SECRET: randomBytes(32).toString('base64url'),
      // Unused for files with Supabase configured; the order outbox sits beside it, in the temp folder.
      STORAGE_DIR: path.join(temp, 'storage'),
    });
    server = await startSiteServer({ root, port: 0, functionsOutDir });
  } catch (error) {
    await postgres.stop().catch(() => {});
    for (const folder of [temp, functionsOutDir]) rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  const running = server;
  return {
    url: running.url,
    databaseUrl: postgres.url,
    async stop() {
      try {
        await running.close();
        await closePool();
      } finally {
        await postgres.stop();
        for (const folder of [temp, functionsOutDir]) rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
