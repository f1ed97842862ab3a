import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for an OpenAI-compatible chat service, speaking OpenRouter's protocol as it is now, so
 * the chat proxy can be tested without a key or the internet. It records every request it receives.
 *
 * - `GET /api/v1/models`: the catalogue (default: `fixtures/openrouter-models.json`, a trimmed copy of
 *   OpenRouter's answer: `id`, `name`, `pricing` strings, `context_length`, `architecture.input_modalities`,
 *   `top_provider.max_completion_tokens`). `setCatalogue()` changes it; a status makes it fail.
 * - `POST /api/v1/chat/completions`: a model the catalogue does not list answers OpenRouter's
 *   `400 {"error":{"message":"<id> is not a valid model ID","code":400}}`; otherwise the scenario: SSE with
 *   `: OPENROUTER PROCESSING` comments, content and `reasoning` deltas, a `finish_reason` chunk, then a last
 *   chunk with `usage` (tokens and `cost` in dollars), then `data: [DONE]`.
 * - `flavour: 'ollama'`: a keyless local server instead (Ollama's `/v1`): a bare `/models` list
 *   (`{object:"list",data:[{id,object,created,owned_by}]}`), no comments, usage without cost.
 *
 * Control it in-process (`fake.setScenario(...)`, `fake.requests`, `fake.release()`) or, from another
 * process such as an e2e test, over HTTP:
 *   POST /__fake/scenario  body: Scenario JSON      GET  /__fake/requests  -> RecordedRequest[]
 *   POST /__fake/catalogue body: CatalogueSetting   POST /__fake/release   (lets a held stream go)
 *   POST /__fake/reset     (default scenario and catalogue, no requests)
 */
export type Scenario =
  /**
   * Streams `chunks` as content deltas (after `reasoning` deltas, if any), then the finish chunk
   * (`finish`, default "stop") and the usage chunk (`cost` in dollars, default from the catalogue's prices).
   * `hold`: wait for release() before the first delta.
   */
  | { kind: 'stream'; chunks?: string[]; reasoning?: string[]; hold?: boolean; comments?: boolean; finish?: 'stop' | 'length'; cost?: number; delayMs?: number }
  /** Answers `status` with OpenRouter's error body before any streaming (headers: e.g. Retry-After). */
  | { kind: 'error'; status: number; message: string; headers?: Record<string, string>; metadata?: Record<string, unknown> }
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

export interface CatalogueModel {
  id: string;
  name?: string;
  created?: number;
  context_length?: number;
  pricing?: Record<string, string>;
  architecture?: { input_modalities?: string[]; [key: string]: unknown };
  top_provider?: { max_completion_tokens?: number | null; [key: string]: unknown };
  [key: string]: unknown;
}

/** The catalogue answer: a list of models, or a failure (`status`). */
export type CatalogueSetting = { models: CatalogueModel[] } | { status: number };

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
  /** Chat completion requests. */
  requests: RecordedRequest[];
  /** GET /models requests. */
  catalogueRequests: RecordedRequest[];
  /** Streaming responses whose connection is still open (0 once the proxy let go of them all). */
  openStreams(): number;
  setScenario(scenario: Scenario): void;
  setCatalogue(setting: CatalogueSetting): void;
  release(): void;
  reset(): void;
  close(): Promise<void>;
}

export const DEFAULT_CHUNKS = ['Hello', ' from', ' the', ' **fake**', ' model', '.'];

/** The trimmed copy of OpenRouter's GET /api/v1/models answer. */
export const OPENROUTER_MODELS: CatalogueModel[] = (
  JSON.parse(readFileSync(new URL('./fixtures/openrouter-models.json', import.meta.url), 'utf8')) as { data: CatalogueModel[] }
).data;

/** The catalogue without the listed ids. */
export const catalogueWithout = (ids: readonly string[]): CatalogueModel[] => OPENROUTER_MODELS.filter((m) => !ids.includes(m.id));

/**
 * Twelve of the hub's nineteen picks, for a catalogue that no longer serves them (as happened to the
 * previous list: 12 of its 19 ids were gone from OpenRouter's catalogue by mid-2026).
 */
export const TWELVE_GONE = [
  'anthropic/claude-opus-4.5',
  'anthropic/claude-sonnet-4.5',
  'openai/gpt-5',
  'openai/gpt-5-mini',
  'google/gemini-2.5-pro',
  'meta-llama/llama-4-maverick',
  'meta-llama/llama-3.3-70b-instruct:free',
  'mistralai/mistral-medium-3.1',
  'deepseek/deepseek-chat-v3.1',
  'deepseek/deepseek-r1-0528:free',
  'qwen/qwen3-235b-a22b:free',
  'mistralai/mistral-small-3.2-24b-instruct:free',
] as const;

/** OpenRouter's error bodies, as it answers them. */
export const OPENROUTER_ERRORS = {
  unauthorized: { kind: 'error', status: 401, message: 'No auth credentials found' },
  noCredit: {
    kind: 'error',
    status: 402,
    message: 'This request requires more credits, or fewer max_tokens. You requested up to 2048 tokens, but can only afford 113.',
  },
  rateLimited: (retryAfter: number) =>
    ({ kind: 'error', status: 429, message: 'Rate limit exceeded: free-models-per-min.', headers: { 'retry-after': String(retryAfter) } }) as const,
  moderated: { kind: 'error', status: 403, message: 'Your chosen model requires moderation and your input was flagged', metadata: { reasons: ['harassment'] } },
} as const satisfies Record<string, Scenario | ((n: number) => Scenario)>;

export interface FakeOptions {
  flavour?: 'openrouter' | 'ollama';
  /** When set, chat and catalogue requests must carry `Authorization: Bearer <key>` (else 401). */
  requireKey?: string;
}

export async function startFakeOpenAI(options: FakeOptions = {}): Promise<FakeOpenAI> {
  const ollama = options.flavour === 'ollama';
  const defaultCatalogue = (): CatalogueSetting => ({
    models: ollama
      ? [
          { id: 'llama3.2:3b', created: 1730000000 },
          { id: 'qwen2.5:7b-instruct', created: 1731000000 },
        ]
      : OPENROUTER_MODELS,
  });
  let scenario: Scenario = { kind: 'stream' };
  let catalogue: CatalogueSetting = defaultCatalogue();
  const requests: RecordedRequest[] = [];
  const catalogueRequests: RecordedRequest[] = [];
  let releaseHeld: (() => void)[] = [];
  const open = new Set<http.ServerResponse>();
  const prefix = ollama ? '/v1' : '/api/v1';

  const server = http.createServer(async (req, res) => {
    const raw = await readBody(req);
    const path = (req.url ?? '/').split('?')[0]!;

    if (path.startsWith('/__fake/')) return control(path, raw, res);
    const authorized = !options.requireKey || req.headers.authorization === `Bearer ${options.requireKey}`;
    if (req.method === 'GET' && path === `${prefix}/models`) {
      catalogueRequests.push({ method: 'GET', path, headers: flatten(req.headers), body: null });
      if (!authorized) return sendError(res, 401, 'No auth credentials found');
      if ('status' in catalogue) return sendError(res, catalogue.status, 'Service unavailable');
      return sendJson(res, 200, ollama ? { object: 'list', data: catalogue.models.map((m) => ({ id: m.id, object: 'model', created: m.created ?? 0, owned_by: 'library' })) } : { data: catalogue.models });
    }
    if (req.method !== 'POST' || path !== `${prefix}/chat/completions`) {
      return sendJson(res, 404, { error: { code: 404, message: `No route ${req.method} ${path}` } });
    }

    let body: any = null;
    try {
      body = JSON.parse(raw);
    } catch {
      // recorded as null
    }
    requests.push({ method: req.method, path, headers: flatten(req.headers), body });
    if (!authorized) return sendError(res, 401, 'No auth credentials found');
    const listed = 'models' in catalogue ? catalogue.models.find((m) => m.id === body?.model) : undefined;
    if ('models' in catalogue && !listed) {
      return ollama
        ? sendJson(res, 404, { error: { message: `model "${body?.model}" not found, try pulling it first`, type: 'api_error', param: null, code: null } })
        : sendError(res, 400, `${body?.model} is not a valid model ID`);
    }
    await respond(scenario, res, body, listed);
  });

  function control(path: string, raw: string, res: http.ServerResponse) {
    if (path === '/__fake/requests') return sendJson(res, 200, requests);
    if (path === '/__fake/scenario') {
      scenario = JSON.parse(raw) as Scenario;
      return sendJson(res, 200, { ok: true });
    }
    if (path === '/__fake/catalogue') {
      catalogue = JSON.parse(raw) as CatalogueSetting;
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

  function usageFor(body: any, model: CatalogueModel | undefined, completionTokens: number, cost: number | undefined) {
    const promptTokens = Math.ceil(JSON.stringify(body?.messages ?? []).length / 4);
    if (ollama) return { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };
    const price = (key: string) => Number(model?.pricing?.[key] ?? 0);
    const computed = promptTokens * price('prompt') + completionTokens * price('completion');
    return {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
      cost: cost ?? Number(computed.toFixed(8)),
      is_byok: false,
      prompt_tokens_details: { cached_tokens: 0 },
      cost_details: { upstream_inference_cost: null },
      completion_tokens_details: { reasoning_tokens: 0 },
    };
  }

  async function respond(s: Scenario, res: http.ServerResponse, body: any, model: CatalogueModel | undefined) {
    const modelId = String(body?.model ?? '');
    if (s.kind === 'error') {
      return sendError(res, s.status, s.message, s.headers, s.metadata);
    }
    if (s.kind === 'json') {
      return sendJson(res, 200, {
        id: 'gen-json',
        object: 'chat.completion',
        model: modelId,
        choices: [{ index: 0, message: { role: 'assistant', content: s.content }, finish_reason: 'stop' }],
        usage: usageFor(body, model, 3, undefined),
      });
    }
    open.add(res);
    res.on('close', () => open.delete(res));
    if (s.kind === 'no-headers') return;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive', 'x-generation-id': `gen-${requests.length}` });
    res.flushHeaders();
    const chunks = s.chunks ?? DEFAULT_CHUNKS;

    if (!ollama && s.kind === 'stream' && s.comments !== false) res.write(': OPENROUTER PROCESSING\n\n');
    if (s.kind === 'stream' && s.hold) await new Promise<void>((resolve) => releaseHeld.push(resolve));
    if (res.destroyed) return;

    const id = `gen-${requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    const chunk = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      event({ id, provider: ollama ? undefined : 'StandIn', model: modelId, object: 'chat.completion.chunk', created, choices: [{ index: 0, logprobs: null, ...choice }], ...extra });
    res.write(chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null }));
    const pause = () => new Promise((resolve) => (s.kind === 'stream' && s.delayMs ? setTimeout(resolve, s.delayMs) : setImmediate(resolve)));
    if (s.kind === 'stream') {
      for (const reasoning of s.reasoning ?? []) {
        res.write(chunk({ delta: { role: 'assistant', content: '', reasoning }, finish_reason: null }));
        await pause();
      }
    }
    for (const content of chunks) {
      if (res.destroyed) return;
      res.write(chunk({ delta: { role: 'assistant', content }, finish_reason: null }));
      // Separate network writes so the proxy really relays chunk by chunk.
      await pause();
    }
    if (res.destroyed) return;

    if (s.kind === 'stream') {
      const finish = s.finish ?? 'stop';
      res.write(chunk({ delta: { role: 'assistant', content: '' }, finish_reason: finish, native_finish_reason: finish === 'length' ? 'max_tokens' : 'end_turn' }));
      // OpenRouter sends usage (tokens and cost) in the last chunk, after the finish_reason one.
      res.write(event({ id, model: modelId, object: 'chat.completion.chunk', created, choices: [], usage: usageFor(body, model, chunks.length, s.cost) }));
      res.end('data: [DONE]\n\n');
    } else if (s.kind === 'midstream-error') {
      res.end(
        chunk({ delta: { content: '' }, finish_reason: 'error' }, { error: { code: 'server_error', message: s.message } }),
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
    catalogue = defaultCatalogue();
    requests.length = 0;
    catalogueRequests.length = 0;
    release();
  }

  // Hosted APIs keep idle connections open for a minute or more; Node's 5 s default would close the socket the
  // proxy's catalogue request left in its pool while a large chat body is still being validated (a reset POST).
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;

  return {
    url,
    baseUrl: `${url}${prefix}`,
    requests,
    catalogueRequests,
    openStreams: () => open.size,
    setScenario(next) {
      scenario = next;
    },
    setCatalogue(next) {
      catalogue = next;
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

function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

/** OpenRouter's error body: `{ error: { code, message, metadata? }, user_id }`, the HTTP status equal to `code`. */
function sendError(res: http.ServerResponse, status: number, message: string, headers: Record<string, string> = {}, metadata?: Record<string, unknown>) {
  sendJson(res, status, { error: { message, code: status, ...(metadata ? { metadata } : {}) }, user_id: 'user_standin' }, headers);
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
    setCatalogue: (setting: CatalogueSetting) => post('/__fake/catalogue', setting),
    release: () => post('/__fake/release'),
    reset: () => post('/__fake/reset'),
    requests: async (): Promise<RecordedRequest[]> => (await fetch(`${url}/__fake/requests`)).json(),
  };
}
