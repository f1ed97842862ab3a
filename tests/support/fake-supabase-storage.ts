import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Supabase Storage, on its own origin (node:http on 127.0.0.1, a free port), so the
 * Supabase adapter (supabase-js) and the browser are tested without an account or the internet. Routes and
 * bodies follow the Storage API under `/storage/v1`:
 * - with the service key (Bearer + apikey): bucket get/create; object upload (POST, `x-upsert`), download,
 *   remove by prefix list; signed URL and signed upload URL;
 * - with a token only (what the browser holds): GET/HEAD of a signed URL (content type, `download` name,
 *   byte ranges for the video player) and the PUT of a file to a signed upload URL.
 * Tokens are HMAC-signed with an expiry, as Supabase's JWTs are: a wrong path or an old token is refused.
 * Every answer carries the CORS headers Supabase's gateway (Kong's cors plugin) sends, and it answers a
 * preflight the same way, so a cross-origin PUT from the site works or fails as it would in production.
 * Errors keep Supabase's shape: status 400 with `{ statusCode, error, message }`.
 */
export interface StoredObject {
  bytes: Buffer;
  type: string;
}

export interface SeenRequest {
  method: string;
  /** Path after `/storage/v1`, decoded. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface FakeSupabaseStorage {
  /** The project URL, for SUPABASE_URL. */
  url: string;
  serviceRoleKey: string;
  buckets: Map<string, { public: boolean; file_size_limit: number | null }>;
  /** Keyed `bucket/path`. */
  objects: Map<string, StoredObject>;
  requests: SeenRequest[];
  close(): Promise<void>;
}

const PREFIX = '/storage/v1';
/** Signed upload URLs live 2 hours on Supabase. */
const UPLOAD_TOKEN_SECONDS = 2 * 60 * 60;
const CORS_METHODS = 'GET,HEAD,PUT,PATCH,POST,DELETE,OPTIONS';

type Answer = { status: number; headers?: Record<string, string>; body?: Buffer | string | object };
const fail = (code: string, error: string, message: string): Answer => ({ status: 400, body: { statusCode: code, error, message } });

export async function startFakeSupabaseStorage(options: { serviceRoleKey?: string; port?: number } = {}): Promise<FakeSupabaseStorage> {
  const serviceRoleKey = options.serviceRoleKey ?? `service-role-${randomUUID()}`;
  const secret = randomBytes(32);
  const buckets: FakeSupabaseStorage['buckets'] = new Map();
  const objects = new Map<string, StoredObject>();
  const requests: SeenRequest[] = [];

  const sign = (payload: string) => createHmac('sha256', secret).update(payload).digest('base64url');
  const token = (key: string, seconds: number, use: 'read' | 'upload') => {
    const payload = Buffer.from(JSON.stringify({ url: key, use, exp: Math.floor(Date.now() / 1000) + seconds })).toString('base64url');
    return `${payload}.${sign(payload)}`;
  };
  /** null when the token is good for `key`, else the refusal. */
  const checkToken = (value: string | null, key: string, use: 'read' | 'upload'): Answer | null => {
    const [payload = '', signature = ''] = (value ?? '').split('.');
    const expected = Buffer.from(sign(payload));
    if (!value || signature.length !== expected.length || !timingSafeEqual(Buffer.from(signature), expected)) {
      return fail('400', 'InvalidJWT', 'invalid signature');
    }
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { url: string; use: string; exp: number };
    if (claims.exp < Date.now() / 1000) return fail('400', 'InvalidJWT', 'jwt expired');
    if (claims.url !== key || claims.use !== use) return fail('400', 'InvalidSignature', 'The url do not match the signature');
    return null;
  };

  const store = (key: string, bytes: Buffer, type: string | undefined, upsert: boolean): Answer => {
    const bucket = buckets.get(key.split('/')[0]!);
    if (!bucket) return fail('404', 'Bucket not found', 'Bucket not found');
    if (bucket.file_size_limit !== null && bytes.length > bucket.file_size_limit) {
      return fail('413', 'Payload too large', 'The object exceeded the maximum allowed size');
    }
    if (!upsert && objects.has(key)) return fail('409', 'Duplicate', 'The resource already exists');
    objects.set(key, { bytes, type: type || 'application/octet-stream' });
    return { status: 200, body: { Key: key, Id: randomUUID() } };
  };

  const serve = (req: IncomingMessage, key: string, download: string | null): Answer => {
    const object = objects.get(key);
    if (!object) return fail('404', 'not_found', 'Object not found');
    const headers: Record<string, string> = { 'content-type': object.type, 'accept-ranges': 'bytes', 'cache-control': 'no-cache' };
    if (download !== null) headers['content-disposition'] = `attachment; filename="${download || key.split('/').pop()}"`;
    const size = object.bytes.length;
    const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? '');
    if (range && (range[1] || range[2])) {
      const start = range[1] ? Number(range[1]) : Math.max(0, size - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), size - 1) : size - 1;
      if (start >= size || start > end) return { status: 416, headers: { 'content-range': `bytes */${size}` } };
      return { status: 206, headers: { ...headers, 'content-range': `bytes ${start}-${end}/${size}` }, body: object.bytes.subarray(start, end + 1) };
    }
    return { status: 200, headers, body: object.bytes };
  };

  const route = (req: IncomingMessage, path: string, query: URLSearchParams, body: Buffer): Answer => {
    const method = req.method ?? 'GET';
    let m: RegExpExecArray | null;
    // What the browser does, with a token and no key.
    if ((method === 'GET' || method === 'HEAD') && (m = /^\/object\/sign\/(.+)$/.exec(path))) {
      return checkToken(query.get('token'), m[1]!, 'read') ?? serve(req, m[1]!, query.get('download'));
    }
    if (method === 'PUT' && (m = /^\/object\/upload\/sign\/(.+)$/.exec(path))) {
      return checkToken(query.get('token'), m[1]!, 'upload') ?? store(m[1]!, body, req.headers['content-type'], req.headers['x-upsert'] === 'true');
    }
    if (req.headers.authorization !== `Bearer ${serviceRoleKey}` || req.headers.apikey !== serviceRoleKey) {
      return fail('403', 'Unauthorized', 'Invalid JWT');
    }
    if (method === 'GET' && (m = /^\/bucket\/([^/]+)$/.exec(path))) {
      const bucket = buckets.get(m[1]!);
      return bucket ? { status: 200, body: { id: m[1], name: m[1], ...bucket } } : fail('404', 'Bucket not found', 'Bucket not found');
    }
    if (method === 'POST' && path === '/bucket') {
      const spec = JSON.parse(body.toString()) as { id: string; name: string; public: boolean; file_size_limit?: number | null };
      if (buckets.has(spec.id)) return fail('409', 'Duplicate', 'The resource already exists');
      buckets.set(spec.id, { public: spec.public, file_size_limit: spec.file_size_limit ?? null });
      return { status: 200, body: { name: spec.name } };
    }
    if (method === 'POST' && (m = /^\/object\/upload\/sign\/(.+)$/.exec(path))) {
      const t = token(m[1]!, UPLOAD_TOKEN_SECONDS, 'upload');
      return { status: 200, body: { url: `/object/upload/sign/${m[1]}?token=${t}`, token: t } };
    }
    if (method === 'POST' && (m = /^\/object\/sign\/(.+)$/.exec(path))) {
      if (!objects.has(m[1]!)) return fail('404', 'not_found', 'Object not found');
      const { expiresIn } = JSON.parse(body.toString()) as { expiresIn: number };
      return { status: 200, body: { signedURL: `/object/sign/${m[1]}?token=${token(m[1]!, expiresIn, 'read')}` } };
    }
    if (method === 'POST' && (m = /^\/object\/(.+)$/.exec(path))) {
      return store(m[1]!, body, req.headers['content-type'], req.headers['x-upsert'] === 'true');
    }
    if (method === 'GET' && (m = /^\/object\/(?:authenticated\/)?(.+)$/.exec(path))) return serve(req, m[1]!, null);
    if (method === 'DELETE' && (m = /^\/object\/([^/]+)$/.exec(path))) {
      const { prefixes } = JSON.parse(body.toString()) as { prefixes: string[] };
      return { status: 200, body: prefixes.filter((p) => objects.delete(`${m![1]}/${p}`)).map((name) => ({ name })) };
    }
    return fail('404', 'not_found', `no route ${method} ${path}`);
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    // Kong's cors plugin with its defaults: any origin, the requested headers allowed back.
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', 'content-length, content-range, content-disposition');
    if (req.method === 'OPTIONS') {
      res.writeHead(200, {
        'access-control-allow-methods': CORS_METHODS,
        'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
        'access-control-max-age': '3600',
        'content-length': '0',
      });
      return res.end();
    }
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://storage.invalid');
    const answer: Answer = url.pathname.startsWith(`${PREFIX}/`)
      ? (() => {
          const path = decodeURIComponent(url.pathname.slice(PREFIX.length));
          requests.push({ method: req.method ?? 'GET', path, query: url.searchParams, headers: req.headers, body });
          return route(req, path, url.searchParams, body);
        })()
      : { status: 404, body: { message: 'no Route matched with those values' } };
    const payload = answer.body === undefined ? '' : Buffer.isBuffer(answer.body) || typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    const headers = { 'content-type': 'application/json', ...answer.headers, 'content-length': String(Buffer.byteLength(payload)) };
    res.writeHead(answer.status, headers);
    res.end(req.method === 'HEAD' ? undefined : payload);
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    serviceRoleKey,
    buckets,
    objects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
