import http from 'node:http';
import { NetlifyDev } from '@netlify/dev';
import { startFunctions, type LocalFunctions } from './functions';
import { readRequest } from './node-request';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the built site (`dist/`) and `netlify/functions` on one port. Function paths go to the functions'
 * warm instances (`./functions`: built once, run by Netlify's own function runtime); everything else runs
 * through Netlify's local emulation (@netlify/dev): static files, headers (netlify.toml and the generated
 * dist/_headers) and redirects, exactly as deployed. Added here: the 404 answer for paths Netlify's chain leaves unhandled.
 */
/**
 * Copies a fetch body to the Node response. When the browser goes away mid-answer the rest is read and
 * dropped rather than cancelled: cancelling an undici body while its socket finishes makes undici close
 * the stream twice and throw "Invalid state: ReadableStream is already closed" from a microtask — an
 * uncaught exception that takes the whole local server down.
 */
async function relay(body: ReadableStream<Uint8Array>, res: http.ServerResponse): Promise<void> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) continue;
      if (!res.write(value)) await drainedOrClosed(res);
    }
  } catch {
    // The function's stream failed; the browser sees a cut answer, as it would on Netlify.
  } finally {
    if (!res.destroyed) res.end();
  }
}

/**
 * Resolves when `res` can take more data or has closed. Both listeners go when either fires: a long answer (a video
 * streamed to the player) waits many times, and a listener left behind each time piled up on the response.
 */
function drainedOrClosed(res: http.ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** The same undici race can also start inside Netlify's static chain; it is harmless, so it must not end the process. */
function isClosedStreamRace(err: unknown): boolean {
  return err instanceof TypeError && /ReadableStream is already closed/.test(err.message) && /undici/.test(err.stack ?? '');
}
let guardInstalled = false;
function guardAgainstClosedStreamRace(): void {
  if (guardInstalled) return;
  guardInstalled = true;
  process.on('uncaughtException', (err) => {
    if (isClosedStreamRace(err)) {
      console.warn('[site server] ignored undici double close of a cancelled response body');
      return;
    }
    // Not ours to swallow: behave as Node would without this listener (unless someone else handles it).
    if (process.listenerCount('uncaughtException') === 1) {
      console.error(err);
      process.exit(1);
    }
  });
}

/**
 * Netlify's local emulation as this project uses it: static files, headers and redirects from netlify.toml,
 * and nothing that needs a Netlify account or network (blobs, database, AI gateway, env sync, geolocation).
 */
export function netlifyDevOptions(root: string, { functions }: { functions: boolean }): ConstructorParameters<typeof NetlifyDev>[0] {
  return {
    projectRoot: root,
    // The site server is the only HTTP server: nothing to proxy to.
    serverAddress: null,
    functions: { enabled: functions },
    blobs: { enabled: false },
    database: { enabled: false },
    edgeFunctions: { enabled: false },
    aiGateway: { enabled: false },
    environmentVariables: { enabled: false },
    geolocation: { enabled: false },
    images: { enabled: false },
  };
}

export interface SiteServerOptions {
  root: string;
  port?: number;
  host?: string;
  /** Other functions folder and build folder (tests). */
  functionsDir?: string;
  functionsOutDir?: string;
  /** Folder whose netlify.toml and publish folder are served, when not `root` (tests serving another build). */
  siteRoot?: string;
  /** A synchronous function's time limit (default Netlify's 60 s; tests shorten it). */
  functionTimeoutMs?: number;
}

/** How often `npm start` runs a scheduled function whose cron it cannot read as a plain interval. */
const DEFAULT_SCHEDULE_MS = 5 * 60_000;

/**
 * A scheduled function's cron as the interval `npm start` runs it on: every minute (`* * * * *`), every N minutes
 * (a minute field of the form "star slash N", the rest `*`), hourly (`0 * * * *`, `@hourly`); anything else every
 * 5 minutes. Netlify runs the cron itself.
 */
export function scheduleIntervalMs(cron: string): number {
  const expr = cron.trim();
  if (expr === '@hourly') return 60 * 60_000;
  const [minute = '', ...rest] = expr.split(/\s+/);
  if (rest.length !== 4 || rest.some((field) => field !== '*')) return DEFAULT_SCHEDULE_MS;
  if (minute === '*') return 60_000;
  if (minute === '0') return 60 * 60_000;
  const every = Number(/^\*\/(\d+)$/.exec(minute)?.[1]);
  return every > 0 ? every * 60_000 : DEFAULT_SCHEDULE_MS;
}

export async function startSiteServer(opts: SiteServerOptions): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const functions = await startFunctions({ root: opts.root, functionsDir: opts.functionsDir, outDir: opts.functionsOutDir, syncTimeoutMs: opts.functionTimeoutMs });
  // Functions are served by `functions` above; the emulator would bundle them again on every request.
  const netlify = new NetlifyDev(netlifyDevOptions(opts.siteRoot ?? opts.root, { functions: false }));
  await netlify.start();
  guardAgainstClosedStreamRace();

  const staticAnswer = async (req: http.IncomingMessage): Promise<Response> => {
    const result = await netlify.handleAndIntrospectNodeRequest(req);
    if (result?.response) return result.response;
    // Unknown path: Netlify answers with the site's 404.html and status 404. Fetching it through the
    // same chain keeps the security headers of dist/_headers on the answer.
    const page = await netlify.handle(new Request(new URL('/404.html', `http://${host}`)));
    return new Response(page ? page.body : 'Page Not Found', {
      status: 404,
      headers: page?.headers ?? { 'content-type': 'text/plain; charset=utf-8' },
    });
  };

  const server = http.createServer(async (req, res) => {
    try {
      const origin = `http://${req.headers.host ?? host}`;
      const handled = await answerFromFunction(functions, req, res, origin, async (url) => (await netlify.handle(new Request(url)))?.ok === true);
      if (!handled) await writeResponse(await staticAnswer(req), req, res);
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.statusCode = 500;
      res.end('Internal Server Error');
    }
  });
  // Time allowed to *receive* a request (a 15 MB upload on a slow line fits; a client that trickles bytes
  // does not hold a socket for ever). Answers are not limited by it: video jobs and streamed chat run on.
  server.headersTimeout = 30_000;
  server.requestTimeout = 300_000;

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  // Functions start on their first call, after this: they see the deploy's address as on Netlify, where
  // the video job's background trigger is sent (never to a request's Host header).
  process.env.DEPLOY_URL = `http://${host}:${port}`;
  // Scheduled functions (in-source `config.schedule`) run here on the interval their cron names (the outbox every
  // minute, the maintenance every 5); Netlify runs them on their cron.
  const scheduled = functions.list.filter((f) => f.schedule).map((fn) => {
    const timer = setInterval(() => {
      void functions.invoke({ fn }, new Request(`http://${host}:${port}/.netlify/functions/${fn.name}`, { method: 'POST' }), host)
        .then((res) => res.arrayBuffer())
        .catch((error: unknown) => console.error(`[functions] scheduled ${fn.name} failed:`, error));
    }, scheduleIntervalMs(fn.schedule!));
    timer.unref();
    return timer;
  });
  return {
    url: `http://${host}:${port}`,
    port,
    async close() {
      for (const timer of scheduled) clearInterval(timer);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await functions.close();
      await netlify.stop();
    },
  };
}

/** The visitor's address as the socket saw it (IPv4 without the IPv6-mapped prefix); never a header. */
function clientAddress(req: http.IncomingMessage): string {
  return (req.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
}

export async function writeResponse(response: Response, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  res.statusCode = response.status;
  response.headers.forEach((value, key) => res.setHeader(key, value));
  if (response.body && req.method !== 'HEAD') await relay(response.body, res);
  else res.end();
}

/**
 * Answers the request from the function that owns its path (the site server and `npm run dev` alike);
 * false when no function does. `isStatic` serves a `preferStatic` route's static file instead.
 */
export async function answerFromFunction(
  functions: LocalFunctions,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  origin: string,
  isStatic: (url: URL) => Promise<boolean> = async () => false,
): Promise<boolean> {
  const url = new URL(req.url ?? '/', origin);
  const match = functions.match(url.pathname, req.method ?? 'GET');
  if (!match || (match.route?.prefer_static && (await isStatic(url)))) return false;
  const request = await readRequest(req, origin);
  await writeResponse(request instanceof Response ? request : await functions.invoke(match, request, clientAddress(req)), req, res);
  return true;
}
