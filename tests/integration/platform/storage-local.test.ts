import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import files from '../../../netlify/functions/files.mts';
import uploads from '../../../netlify/functions/uploads.mts';
import { getStorage, MAX_UPLOAD_BYTES } from '../../../netlify/lib/storage';
import { createLocalStorage } from '../../../netlify/lib/storage/local';

// The local storage adapter with its two functions: signed reads (/api/files) and signed uploads (/api/uploads).
const BASE = 'http://localhost:8888';
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-storage-'));
  process.env.STORAGE_DIR = dir;
  process.env.APP_SECRET = 'local-storage-test-secret-0123456789abcdef';
  delete process.env.SUPABASE_URL;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const fetchLocal = (handler: typeof files, url: string, init?: RequestInit) => handler(new Request(new URL(url, BASE), init), {});

describe('local storage adapter', () => {
  it('puts, gets and removes objects; a missing one is null', async () => {
    const storage = getStorage();
    expect(storage.kind).toBe('local');
    await storage.put('results/a.jpg', Buffer.from('abc'), 'image/jpeg');
    expect((await storage.get('results/a.jpg'))!.toString()).toBe('abc');
    await storage.remove(['results/a.jpg', 'results/never.jpg']);
    expect(await storage.get('results/a.jpg')).toBeNull();
  });

  it.each(['../etc/passwd', '/abs.jpg', 'a//b.jpg', 'a/../b.jpg', 'a b.jpg', ''])('refuses the path %j', async (bad) => {
    await expect(getStorage().put(bad, Buffer.from('x'), 'image/jpeg')).rejects.toThrow(/Invalid storage path/);
  });

  it('serves a signed URL with its content type and cache lifetime, and 403s tampering and expiry', async () => {
    const storage = getStorage();
    await storage.put('previews/p.png', Buffer.from('png-bytes'), 'image/png');
    const url = await storage.signedUrl('previews/p.png', { expiresIn: 300 });
    expect(url).toMatch(/^\/api\/files\/previews\/p\.png\?exp=\d+&sig=/);
    const ok = await fetchLocal(files, url);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('content-type')).toBe('image/png');
    expect(ok.headers.get('cache-control')).toMatch(/^private, max-age=(29\d|300)$/);
    expect(Buffer.from(await ok.arrayBuffer()).toString()).toBe('png-bytes');

    const other = url.replace('previews/p.png', 'previews/q.png');
    const longer = url.replace(/exp=(\d+)/, (_m, exp) => `exp=${Number(exp) + 3600}`);
    const expired = await createLocalStorage(dir).signedUrl('previews/p.png', { expiresIn: 1 });
    for (const bad of [other, longer, url.replace(/sig=[^&]+/, 'sig=forged'), url.split('?')[0]!]) {
      expect((await fetchLocal(files, bad)).status).toBe(403);
    }
    const later = Date.now;
    Date.now = () => later() + 5_000;
    try {
      expect((await fetchLocal(files, expired)).status).toBe(403);
    } finally {
      Date.now = later;
    }
  });

  it('adds the download name to a signed URL as an attachment', async () => {
    await getStorage().put('results/v.mp4', Buffer.from('mp4'), 'video/mp4');
    const url = await getStorage().signedUrl('results/v.mp4', { expiresIn: 60, downloadName: 'generated-video-1.mp4' });
    const res = await fetchLocal(files, url);
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="generated-video-1.mp4"');
    expect(res.headers.get('content-type')).toBe('video/mp4');
    // The name is part of the signature: it cannot be swapped.
    expect((await fetchLocal(files, url.replace('generated-video-1', 'x'))).status).toBe(403);
  });
});

describe('signed uploads (PUT /api/uploads/<token>)', () => {
  it('stores the file the browser sends with the granted content type', async () => {
    const grant = await getStorage().createSignedUpload('originals/u1.jpg', 'image/jpeg');
    expect(grant).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/jpeg' } });
    const res = await fetchLocal(uploads, grant.url, { method: 'PUT', headers: grant.headers, body: Buffer.from('jpeg') });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, path: 'originals/u1.jpg' });
    expect((await getStorage().get('originals/u1.jpg'))!.toString()).toBe('jpeg');
  });

  it('accepts 15 MB and refuses more with 413, storing nothing', async () => {
    const big = await getStorage().createSignedUpload('originals/big.jpg', 'image/jpeg');
    const exact = await fetchLocal(uploads, big.url, { method: 'PUT', headers: big.headers, body: Buffer.alloc(MAX_UPLOAD_BYTES, 1) });
    expect(exact.status).toBe(200);

    const tooBig = await getStorage().createSignedUpload('originals/too-big.jpg', 'image/jpeg');
    const res = await fetchLocal(uploads, tooBig.url, { method: 'PUT', headers: tooBig.headers, body: Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1) });
    expect(res.status).toBe(413);
    expect((await res.json()).error).toBe('File too large: the limit is 15 MB');
    expect(await getStorage().get('originals/too-big.jpg')).toBeNull();
  });

  it('refuses forged tokens, another content type and other methods', async () => {
    const grant = await getStorage().createSignedUpload('originals/u2.png', 'image/png');
    const [payload, sig] = grant.url.split('/').pop()!.split('.');
    const otherPath = Buffer.from(JSON.stringify(['originals/evil.png', 'image/png', 9_999_999_999])).toString('base64url');
    expect((await fetchLocal(uploads, `/api/uploads/${otherPath}.${sig}`, { method: 'PUT', headers: grant.headers, body: 'x' })).status).toBe(403);
    expect((await fetchLocal(uploads, `/api/uploads/${payload}.forged`, { method: 'PUT', headers: grant.headers, body: 'x' })).status).toBe(403);
    const wrongType = await fetchLocal(uploads, grant.url, { method: 'PUT', headers: { 'Content-Type': 'text/html' }, body: 'x' });
    expect(wrongType.status).toBe(415);
    expect((await fetchLocal(uploads, grant.url)).status).toBe(405);
    expect(await getStorage().get('originals/evil.png')).toBeNull();
    expect(await getStorage().get('originals/u2.png')).toBeNull();
  });
});
