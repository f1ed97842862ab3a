import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Replicate's predictions API, so the hosted engines are tested without a token
 * or the internet. It speaks: create (POST /v1/models/{owner}/{name}/predictions with {input}, or
 * POST /v1/predictions with {version, input}), get (GET /v1/predictions/{id}, walking a scripted list
 * of states, the last one repeating), cancel (POST /v1/predictions/{id}/cancel) and file downloads
 * (GET /files/{name}, no token needed, as on replicate.delivery). Every request is recorded.
 */

/** One answer of GET /v1/predictions/{id}. */
export type PredictionState = { status: string; output?: unknown; error?: unknown; logs?: string };

export type CreateTarget = { owner: string; name: string; version?: undefined } | { version: string; owner?: undefined; name?: undefined };

export type CreateReply =
  /** The prediction is created ("starting"); successive GETs return these states. */
  | { script: PredictionState[] }
  /** An HTTP error with Replicate's problem-details body. */
  | { error: number; detail?: string }
  /** Never answers (a hung connection). */
  | { hang: true };

export type RecordedRequest = { method: string; url: string; auth?: string; body: any };

export type ServedFile = { type: string; body: Buffer };

export class FakeReplicate {
  server!: Server;
  base = '';
  requests: RecordedRequest[] = [];
  /** Downloadable files by name, served at `${base}/files/{name}`. */
  files: Record<string, ServedFile> = {};
  /** Ids of the predictions a client cancelled. */
  canceled: string[] = [];
  private scripts: Record<string, PredictionState[]> = {};
  private hung = new Set<ServerResponse>();

  /** `onCreate` decides what each create request gets; `token` is the one Bearer token accepted. */
  constructor(
    private readonly onCreate: (target: CreateTarget, body: any) => CreateReply,
    readonly token = 'test-token',
  ) {}

  fileUrl(name: string): string {
    return `${this.base}/files/${name}`;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  stop(): Promise<void> {
    for (const res of this.hung) res.destroy();
    this.server.closeAllConnections();
    return new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const url = req.url ?? '';
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : null;
    } catch {
      body = raw;
    }
    this.requests.push({ method: req.method ?? '', url, auth: req.headers.authorization, body });
    const json = (status: number, data: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(data));
    };
    const problem = (status: number, detail: string) => json(status, { title: detail, detail, status });

    const file = /^\/files\/([\w.-]+)$/.exec(url);
    if (req.method === 'GET' && file) {
      const served = this.files[file[1]];
      if (!served) return problem(404, 'Not found');
      res.writeHead(200, { 'Content-Type': served.type });
      return res.end(served.body);
    }
    if (req.headers.authorization !== `Bearer ${this.token}`) {
      return problem(401, 'You did not pass a valid authentication token');
    }
    const model = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)\/predictions$/.exec(url);
    if (req.method === 'POST' && (model || url === '/v1/predictions')) {
      const target: CreateTarget = model ? { owner: model[1], name: model[2] } : { version: String(body?.version) };
      const reply = this.onCreate(target, body);
      if ('hang' in reply) return void this.hung.add(res);
      if ('error' in reply) return problem(reply.error, reply.detail ?? `HTTP ${reply.error}`);
      const id = `${target.name ?? `version-${target.version}`}-${this.requests.length}`;
      this.scripts[id] = [...reply.script];
      return json(201, {
        id,
        status: 'starting',
        input: body?.input,
        logs: '',
        urls: { get: `${this.base}/v1/predictions/${id}`, cancel: `${this.base}/v1/predictions/${id}/cancel` },
      });
    }
    const get = /^\/v1\/predictions\/([\w.-]+)$/.exec(url);
    if (req.method === 'GET' && get && this.scripts[get[1]]) {
      const script = this.scripts[get[1]];
      return json(200, { id: get[1], ...(script.length > 1 ? script.shift() : script[0]) });
    }
    const cancel = /^\/v1\/predictions\/([\w.-]+)\/cancel$/.exec(url);
    if (req.method === 'POST' && cancel) {
      this.canceled.push(cancel[1]);
      return json(200, { id: cancel[1], status: 'canceled' });
    }
    problem(404, 'Not found');
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });
}

/** A local address nothing listens on (connection refused). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
