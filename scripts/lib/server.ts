import http from 'node:http';
import { NetlifyDev } from '@netlify/dev';
import { binaryBodyRequest } from '../embedded/binary-bodies';

export interface RunningServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Serves the built site (`dist/`) and `netlify/functions` on one port through Netlify's own local
 * emulation (@netlify/dev): routing, headers and redirects come from netlify.toml, exactly as deployed.
 * The only thing added here is the 404 answer for paths Netlify's chain leaves unhandled.
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
      if (!res.write(value)) await new Promise<void>((resolve) => { res.once('drain', resolve); res.once('close', resolve); });
    }
  } catch {
    // The function's stream failed; the browser sees a cut answer, as it would on Netlify.
  } finally {
    if (!res.destroyed) res.end();
  }
}

/** The same undici race can also start inside the emulator; it is harmless, so it must not end the process. */
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

export async function startSiteServer(opts: { root: string; port?: number; host?: string }): Promise<RunningServer> {
  const host = opts.host ?? '127.0.0.1';
  const netlify = new NetlifyDev({
    projectRoot: opts.root,
    // The server below is the only HTTP server: nothing to proxy to.
    serverAddress: null,
    blobs: { enabled: false },
    database: { enabled: false },
    edgeFunctions: { enabled: false },
    aiGateway: { enabled: false },
    environmentVariables: { enabled: false },
    geolocation: { enabled: false },
    images: { enabled: false },
  });
  await netlify.start();
  guardAgainstClosedStreamRace();

  const server = http.createServer(async (req, res) => {
    try {
      // Binary bodies (image uploads) take a detour around a local-emulator bug; see binary-bodies.ts.
      const fixed = await binaryBodyRequest(req, `http://${host}`);
      const result =
        fixed instanceof Response
          ? { response: fixed }
          : fixed
            ? await netlify.handleAndIntrospect(fixed)
            : await netlify.handleAndIntrospectNodeRequest(req);
      let response = result?.response;
      if (!response) {
        // Unknown path: Netlify answers with the site's 404.html and status 404. Fetching it through the
        // same chain keeps the security headers of netlify.toml on the answer.
        const page = await netlify.handle(new Request(new URL('/404.html', `http://${host}`)));
        response = new Response(page ? page.body : 'Page Not Found', {
          status: 404,
          headers: page?.headers ?? { 'content-type': 'text/plain; charset=utf-8' },
        });
      }
      res.statusCode = response.status;
      response.headers.forEach((value, key) => res.setHeader(key, value));
      if (response.body && req.method !== 'HEAD') {
        await relay(response.body, res);
      } else {
        res.end();
      }
    } catch (error) {
      console.error(error);
      if (!res.headersSent) res.statusCode = 500;
      res.end('Internal Server Error');
    }
  });
  // Long video jobs and streamed chat answers must not be cut by Node's default timeouts.
  server.requestTimeout = 0;

  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://${host}:${port}`,
    port,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await netlify.stop();
    },
  };
}
