import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStorage } from '../../../netlify/lib/storage';

/**
 * The Supabase adapter against a local stand-in for the Storage API (node:http on 127.0.0.1). Routes and
 * bodies follow Supabase's Storage API: bucket get/create, object upload/download/remove, signed URL,
 * signed upload URL (and the PUT the browser sends to it).
 */
const KEY = 'service-role-key-for-tests';
interface Seen { method: string; path: string; body: string; headers: http.IncomingHttpHeaders }
const seen: Seen[] = [];
const buckets = new Map<string, { public: boolean; file_size_limit: number | null }>();
const objects = new Map<string, { bytes: Buffer; type: string }>();
const uploadTokens = new Map<string, string>();

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const server = http.createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks);
  const url = new URL(req.url!, 'http://x');
  const path = decodeURIComponent(url.pathname.replace(/^\/storage\/v1/, ''));
  seen.push({ method: req.method!, path, body: raw.toString(), headers: req.headers });

  let m: RegExpExecArray | null;
  // The browser's PUT to a signed upload URL carries only the token.
  if (req.method === 'PUT' && (m = /^\/object\/upload\/sign\/(.+)$/.exec(path))) {
    if (uploadTokens.get(url.searchParams.get('token') ?? '') !== m[1]) return send(res, 400, { statusCode: '403', error: 'Unauthorized', message: 'invalid signature' });
    objects.set(m[1]!, { bytes: raw, type: String(req.headers['content-type']) });
    return send(res, 200, { Key: m[1] });
  }
  if (req.headers.authorization !== `Bearer ${KEY}` || req.headers.apikey !== KEY) {
    return send(res, 400, { statusCode: '403', error: 'Unauthorized', message: 'Invalid JWT' });
  }
  if (req.method === 'GET' && (m = /^\/bucket\/([^/]+)$/.exec(path))) {
    const bucket = buckets.get(m[1]!);
    return bucket ? send(res, 200, { id: m[1], name: m[1], ...bucket }) : send(res, 400, { statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' });
  }
  if (req.method === 'POST' && path === '/bucket') {
    const body = JSON.parse(raw.toString());
    buckets.set(body.id, { public: body.public, file_size_limit: body.file_size_limit ?? null });
    return send(res, 200, { name: body.name });
  }
  if (req.method === 'POST' && (m = /^\/object\/upload\/sign\/(.+)$/.exec(path))) {
    const token = `upload-${uploadTokens.size + 1}`;
    uploadTokens.set(token, m[1]!);
    return send(res, 200, { url: `/object/upload/sign/${m[1]}?token=${token}` });
  }
  if (req.method === 'POST' && (m = /^\/object\/sign\/(.+)$/.exec(path))) {
    if (!objects.has(m[1]!)) return send(res, 400, { statusCode: '404', error: 'not_found', message: 'Object not found' });
    return send(res, 200, { signedURL: `/object/sign/${m[1]}?token=signed-${JSON.parse(raw.toString()).expiresIn}` });
  }
  if (req.method === 'POST' && (m = /^\/object\/(.+)$/.exec(path))) {
    if (!buckets.has(m[1]!.split('/')[0]!)) return send(res, 400, { statusCode: '404', error: 'Bucket not found', message: 'Bucket not found' });
    objects.set(m[1]!, { bytes: raw, type: String(req.headers['content-type']) });
    return send(res, 200, { Key: m[1], Id: 'id-1' });
  }
  if (req.method === 'GET' && (m = /^\/object\/(.+)$/.exec(path))) {
    const object = objects.get(m[1]!);
    if (!object) return send(res, 400, { statusCode: '404', error: 'not_found', message: 'Object not found' });
    res.writeHead(200, { 'content-type': object.type });
    return res.end(object.bytes);
  }
  if (req.method === 'DELETE' && (m = /^\/object\/([^/]+)$/.exec(path))) {
    const removed = (JSON.parse(raw.toString()).prefixes as string[]).filter((p) => objects.delete(`${m![1]}/${p}`));
    return send(res, 200, removed.map((name) => ({ name })));
  }
  send(res, 404, { statusCode: '404', error: 'not_found', message: `no route ${req.method} ${path}` });
});

let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.SUPABASE_URL = base;
  process.env.SUPABASE_SERVICE_ROLE_KEY = KEY;
});
afterAll(async () => {
  delete process.env.SUPABASE_URL;
  delete process.env.SUPABASE_SERVICE_ROLE_KEY;
  await new Promise((resolve) => server.close(resolve));
});

describe('Supabase storage adapter', () => {
  it('creates the private bucket on first use, then uploads with the content type', async () => {
    const storage = getStorage();
    expect(storage.kind).toBe('supabase');
    await storage.put('results/a.jpg', Buffer.from('jpeg-bytes'), 'image/jpeg');
    expect(buckets.get('image_processing')).toEqual({ public: false, file_size_limit: 15 * 1024 * 1024 });
    expect(objects.get('image_processing/results/a.jpg')).toEqual({ bytes: Buffer.from('jpeg-bytes'), type: 'image/jpeg' });
    const upload = seen.find((s) => s.method === 'POST' && s.path === '/object/image_processing/results/a.jpg')!;
    expect(upload.headers['x-upsert']).toBe('true');
    // The bucket is checked once, not on every call.
    await storage.put('results/b.jpg', Buffer.from('b'), 'image/jpeg');
    expect(seen.filter((s) => s.path === '/bucket/image_processing')).toHaveLength(1);
  });

  it('downloads bytes, and a missing object is null', async () => {
    const storage = getStorage();
    expect((await storage.get('results/a.jpg'))!.toString()).toBe('jpeg-bytes');
    expect(await storage.get('results/missing.jpg')).toBeNull();
  });

  it('signs read URLs with the expiry and the download name', async () => {
    const url = await getStorage().signedUrl('results/a.jpg', { expiresIn: 120, downloadName: 'restored-image-1.jpg' });
    expect(url).toBe(`${base}/storage/v1/object/sign/image_processing/results/a.jpg?token=signed-120&download=restored-image-1.jpg`);
    expect(JSON.parse(seen.findLast((s) => s.path.startsWith('/object/sign/'))!.body)).toEqual({ expiresIn: 120 });
  });

  it('hands the browser a signed upload URL it can PUT the file to without the service key', async () => {
    const grant = await getStorage().createSignedUpload('originals/u.png', 'image/png');
    expect(grant.method).toBe('PUT');
    expect(grant.url).toMatch(new RegExp(`^${base}/storage/v1/object/upload/sign/image_processing/originals/u\\.png\\?token=upload-\\d+$`));
    const res = await fetch(grant.url, { method: grant.method, headers: grant.headers, body: Buffer.from('png') });
    expect(res.status).toBe(200);
    expect(objects.get('image_processing/originals/u.png')).toEqual({ bytes: Buffer.from('png'), type: 'image/png' });
    expect(JSON.stringify(grant)).not.toContain(KEY);
  });

  it('removes objects by prefix list', async () => {
    await getStorage().remove(['results/a.jpg', 'results/b.jpg']);
    expect(JSON.parse(seen.findLast((s) => s.method === 'DELETE')!.body)).toEqual({ prefixes: ['results/a.jpg', 'results/b.jpg'] });
    expect(objects.has('image_processing/results/a.jpg')).toBe(false);
  });

  it('reports a storage failure instead of pretending success', async () => {
    process.env.SUPABASE_SERVICE_ROLE_KEY = 'wrong-key';
    try {
      await expect(getStorage().put('results/c.jpg', Buffer.from('c'), 'image/jpeg')).rejects.toThrow(/Storage .* failed: Invalid JWT/);
    } finally {
      process.env.SUPABASE_SERVICE_ROLE_KEY = KEY;
    }
  });
});
