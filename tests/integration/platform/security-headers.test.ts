import http from 'node:http';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import files from '../../../netlify/functions/files.mts';
import { cspHealth } from '../../../netlify/lib/health';
import { API_HEADERS, pagePolicy, policyInputs, serializePolicy } from '../../../netlify/lib/security-headers';
import { getStorage } from '../../../netlify/lib/storage';

// Netlify's static headers never reach a function's answer: each function sets them itself.
const functionsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../netlify/functions');
const BASE = 'http://localhost:8888';
let dir: string;
const savedEnv = { ...process.env };
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-headers-'));
  process.env.STORAGE_DIR = dir;
  process.env.APP_SECRET = 'security-headers-test-secret-0123456789abcdef';
  delete process.env.SUPABASE_URL;
  delete process.env.DATABASE_URL;
  delete process.env.DEPLOY_URL;
  delete process.env.URL;
});
afterAll(() => {
  process.env = { ...savedEnv };
  rmSync(dir, { recursive: true, force: true });
});

function expectApiHeaders(res: Response, where: string) {
  for (const [name, value] of Object.entries(API_HEADERS)) expect(res.headers.get(name), `${where}: ${name}`).toBe(value);
}

describe('function answers', () => {
  // Every function with a public path, called with a method none of them takes (health takes any): the
  // refusal is an answer too, and a browser may render it.
  const modules = readdirSync(functionsDir).filter((f) => f.endsWith('.mts'));
  it.each(modules)('%s answers with the security headers', async (file) => {
    const mod = (await import(path.join(functionsDir, file))) as { default: (req: Request, context?: unknown) => Promise<Response>; config?: { path?: string | string[]; schedule?: string } };
    if (mod.config?.schedule) return; // no public path: its answer goes to Netlify's scheduler only
    const route = [mod.config?.path ?? `/.netlify/functions/${file.replace(/\.mts$/, '')}`].flat()[0]!.replace(/[:*][A-Za-z]*/g, 'x');
    const res = await mod.default(new Request(new URL(route, BASE), { method: 'PATCH' }), {});
    expect(res.status, file).toBeGreaterThanOrEqual(200);
    expectApiHeaders(res, file);
  });

  it('a stored file keeps its type and download name, with the closed policy and nosniff', async () => {
    const storage = getStorage();
    await storage.put('previews/h.png', Buffer.from('png-bytes'), 'image/png');
    const url = new URL(await storage.signedUrl('previews/h.png', { expiresIn: 300, downloadName: 'photo.png' }), BASE);
    const res = await files(new Request(url), {});
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="photo.png"');
    expect(await res.text()).toBe('png-bytes');
    expectApiHeaders(res, 'files');
  });
});

describe('health: does the pages\' policy let the browser reach the storage?', () => {
  const SUPABASE = 'https://abcdefgh.supabase.co';
  const servers: http.Server[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  });
  /** A deploy whose home page carries `policy` the way the build writes it (a <meta>). */
  async function deployWith(policy: string | null): Promise<string> {
    const server = http.createServer((req, res) => {
      if (req.url !== '/' || policy === null) return void res.writeHead(404).end('not found');
      res.writeHead(200, { 'content-type': 'text/html', 'content-security-policy': "frame-ancestors 'none'" });
      res.end(`<!doctype html><html><head><meta http-equiv="content-security-policy" content="${policy}"></head><body></body></html>`);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address() as { port: number };
    return `http://127.0.0.1:${address.port}`;
  }

  it('yes, when the pages were built with the same SUPABASE_URL', async () => {
    const deploy = await deployWith(serializePolicy(pagePolicy(policyInputs({ SUPABASE_URL: SUPABASE }))));
    expect(await cspHealth({ DEPLOY_URL: deploy, SUPABASE_URL: SUPABASE })).toEqual({ storageOrigin: SUPABASE, storageOriginAllowed: true, missing: [], checked: `${deploy}/` });
  });

  it('no, naming the directives, when the build did not see SUPABASE_URL', async () => {
    const deploy = await deployWith(serializePolicy(pagePolicy(policyInputs({}))));
    expect(await cspHealth({ DEPLOY_URL: deploy, SUPABASE_URL: SUPABASE })).toEqual({
      storageOrigin: SUPABASE,
      storageOriginAllowed: false,
      missing: ['img-src', 'media-src', 'connect-src'],
      checked: `${deploy}/`,
    });
  });

  it('yes for local storage (this site), and unknown when the page cannot be read or there is no deploy address', async () => {
    const deploy = await deployWith(serializePolicy(pagePolicy(policyInputs({}))));
    expect(await cspHealth({ DEPLOY_URL: deploy })).toMatchObject({ storageOrigin: deploy, storageOriginAllowed: true });
    const missing = await deployWith(null);
    expect(await cspHealth({ DEPLOY_URL: missing, SUPABASE_URL: SUPABASE })).toMatchObject({ storageOriginAllowed: null, checked: `${missing}/ answered 404` });
    expect(await cspHealth({ SUPABASE_URL: SUPABASE })).toMatchObject({ storageOrigin: SUPABASE, storageOriginAllowed: null });
  });
});
