import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Replicate's HTTP API as Replicate documents it now (its OpenAPI description, 2026), so the
 * hosted engines are tested without a token or the internet. It speaks:
 * - models: `GET /v1/models/{owner}/{name}` (`is_official`, `latest_version` with its `openapi_schema`) and
 *   `GET …/versions/{id}`; a model registered as a community model answers 404 on its models endpoint
 *   (`POST /v1/models/{owner}/{name}/predictions`), which serves official models only;
 * - create: that endpoint with {input}, or `POST /v1/predictions` with {version, input}. With a schema, unknown
 *   input keys are dropped silently (the recorded `accepted` input shows what the model got), a missing required
 *   key or a value outside an enum is a 422; `Cancel-After` sets a deadline after which the prediction reads
 *   `canceled` (`aborted` if it never left `starting`); `throttle(n, seconds)` answers the next n creates 429 with
 *   `Retry-After`;
 * - get (`GET /v1/predictions/{id}`, walking a scripted list of states, the last one repeating), cancel
 *   (`POST /v1/predictions/{id}/cancel`);
 * - files: `POST /v1/files` (multipart `content`), `GET` and `DELETE /v1/files/{id}`;
 * - downloads (`GET /files/{name}`, no token needed, as on replicate.delivery).
 * Every request is recorded.
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

export type RecordedRequest = { method: string; url: string; auth?: string; body: any; headers: IncomingMessage['headers'] };

export type ServedFile = { type: string; body: Buffer };

/** A Cog input schema, as `openapi_schema.components.schemas.Input` holds it. */
export type InputSchema = { required?: string[]; properties: Record<string, Record<string, unknown>> };

export interface FakeModel {
  /** Official models run on their models endpoint; community models at a version only. */
  official: boolean;
  /** The latest version's id (community models). */
  version?: string;
  input?: InputSchema;
}

export interface CreatedPrediction {
  id: string;
  target: CreateTarget;
  /** The input as sent. */
  input: Record<string, unknown>;
  /** The input the model got: unknown keys dropped, as Replicate does. */
  accepted: Record<string, unknown>;
  dropped: string[];
  cancelAfter?: string;
}

/** Seconds in a `Cancel-After` value ("30s", "5m", "1h30m", "45"), as Replicate's API describes the format. */
export function cancelAfterSeconds(value: string): number {
  if (/^\d+$/.test(value)) return Number(value);
  let total = 0;
  for (const [, n, unit] of value.matchAll(/(\d+(?:\.\d+)?)([hms])/g)) total += Number(n) * { h: 3600, m: 60, s: 1 }[unit as 'h' | 'm' | 's'];
  return total;
}

export class FakeReplicate {
  server!: Server;
  base = '';
  requests: RecordedRequest[] = [];
  /** Downloadable files by name, served at `${base}/files/{name}`. */
  files: Record<string, ServedFile> = {};
  /** Files uploaded through the files API, by id (removed when deleted). */
  uploads = new Map<string, ServedFile & { filename: string }>();
  /** Ids of uploaded files a client deleted. */
  deletedFiles: string[] = [];
  /** Ids of the predictions a client cancelled. */
  canceled: string[] = [];
  /** Ids of the predictions their own Cancel-After deadline ended. */
  expired: string[] = [];
  /** Every prediction created, with the input the model got. */
  created: CreatedPrediction[] = [];
  /** Models known by "owner/name"; an unknown model reads as official with no schema, or as a 404 when `strict`. */
  models: Record<string, FakeModel> = {};
  strict = false;
  private scripts: Record<string, { states: PredictionState[]; deadline?: number; started: boolean; settled?: string }> = {};
  private hung = new Set<ServerResponse>();
  private throttled = 0;
  private throttleSeconds = 1;

  /** `onCreate` decides what each create request gets; `token` is the one Bearer token accepted. */
  constructor(
    private readonly onCreate: (target: CreateTarget, body: any) => CreateReply,
    readonly token = 'test-token',
  ) {}

  fileUrl(name: string): string {
    return `${this.base}/files/${name}`;
  }

  /** The next `count` creates (and file uploads) answer 429 naming `seconds` in Retry-After. */
  throttle(count: number, seconds = 1): void {
    this.throttled = count;
    this.throttleSeconds = seconds;
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

  private modelObject(owner: string, name: string) {
    const m = this.models[`${owner}/${name}`];
    const schema = m?.input ? { openapi: '3.0.2', components: { schemas: { Input: { type: 'object', title: 'Input', ...m.input } } } } : undefined;
    return {
      url: `https://replicate.com/${owner}/${name}`,
      owner,
      name,
      visibility: 'public',
      is_official: m ? m.official : true,
      latest_version: m && (m.version || schema) ? { id: m.official ? 'hidden' : m.version, openapi_schema: schema ?? {} } : null,
    };
  }

  private schemaFor(target: CreateTarget): InputSchema | undefined {
    if (target.owner) return this.models[`${target.owner}/${target.name}`]?.input;
    return Object.values(this.models).find((m) => m.version === target.version)?.input;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const raw = await readBody(req);
    const url = req.url ?? '';
    const type = req.headers['content-type'] ?? '';
    let body: any;
    if (type.startsWith('multipart/form-data')) {
      body = await new Response(new Uint8Array(raw), { headers: { 'content-type': type } }).formData();
    } else {
      try {
        body = raw.length ? JSON.parse(raw.toString('utf8')) : null;
      } catch {
        body = raw.toString('utf8');
      }
    }
    this.requests.push({ method: req.method ?? '', url, auth: req.headers.authorization, body, headers: req.headers });
    const json = (status: number, data: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
      res.end(JSON.stringify(data));
    };
    const problem = (status: number, detail: string, headers: Record<string, string> = {}) => json(status, { title: detail, detail, status }, headers);

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

    const throttle = () => {
      if (this.throttled <= 0) return false;
      this.throttled--;
      const s = this.throttleSeconds;
      problem(429, `Request was throttled. Expected available in ${s} second${s === 1 ? '' : 's'}.`, { 'Retry-After': String(s) });
      return true;
    };

    // The files API.
    if (req.method === 'POST' && url === '/v1/files') {
      if (throttle()) return;
      const content = body instanceof FormData ? body.get('content') : null;
      if (!(content instanceof Blob)) return problem(400, 'content is required');
      const id = `file${this.uploads.size + this.deletedFiles.length + 1}`;
      const filename = String(body.get('filename') ?? (content as File).name ?? 'file');
      const contentType = String(body.get('type') ?? content.type ?? 'application/octet-stream');
      this.uploads.set(id, { type: contentType, body: Buffer.from(await content.arrayBuffer()), filename });
      return json(201, { id, content_type: contentType, size: content.size, urls: { get: `${this.base}/v1/files/${id}` }, metadata: {}, checksums: {} });
    }
    const fileApi = /^\/v1\/files\/([\w.-]+)$/.exec(url);
    if (fileApi && req.method === 'DELETE') {
      if (!this.uploads.delete(fileApi[1])) return problem(404, 'Not found');
      this.deletedFiles.push(fileApi[1]);
      res.writeHead(204);
      return res.end();
    }
    if (fileApi && req.method === 'GET') {
      const f = this.uploads.get(fileApi[1]);
      return f ? json(200, { id: fileApi[1], content_type: f.type, size: f.body.length }) : problem(404, 'Not found');
    }

    // Models and versions.
    const modelGet = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)$/.exec(url);
    if (req.method === 'GET' && modelGet) {
      if (this.strict && !this.models[`${modelGet[1]}/${modelGet[2]}`]) return problem(404, 'Not found');
      return json(200, this.modelObject(modelGet[1], modelGet[2]));
    }
    const versionGet = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)\/versions\/([\w.-]+)$/.exec(url);
    if (req.method === 'GET' && versionGet) {
      const m = this.models[`${versionGet[1]}/${versionGet[2]}`];
      const schema = m?.input ? { components: { schemas: { Input: { type: 'object', ...m.input } } } } : {};
      return json(200, { id: versionGet[3], openapi_schema: schema });
    }

    const model = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)\/predictions$/.exec(url);
    if (req.method === 'POST' && (model || url === '/v1/predictions')) {
      const target: CreateTarget = model ? { owner: model[1], name: model[2] } : { version: String(body?.version) };
      // The models endpoint serves official models only: a community model is a 404 there.
      if (model && this.models[`${model[1]}/${model[2]}`]?.official === false) return problem(404, 'Not found');
      if (throttle()) return;
      const input: Record<string, unknown> = body?.input ?? {};
      const schema = this.schemaFor(target);
      let accepted = input;
      let dropped: string[] = [];
      if (schema) {
        accepted = Object.fromEntries(Object.entries(input).filter(([k]) => k in schema.properties));
        dropped = Object.keys(input).filter((k) => !(k in schema.properties));
        const missing = (schema.required ?? []).filter((k) => accepted[k] === undefined);
        if (missing.length) return problem(422, missing.map((k) => `- input: ${k} is required`).join('\n'));
        for (const [k, v] of Object.entries(accepted)) {
          const allowed = schema.properties[k]?.enum as unknown[] | undefined;
          if (allowed && !allowed.includes(v)) return problem(422, `- input.${k}: ${k} must be one of the following: ${allowed.map((a) => JSON.stringify(a)).join(', ')}`);
        }
      }
      const reply = this.onCreate(target, { ...body, input: accepted });
      if ('hang' in reply) return void this.hung.add(res);
      if ('error' in reply) return problem(reply.error, reply.detail ?? `HTTP ${reply.error}`);
      const id = `${target.name ?? `version-${target.version}`}-${this.requests.length}`;
      const cancelAfter = req.headers['cancel-after'] as string | undefined;
      this.scripts[id] = {
        states: [...reply.script],
        started: false,
        deadline: cancelAfter ? Date.now() + cancelAfterSeconds(cancelAfter) * 1000 : undefined,
      };
      this.created.push({ id, target, input, accepted, dropped, cancelAfter });
      return json(201, {
        id,
        status: 'starting',
        input: accepted,
        logs: '',
        urls: { get: `${this.base}/v1/predictions/${id}`, cancel: `${this.base}/v1/predictions/${id}/cancel` },
      });
    }
    const get = /^\/v1\/predictions\/([\w.-]+)$/.exec(url);
    if (req.method === 'GET' && get && this.scripts[get[1]]) {
      const s = this.scripts[get[1]];
      if (s.settled) return json(200, { id: get[1], status: s.settled });
      let state = s.states.length > 1 ? s.states.shift()! : s.states[0]!;
      const settled = ['succeeded', 'failed', 'canceled', 'aborted'].includes(state.status);
      if (!settled && s.deadline !== undefined && Date.now() >= s.deadline) {
        // Cancel-After: canceled if it ran, aborted if it never started.
        s.settled = s.started || state.status === 'processing' ? 'canceled' : 'aborted';
        this.expired.push(get[1]);
        state = { status: s.settled };
      }
      if (state.status === 'processing') s.started = true;
      return json(200, { id: get[1], ...state });
    }
    const cancel = /^\/v1\/predictions\/([\w.-]+)\/cancel$/.exec(url);
    if (req.method === 'POST' && cancel) {
      this.canceled.push(cancel[1]);
      if (this.scripts[cancel[1]]) this.scripts[cancel[1]]!.settled = 'canceled';
      return json(200, { id: cancel[1], status: 'canceled' });
    }
    problem(404, 'Not found');
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
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
