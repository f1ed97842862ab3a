import { randomUUID } from 'node:crypto';
import { watch as watchDir, type FSWatcher } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listLocalFunctions, matchFunction, type FunctionMatch, type LocalFunction } from './catalog';
import { bundleFunctions, watchFunctions } from './bundle';
import { FunctionInstance } from './instance';
import { deployBranch } from '../../../src/lib/deploy-context';

export type { FunctionMatch, LocalFunction } from './catalog';

/** Netlify's documented execution limits (docs.netlify.com/build/functions/configuration). */
export const FUNCTION_TIMEOUT_MS = { sync: 60_000, background: 15 * 60_000 } as const;

/**
 * Netlify runs each background invocation in its own instance (a batch of photos fans out); locally a background
 * function gets a bounded pool of warm instances, each call going to the least busy one, so photos of a batch use
 * the machine's cores side by side (BACKGROUND_INSTANCES, default the cores, 2 to 4).
 */
export const BACKGROUND_POOL = Math.max(1, Number(process.env.BACKGROUND_INSTANCES) || Math.min(4, Math.max(2, os.availableParallelism())));

/** Where a local request "comes from" on Netlify's map: a fixed place, as the Netlify CLI reports offline. */
const LOCAL_GEO = { city: 'San Francisco', country: { code: 'US', name: 'United States' }, subdivision: { code: 'CA', name: 'California' }, timezone: 'America/Los_Angeles', latitude: 0, longitude: 0 };

// Hop-by-hop headers, what fetch sets itself, and the runtime's internal timing header.
const REQUEST_HEADERS_DROPPED = ['connection', 'keep-alive', 'transfer-encoding', 'upgrade', 'expect', 'host', 'content-length'];
const RESPONSE_HEADERS_DROPPED = ['connection', 'keep-alive', 'transfer-encoding', 'x-nf-play-timing'];

const base64Json = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64');

export interface LocalFunctions {
  readonly list: readonly LocalFunction[];
  /** The function that owns this path and method, or undefined (then it is a page or a 404). */
  match(pathname: string, method: string): FunctionMatch | undefined;
  /** Runs the matched function on `request` as Netlify would for a visitor at `clientIp`. */
  invoke(match: FunctionMatch, request: Request, clientIp: string): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The project's Netlify functions, built once and kept warm: each request goes straight to the function's
 * running instance (a few milliseconds), where the emulator used to bundle the function again for every
 * call (about 3 s). With `watch` (npm run dev) a changed source rebuilds, and only the functions whose
 * bundle changed restart; adding or removing a function file re-lists them.
 */
export async function startFunctions(opts: { root: string; watch?: boolean; functionsDir?: string; outDir?: string; syncTimeoutMs?: number }): Promise<LocalFunctions> {
  const syncTimeoutMs = opts.syncTimeoutMs ?? FUNCTION_TIMEOUT_MS.sync;
  const functionsDir = opts.functionsDir ?? path.join(opts.root, 'netlify/functions');
  const outDir = opts.outDir ?? path.join(opts.root, '.netlify/functions-local');
  let list: LocalFunction[] = [];
  let instances = new Map<string, FunctionInstance>();
  /** A background function's extra instances and the calls each is running (index 0 is `instances`' own). */
  let pools = new Map<string, { members: FunctionInstance[]; active: number[] }>();
  let stopWatching: (() => Promise<void>) | undefined;
  let dirWatcher: FSWatcher | undefined;

  const load = async () => {
    list = await listLocalFunctions(functionsDir);
    let entries: Map<string, string>;
    if (opts.watch) {
      const watching = await watchFunctions(list, outDir, (changed) => {
        for (const name of changed) for (const member of pools.get(name)?.members ?? [instances.get(name)]) void member?.stop();
        console.log(`[functions] rebuilt: ${changed.join(', ')}`);
      });
      entries = watching.entries;
      stopWatching = watching.stop;
    } else {
      entries = await bundleFunctions(list, outDir);
    }
    instances = new Map(list.map((fn) => [fn.name, new FunctionInstance(fn.name, entries.get(fn.name)!, opts.root)]));
    pools = new Map(list.filter((fn) => fn.background).map((fn) => [fn.name, {
      members: [instances.get(fn.name)!, ...Array.from({ length: BACKGROUND_POOL - 1 }, () => new FunctionInstance(fn.name, entries.get(fn.name)!, opts.root))],
      active: Array.from({ length: BACKGROUND_POOL }, () => 0),
    }]));
  };
  const unload = async () => {
    await stopWatching?.();
    stopWatching = undefined;
    await Promise.all([...instances.values(), ...[...pools.values()].flatMap((p) => p.members.slice(1))].map((i) => i.stop()));
  };

  await load();
  if (opts.watch) {
    // Edits are esbuild's business; here only files becoming or ceasing to be functions matter.
    const signature = (fns: readonly LocalFunction[]) => fns.map((f) => `${f.name}:${f.mainFile}`).sort().join('|');
    let timer: NodeJS.Timeout | undefined;
    let reloading: Promise<void> = Promise.resolve();
    dirWatcher = watchDir(functionsDir, () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        reloading = reloading
          .then(async () => {
            if (signature(await listLocalFunctions(functionsDir)) === signature(list)) return;
            await unload();
            await load();
            console.log(`[functions] re-listed: ${list.map((f) => f.name).join(', ')}`);
          })
          .catch((error: unknown) => console.error('[functions] could not reload:', error));
      }, 150);
    });
  }

  async function forward(match: FunctionMatch, request: Request, clientIp: string): Promise<Response> {
    const { fn, route } = match;
    const url = new URL(request.url);
    const headers = new Headers(request.headers);
    // The platform sets these; a visitor's own copies must never reach the function.
    for (const name of [...headers.keys()]) if (name.startsWith('x-nf-')) headers.delete(name);
    for (const name of REQUEST_HEADERS_DROPPED) headers.delete(name);
    headers.set('x-nf-client-connection-ip', clientIp);
    headers.set('x-forwarded-for', clientIp);
    headers.set('x-forwarded-host', url.host);
    headers.set('x-forwarded-proto', url.protocol.slice(0, -1));
    headers.set('x-nf-request-id', randomUUID().replaceAll('-', '').slice(0, 26).toUpperCase());
    headers.set('x-nf-site-id', 'unlinked');
    headers.set('x-nf-deploy-id', '0');
    // Netlify's deploy context and branch; a local run is `dev` unless CONTEXT says otherwise (a preview rehearsal).
    headers.set('x-nf-deploy-context', process.env.CONTEXT?.trim() || 'dev');
    headers.set('x-nf-branch', deployBranch(process.env) ?? '');
    headers.set('x-nf-geo', base64Json(LOCAL_GEO));
    // The runtime takes the route pattern from here to fill `context.params`.
    headers.set('x-nf-functions-metadata', base64Json({ invocation_metadata: { function_name: fn.name }, routes: route ? [{ pattern: route.pattern }] : [] }));

    const timeoutMs = fn.background ? FUNCTION_TIMEOUT_MS.background : syncTimeoutMs;
    const pool = pools.get(fn.name);
    const slot = pool ? pool.active.indexOf(Math.min(...pool.active)) : -1;
    const instance = pool ? pool.members[slot]! : instances.get(fn.name)!;
    if (pool) pool.active[slot]!++;
    try {
      return await call(instance, timeoutMs, request, url, headers);
    } finally {
      if (pool) pool.active[slot]!--;
    }
  }

  async function call(instance: FunctionInstance, timeoutMs: number, request: Request, url: URL, headers: Headers): Promise<Response> {
    const port = await instance.port();
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
    const answer = await fetch(`http://127.0.0.1:${port}${url.pathname}${url.search}`, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const out = new Headers(answer.headers);
    for (const name of RESPONSE_HEADERS_DROPPED) out.delete(name);
    // fetch hands over a compressed body decoded: its encoding and length no longer apply. Otherwise the
    // length stays, so a browser knows a video's size and can seek in it.
    if (out.has('content-encoding')) {
      out.delete('content-encoding');
      out.delete('content-length');
    }
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers: out });
  }

  const failure = (fn: LocalFunction, error: unknown): Response => {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    console.error(`[functions] ${fn.name}: ${timedOut ? 'timed out' : 'failed'}:`, error);
    // As on Netlify, a function past its time limit is stopped, not left computing: the instance still
    // busy with it is replaced, so the next visitor gets a free one.
    if (timedOut) instances.get(fn.name)?.kill();
    return timedOut
      ? new Response(`Function ${fn.name} timed out after ${syncTimeoutMs / 1000} s`, { status: 504, headers: { 'content-type': 'text/plain; charset=utf-8' } })
      : new Response('Internal Server Error', { status: 500, headers: { 'content-type': 'text/plain; charset=utf-8' } });
  };

  return {
    get list() {
      return list;
    },
    match: (pathname, method) => matchFunction(list, pathname, method),
    async invoke(match, request, clientIp) {
      if (match.fn.background) {
        // Netlify answers a background function's caller at once and runs it on its own.
        const body = request.method === 'GET' || request.method === 'HEAD' ? undefined : await request.arrayBuffer();
        const copy = () => new Request(request.url, { method: request.method, headers: request.headers, body });
        // A connection to the instance reset before any answer (a kept-alive socket it had just closed) is tried once
        // more: the background functions here claim their job first, so a repeat cannot run it twice.
        const reset = (error: unknown) => (error as { cause?: { code?: string } })?.cause?.code === 'ECONNRESET';
        void forward(match, copy(), clientIp)
          .catch((error: unknown) => (reset(error) ? forward(match, copy(), clientIp) : Promise.reject(error)))
          .then(async (res) => {
            await res.arrayBuffer();
            if (res.status >= 400) console.error(`[functions] ${match.fn.name} (background) answered ${res.status}`);
          })
          .catch((error: unknown) => failure(match.fn, error));
        return new Response(null, { status: 202 });
      }
      try {
        return await forward(match, request, clientIp);
      } catch (error) {
        return failure(match.fn, error);
      }
    },
    async close() {
      dirWatcher?.close();
      await unload();
    },
  };
}
