import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { startSiteServer } from './server';
import { startEmbeddedServices } from './embedded/embedded-services';
import { stopOnSignal } from './shutdown';
import { refuseUnworkableDatabase } from './database-check';

/**
 * `npm start`: builds the site, then runs the whole product locally with no accounts and no network —
 * the embedded Postgres (PGlite, data in .data/) and local file storage unless DATABASE_URL /
 * SUPABASE_* point elsewhere, and the built pages plus the Netlify functions on one port.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.PORT ?? 8888);

// Must run before the functions start: it puts DATABASE_URL, STORAGE_DIR and APP_SECRET in process.env,
// which the function instances inherit. And before the build: it takes the data folder's lock, so a second
// `npm start` stops here instead of emptying dist/ under the running one.
const services = process.env.DATABASE_URL
  ? refuseUnworkableDatabase()
  : await startEmbeddedServices({ dataDir: path.join(root, '.data') }).catch((error: Error) => {
      console.error(`\n  Could not start the embedded database: ${error.message}\n`);
      process.exit(1);
    });

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npx', ['astro', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) {
    await services?.stop();
    process.exit(build.status ?? 1);
  }
}

const server = await startSiteServer({ root, port, host: process.env.HOST ?? '127.0.0.1' });
console.log(`\n  Lumora AI is running at ${server.url}`);
console.log(`  Database: ${services ? 'embedded PGlite (.data/pgdata)' : 'DATABASE_URL'}; storage: ${process.env.SUPABASE_URL ? 'Supabase' : 'local disk (.data/storage)'}\n`);

stopOnSignal(async () => {
  await server.close();
  await services?.stop();
});
