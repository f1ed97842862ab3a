import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dev } from 'astro';
import { startEmbeddedServices } from './embedded/services';
import { startFunctions } from './lib/functions';
import { answerFromFunction } from './lib/server';
import { stopOnSignal } from './lib/shutdown';

/**
 * `npm run dev`: Astro's dev server (hot reload for pages, islands and content) with the functions served
 * as `npm start` serves them — built once, kept warm, rebuilt when a function's sources change — and the
 * embedded database and storage unless DATABASE_URL / SUPABASE_* point elsewhere.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// As under `netlify dev`: functions are served here, so @astrojs/netlify's dev plugin stays out of the way
// (it would bundle each function again on every request).
process.env.NETLIFY_DEV = 'true';

const services = process.env.DATABASE_URL
  ? undefined
  : await startEmbeddedServices({ dataDir: path.join(root, '.data') }).catch((error: Error) => {
      console.error(`\n  Could not start the embedded database: ${error.message}\n`);
      process.exit(1);
    });
const functions = await startFunctions({ root, watch: true });

const server = await dev({
  root,
  integrations: [
    {
      name: 'lumora:functions',
      hooks: {
        'astro:server:setup': ({ server: vite }) => {
          vite.middlewares.use((req, res, next) => {
            answerFromFunction(functions, req, res, `http://${req.headers.host ?? 'localhost'}`)
              .then((handled) => !handled && next())
              .catch(next);
          });
        },
      },
    },
  ],
});

stopOnSignal(async () => {
  await server.stop();
  await functions.close();
  await services?.stop();
});
