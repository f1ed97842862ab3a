import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import * as esbuild from 'esbuild';
import { loadEnv } from 'vite';
import { localAdminResponse } from '../../src/editor/admin-page';
import { EDITOR_BUNDLE_PATH, EDITOR_PATH, LOCAL_API_PATH } from '../../src/editor/paths';
import { site } from '../../src/lib/site';
import { refreshContentStoreAfterWrites } from './content-store-refresh';

/**
 * The content editor's plumbing (the /admin page and its sign-in routes live in src/pages/admin/):
 * - its browser bundle (Decap CMS and src/editor/admin.ts) is built by esbuild on its own, outside Astro's
 *   client build, so no module or shared chunk of it can reach a visitor's page; `astro build` writes it to
 *   dist/admin/editor.js, the dev server serves it from memory and rebuilds it when its sources change;
 * - under the dev server only, Decap's file API (decap-server's local file system backend) reads and writes
 *   this checkout, for loopback clients. A build never contains it: a deployed editor writes through GitHub.
 */

type Mode = 'production' | 'development';

export function editorBundleOptions(root: string, mode: Mode): esbuild.BuildOptions {
  // The PUBLIC_* variables the pages are built with, so links and settings validate as the build sees them.
  const publicEnv = loadEnv(mode, root, 'PUBLIC_');
  const dev = mode === 'development';
  return {
    entryPoints: [path.join(root, 'src/editor/admin.ts')],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify: !dev,
    // Linked, not inline: the browser fetches the map only when DevTools asks for it, so every /admin load under
    // the dev server parses 19 MB of script instead of 61 MB.
    sourcemap: dev ? 'linked' : false,
    define: {
      'process.env.NODE_ENV': JSON.stringify(mode),
      global: 'globalThis',
      'import.meta.env': JSON.stringify({ ...publicEnv, MODE: mode, DEV: dev, PROD: !dev }),
    },
    logLevel: 'silent',
  };
}

/** Writes the editor's bundle for a build (`dist/admin/editor.js`). */
export async function buildEditorBundle(root: string, outDir: string): Promise<void> {
  await esbuild.build({ ...editorBundleOptions(root, 'production'), outfile: path.join(outDir, EDITOR_BUNDLE_PATH) });
}

type Next = (error?: unknown) => void;
type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/**
 * The dev server's copy of the bundle and its source map (at the bundle's path + `.map`): built on first request,
 * rebuilt by esbuild's watcher on every change of its sources (schemas included), disposed with the server.
 * A request that finds the latest build failed builds again before answering: a rebuild the watcher started while
 * a source was half written fails, and the author's reload (or the next request) should not keep that failure.
 */
function bundleMiddleware(root: string, server: { httpServer: { once(event: 'close', listener: () => void): unknown } | null }): Middleware {
  let latest: Promise<esbuild.BuildResult> | undefined;
  let context: esbuild.BuildContext | undefined;
  let retrying: Promise<esbuild.BuildResult> | undefined;
  const failed = (error: Error) => ({ errors: [{ text: error.message }] }) as esbuild.BuildResult;
  /** The latest build, built again first when it failed (one retry at a time, shared by the requests waiting). */
  const current = async (): Promise<esbuild.BuildResult> => {
    const result = await (latest ?? start());
    if (!result.errors.length || !context) return result;
    retrying ??= context.rebuild().catch(failed).finally(() => (retrying = undefined));
    return retrying;
  };
  const start = () => {
    let first: ((result: esbuild.BuildResult) => void) | undefined;
    latest = new Promise((resolve) => (first = resolve));
    const keepLatest: esbuild.Plugin = {
      name: 'keep-latest',
      setup: (build) => {
        build.onEnd((result) => {
          first?.(result);
          latest = Promise.resolve(result);
        });
      },
    };
    const options = { ...editorBundleOptions(root, 'development'), outfile: path.join(root, EDITOR_BUNDLE_PATH), write: false, plugins: [keepLatest] };
    esbuild
      .context(options)
      .then(async (built) => {
        context = built;
        server.httpServer?.once('close', () => void built.dispose());
        await built.watch();
      })
      .catch((error: Error) => first?.(failed(error)));
    return latest;
  };
  return (req, res, next) => {
    // Mounted at the bundle's path, which also matches its `.map` (Connect passes the rest on as req.url).
    const map = req.url === '/.map';
    if (!map && req.url !== '/' && !req.url?.startsWith('/?')) return next();
    current().then((result) => {
      const failure = result.errors.map((e) => `${e.location?.file ?? ''}:${e.location?.line ?? ''} ${e.text}`).join('\n');
      res.setHeader('content-type', map ? 'application/json; charset=utf-8' : 'text/javascript; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      if (failure) res.statusCode = 500;
      const file = result.outputFiles?.find((f) => f.path.endsWith(map ? '.js.map' : '.js'));
      res.end(failure ? `throw new Error(${JSON.stringify(`The editor bundle did not build:\n${failure}`)});` : file!.contents);
    }, next);
  };
}

type DecapServer = typeof import('decap-server/dist/middlewares.js').default;

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * /admin and Decap's file API on this checkout; the API answers loopback clients only (a dev server opened to the
 * network stays read-only).
 */
async function localEditorMiddleware(root: string): Promise<Middleware> {
  // Plain Node requires (both are CommonJS, decap-server without an exports map), loaded only by the dev server.
  const require = createRequire(import.meta.url);
  const express = require('express') as typeof import('express');
  const decapServer = require('decap-server/dist/middlewares.js') as DecapServer;
  process.env.GIT_REPO_DIRECTORY = root;
  const app = express();
  await decapServer.registerLocalFs(app, { logLevel: 'warn' });
  // An Express app is a Connect middleware, as Vite's server takes them.
  const api = app as unknown as Middleware;
  const apiPath = LOCAL_API_PATH.slice(EDITOR_PATH.length);
  return (req, res, next) => {
    const url = new URL(req.url ?? '/', `http://${req.headers.host ?? 'localhost'}`);
    if (url.pathname === '/' && req.method === 'GET') return void sendPage(req, res);
    if (!url.pathname.startsWith(apiPath)) return next();
    if (!LOOPBACK.has(req.socket.remoteAddress ?? '')) {
      res.statusCode = 403;
      res.end('The content editor writes files for this computer only.');
      return;
    }
    api(req, res, next);
  };
}

/** /admin under the dev server: the editor on this checkout's files, through the API above. */
async function sendPage(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const answer = localAdminResponse({ origin: `http://${req.headers.host ?? 'localhost'}`, brand: site.brand });
  res.statusCode = answer.status;
  answer.headers.forEach((value, name) => res.setHeader(name, value));
  res.end(await answer.text());
}

export function contentEditor(): AstroIntegration {
  let root = process.cwd();
  let command = '';
  return {
    name: 'lumora:content-editor',
    hooks: {
      'astro:config:setup': ({ config, command: running, updateConfig }) => {
        root = fileURLToPath(config.root);
        command = running;
        // The editor's routes make the build a server build, which would add Astro's on-demand image endpoint
        // (sharp, public image resizing) to the server function; this site's images are all built ahead.
        if (running === 'build') updateConfig({ image: { endpoint: { entrypoint: path.join(root, 'src/editor/image-endpoint.ts') } } });
      },
      'astro:server:setup': async ({ server }) => {
        // A build starts servers of its own too; the editor's dev routes belong to `astro dev` only.
        if (command !== 'dev') return;
        server.middlewares.use(EDITOR_BUNDLE_PATH, bundleMiddleware(root, server));
        server.middlewares.use(EDITOR_PATH, await localEditorMiddleware(root));
        // A save must reach the pages every time, not only when no page was rendering at that moment.
        refreshContentStoreAfterWrites(server, root);
      },
      'astro:build:done': ({ dir }) => buildEditorBundle(root, fileURLToPath(dir)),
    },
  };
}
