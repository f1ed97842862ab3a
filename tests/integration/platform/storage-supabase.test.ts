import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getStorage } from '../../../netlify/lib/storage';
import { startFakeSupabaseStorage, type FakeSupabaseStorage } from '../../support/fake-supabase-storage';

// The Supabase adapter against the local Storage API stand-in (tests/support/fake-supabase-storage.ts):
// bucket get/create, object upload/download/remove, signed URL, signed upload URL and the PUT to it.
let storage: FakeSupabaseStorage;
let base = '';
const seen = () => storage.requests;

beforeAll(async () => {
  storage = await startFakeSupabaseStorage();
  base = storage.url;
  process.env.SUPABASE_URL = base;
  process.env.SUPABASE_SERVICE_ROLE_KEY = storage.serviceRoleKey;
});
afterAll(async () => {
  delete process.env.SUPABASE_URL;
  delete process.env.SUPABASE_SERVICE_ROLE_KEY;
  await storage.close();
});

describe('Supabase storage adapter', () => {
  it('creates the private bucket on first use, then uploads with the content type', async () => {
    const files = getStorage();
    expect(files.kind).toBe('supabase');
    await files.put('results/a.jpg', Buffer.from('jpeg-bytes'), 'image/jpeg');
    expect(storage.buckets.get('image_processing')).toEqual({ public: false, file_size_limit: 15 * 1024 * 1024 });
    expect(storage.objects.get('image_processing/results/a.jpg')).toEqual({ bytes: Buffer.from('jpeg-bytes'), type: 'image/jpeg' });
    const upload = seen().find((s) => s.method === 'POST' && s.path === '/object/image_processing/results/a.jpg')!;
    expect(upload.headers['x-upsert']).toBe('true');
    // The bucket is checked once, not on every call.
    await files.put('results/b.jpg', Buffer.from('b'), 'image/jpeg');
    expect(seen().filter((s) => s.path === '/bucket/image_processing')).toHaveLength(1);
  });

  it('downloads bytes, and a missing object is null', async () => {
    const files = getStorage();
    expect((await files.get('results/a.jpg'))!.toString()).toBe('jpeg-bytes');
    expect(await files.get('results/missing.jpg')).toBeNull();
  });

  it('signs read URLs with the expiry and the download name; the URL serves the bytes, in ranges too', async () => {
    const url = await getStorage().signedUrl('results/a.jpg', { expiresIn: 120, downloadName: 'restored-image-1.jpg' });
    expect(url).toMatch(new RegExp(`^${base}/storage/v1/object/sign/image_processing/results/a\\.jpg\\?token=[\\w.-]+&download=restored-image-1\\.jpg$`));
    expect(JSON.parse(seen().findLast((s) => s.path.startsWith('/object/sign/'))!.body.toString())).toEqual({ expiresIn: 120 });
    const res = await fetch(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="restored-image-1.jpg"');
    expect(await res.text()).toBe('jpeg-bytes');
    const part = await fetch(url, { headers: { range: 'bytes=5-' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 5-9/10');
    expect(await part.text()).toBe('bytes');
    // A token is for its own object only.
    const other = url.replace('results/a.jpg', 'results/b.jpg');
    expect((await fetch(other)).status).toBe(400);
  });

  it('hands the browser a signed upload URL it can PUT the file to without the service key', async () => {
    const grant = await getStorage().createSignedUpload('originals/u.png', 'image/png');
    expect(grant.method).toBe('PUT');
    expect(grant.url).toMatch(new RegExp(`^${base}/storage/v1/object/upload/sign/image_processing/originals/u\\.png\\?token=[\\w.-]+$`));
    // The site's page PUTs cross-origin with these headers: the preflight allows them, as Supabase's gateway does.
    const preflight = await fetch(grant.url, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:1', 'access-control-request-method': 'PUT', 'access-control-request-headers': 'content-type,x-upsert' },
    });
    expect(preflight.status).toBe(200);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,x-upsert');
    const res = await fetch(grant.url, { method: grant.method, headers: grant.headers, body: Buffer.from('png') });
    expect(res.status).toBe(200);
    expect(storage.objects.get('image_processing/originals/u.png')).toEqual({ bytes: Buffer.from('png'), type: 'image/png' });
    expect(JSON.stringify(grant)).not.toContain(storage.serviceRoleKey);
    // The grant is for its own path only.
    const elsewhere = await fetch(grant.url.replace('originals/u.png', 'originals/v.png'), { method: 'PUT', headers: grant.headers, body: Buffer.from('x') });
    expect(elsewhere.status).toBe(400);
    expect(storage.objects.has('image_processing/originals/v.png')).toBe(false);
  });

  it('removes objects by prefix list', async () => {
    await getStorage().remove(['results/a.jpg', 'results/b.jpg']);
    expect(JSON.parse(seen().findLast((s) => s.method === 'DELETE')!.body.toString())).toEqual({ prefixes: ['results/a.jpg', 'results/b.jpg'] });
    expect(storage.objects.has('image_processing/results/a.jpg')).toBe(false);
  });

  it('reports a storage failure instead of pretending success', async () => {
    process.env.SUPABASE_SERVICE_ROLE_KEY = 'wrong-key';
    try {
      await expect(getStorage().put('results/c.jpg', Buffer.from('c'), 'image/jpeg')).rejects.toThrow(/Storage .* failed: Invalid JWT/);
    } finally {
      process.env.SUPABASE_SERVICE_ROLE_KEY = storage.serviceRoleKey;
    }
  });
});
