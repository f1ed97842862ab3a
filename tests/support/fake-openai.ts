import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible chat-completions service (OpenRouter's wire format), so the
 * chat proxy can be tested without a key or the internet. It records every request it receives.
 *
 * Control it in-process (`fake.setScenario(...)`, `fake.requests`, `fake.release()`) or, from another
 * process such as an e2e test, over HTTP:
 *   POST /__fake/scenario  body: Scenario JSON      GET  /__fake/requests  -> RecordedRequest[]
 *   POST /__fake/release   (lets a held stream go)  POST /__fake/reset     (default scenario, no requests)
 */
export type Scenario =
  /** Streams `chunks` as content deltas, then [DONE]. `hold`: wait for release() before the first one. */
  | { kind: 'stream'; chunks?: string[]; hold?: boolean; comments?: boolean }
  /** Answers `status` with `{ error: { code, message } }` before any streaming. */
  | { kind: 'error'; status: number; message: string }
  /** Starts streaming, then sends an OpenRouter mid-stream error event. */
  | { kind: 'midstream-error'; chunks?: string[]; message: string }
  /** Streams `chunks`, then destroys the connection without [DONE]. */
  | { kind: 'drop'; chunks?: string[] }
  /** Streams `chunks`, then goes silent with the connection open (idle timeout, Stop). */
  | { kind: 'stall'; chunks?: string[] }
  /** Ignores `stream: true` and answers with one JSON completion. */
  | { kind: 'json'; content: string }
  /** Never sends response headers (first-byte timeout). */
  | { kind: 'no-headers' };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: any;
}

export interface FakeOpenAI {
  url: string;
  /** Base URL to use as CHAT_API_BASE_URL. */
  baseUrl: string;
  requests: RecordedRequest[];
  /** Streaming responses whose connection is still open (0 once the proxy let go of them all). */
  openStreams(): number;
  setScenario(scenario: Scenario): void;
  release(): void;
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_CHUNKS = ['Hello', ' from', ' the', ' **fake**', ' model', '.'];

export async function startFakeOpenAI(): Promise<FakeOpenAI> {
  let scenario: Scenario = { kind: 'stream' };
  const requests: RecordedRequest[] = [];
  let releaseHeld: (() => void)[] = [];
  const open = new Set<http.ServerResponse>();

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;

    if (path.startsWith('/__fake/')) return control(path, raw, res);
    if (req.method !== 'POST' || !path.endsWith('/chat/completions')) {
      return sendJson(res, 404, { error: { code: 404, message: `No route ${req.method} ${path}` } });
    }

    let body: any = null;
    try {
      body = JSON.parse(raw);
    } catch {
      // recorded as null
    }
    requests.push({ method: req.method, path, headers: flatten(req.headers), body });
    await respond(scenario, res);
  });

  function control(path: string, raw: string, res: http.ServerResponse) {
    if (path === '/__fake/requests') return sendJson(res, 200, requests);
    if (path === '/__fake/scenario') {
      scenario = JSON.parse(raw) as Scenario;
      return sendJson(res, 200, { ok: true });
    }
    if (path === '/__fake/release') {
      release();
      return sendJson(res, 200, { ok: true });
    }
    if (path === '/__fake/reset') {
      reset();
      return sendJson(res, 200, { ok: true });
    }
    return sendJson(res, 404, { error: { message: 'unknown control path' } });
  }

  async function respond(s: Scenario, res: http.ServerResponse) {
    if (s.kind === 'error') return sendJson(res, s.status, { error: { code: s.status, message: s.message } });
    if (s.kind === 'json') {
      return sendJson(res, 200, {
        id: 'gen-json',
        object: 'chat.completion',
        choices: [{ index: 0, message: { role: 'assistant', content: s.content }, finish_reason: 'stop' }],
      });
    }
    open.add(res);
    res.on('close', () => open.delete(res));
    if (s.kind === 'no-headers') return;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.flushHeaders();
    const chunks = s.chunks ?? DEFAULT_CHUNKS;

    if (s.kind === 'stream' && s.comments !== false) res.write(': OPENROUTER PROCESSING\n\n');
    if (s.kind === 'stream' && s.hold) await new Promise<void>((resolve) => releaseHeld.push(resolve));
    if (res.destroyed) return;

    const id = `gen-${requests.length}`;
    res.write(event({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { role: 'assistant', content: '' } }] }));
    for (const content of chunks) {
      res.write(event({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] }));
      // Separate network writes so the proxy really relays chunk by chunk.
      await new Promise((resolve) => setImmediate(resolve));
    }

    if (s.kind === 'stream') {
      res.write(event({ id, object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }));
      res.end('data: [DONE]\n\n');
    } else if (s.kind === 'midstream-error') {
      res.end(
        event({
          id,
          object: 'chat.completion.chunk',
          error: { code: 'server_error', message: s.message },
          choices: [{ index: 0, delta: { content: '' }, finish_reason: 'error' }],
        }),
      );
    } else if (s.kind === 'drop') {
      res.socket?.destroy();
    }
    // 'stall': leave it open until the client goes away or close().
  }

  function release() {
    const waiting = releaseHeld;
    releaseHeld = [];
    for (const resolve of waiting) resolve();
  }

  function reset() {
    scenario = { kind: 'stream' };
    requests.length = 0;
    release();
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}/api/v1`,
    requests,
    openStreams: () => open.size,
    setScenario(next) {
      scenario = next;
    },
    release,
    reset,
    async close() {
      release();
      for (const res of open) res.destroy();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

function event(value: unknown): string {
  return `data: ${JSON.stringify(value)}\n\n`;
}

function sendJson(res: http.ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function flatten(headers: http.IncomingHttpHeaders): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]));
}

/** Controls a fake running in another process (e2e: the app server and the test share it). */
export function fakeClient(url: string) {
  const post = (path: string, body?: unknown) =>
    fetch(`${url}${path}`, { method: 'POST', body: body === undefined ? undefined : JSON.stringify(body) }).then((r) => r.json());
  return {
    setScenario: (scenario: Scenario) => post('/__fake/scenario', scenario),
    release: () => post('/__fake/release'),
    reset: () => post('/__fake/reset'),
    requests: async (): Promise<RecordedRequest[]> => (await fetch(`${url}/__fake/requests`)).json(),
  };
}
