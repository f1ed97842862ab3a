import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { dev } from 'astro';
import { startEmbeddedServices } from './embedded/embedded-services';
import { startFunctions } from './functions';
import { answerFromFunction } from './server';
import { stopOnSignal } from './shutdown';
import { refuseUnworkableDatabase } from './database-check';

/**
 * `npm run dev`: Astro's dev server (hot reload for pages, islands and content) with the functions served
 * as `npm start` serves them — built once, kept warm, rebuilt when a function's sources change — and the
 * embedded database and storage unless DATABASE_URL / SUPABASE_* point elsewhere. The content editor is at
 * /admin, writing to src/content/ (scripts/platform/content-editor.ts).
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// As under `netlify dev`: functions are served here, so @astrojs/netlify's dev plugin stays out of the way
// (it would bundle each function again on every request).
process.env.NETLIFY_DEV = 'true';

const services = process.env.DATABASE_URL
  ? refuseUnworkableDatabase()
  : await startEmbeddedServices({ dataDir: path.join(root, '.data') }).catch((error: Error) => {
      console.error(`\n  Could not start the embedded database: ${error.message}\n`);
      process.exit(1);
    });
// Built apart from `npm start`'s copy (.netlify/functions-local), so the two can run side by side.
const functions = await startFunctions({ root, watch: true, outDir: path.join(root, '.netlify/functions-dev') });

const server = await dev({
  root,
  // PORT picks the port (as for `npm start`); without it Astro's default, 4321, or the next free one.
  ...(process.env.PORT && { server: { port: Number(process.env.PORT) } }),
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
