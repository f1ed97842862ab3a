import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchModel, loadManifest, ModelFetchError, planFetch, type FetchPlan, type Manifest } from '../../../scripts/training/models-download';

// `npm run models:fetch` against a local HTTP server: success (through a redirect, as Hugging Face and
// GitHub release URLs answer), hash mismatch, HTTP 404, a connection cut mid-body, already-present skip.

const body = Buffer.from(Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7919) % 251));
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const BODY_SHA = sha(body);
const hits: Record<string, number> = {};
let base = '';
const server = http.createServer((req, res) => {
  hits[req.url!] = (hits[req.url!] ?? 0) + 1;
  if (req.url === '/model.onnx') {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
    for (let i = 0; i < body.length; i += 64_000) res.write(body.subarray(i, i + 64_000));
    res.end();
  } else if (req.url === '/moved') {
    res.writeHead(302, { location: '/model.onnx' }).end();
  } else if (req.url === '/cut') {
    res.writeHead(200, { 'content-length': body.length });
    res.write(body.subarray(0, 100_000), () => res.socket?.destroy());
  } else {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('no such model');
  }
});
const dir = mkdtempSync(path.join(tmpdir(), 'lumora-models-'));
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  rmSync(dir, { recursive: true, force: true });
});

let n = 0;
/** A fresh destination folder and a plan for `route` pinned to `sha256`. */
function plan(route: string, sha256 = BODY_SHA, bytes: number | null = body.length): FetchPlan {
  const d = path.join(dir, `case${n++}`);
  return { label: 'test', url: `${base}${route}`, sha256, bytes, dest: path.join(d, 'colorizer.onnx'), sidecar: { model: 'test', io: 'l' } };
}
const files = (p: FetchPlan) => (existsSync(path.dirname(p.dest)) ? readdirSync(path.dirname(p.dest)).sort() : []);
async function failure(p: FetchPlan): Promise<string> {
  const err = await fetchModel(p).then(() => null, (e) => e);
  expect(err).toBeInstanceOf(ModelFetchError);
  return err.message;
}

describe('fetchModel', () => {
  it('installs a verified download atomically with its contract alongside, following redirects', async () => {
    const p = plan('/moved');
    const res = await fetchModel(p);
    expect(res).toMatchObject({ action: 'installed', dest: p.dest, sha256: BODY_SHA, bytes: body.length });
    expect(readFileSync(p.dest).equals(body)).toBe(true);
    expect(JSON.parse(readFileSync(`${p.dest}.json`, 'utf8'))).toEqual({ model: 'test', io: 'l', sha256: BODY_SHA });
    expect(files(p)).toEqual(['colorizer.onnx', 'colorizer.onnx.json']); // no temporary file left
  });

  it('skips the download when the file already matches', async () => {
    const p = plan('/model.onnx');
    await fetchModel(p);
    const before = hits['/model.onnx'];
    rmSync(`${p.dest}.json`); // the contract is rewritten even when the model is kept
    expect(await fetchModel(p)).toMatchObject({ action: 'already-present', bytes: body.length });
    expect(hits['/model.onnx']).toBe(before);
    expect(existsSync(`${p.dest}.json`)).toBe(true);
  });

  it('refuses a download whose sha256 differs, deleting it and leaving the installed model alone', async () => {
    const p = plan('/model.onnx', sha('another model'), null);
    expect(await failure(p)).toBe(`sha256 mismatch for ${p.url}: expected ${sha('another model')}, got ${BODY_SHA} (300000 bytes). The download was deleted; ${p.dest} was not changed.`);
    expect(files(p)).toEqual([]);
    // Over an existing model: the old file stays byte for byte.
    writeFileSync(p.dest, 'the model installed earlier');
    await failure(p);
    expect(readFileSync(p.dest, 'utf8')).toBe('the model installed earlier');
    expect(files(p)).toEqual(['colorizer.onnx']);
  });

  it('refuses a download of the wrong size before looking at the hash', async () => {
    const p = plan('/model.onnx', BODY_SHA, body.length + 1);
    expect(await failure(p)).toMatch(/^Size mismatch for .*: expected 300001 bytes, got 300000\./);
    expect(files(p)).toEqual([]);
  });

  it('reports HTTP errors, cut connections and unreachable servers without leaving files', async () => {
    const missing = plan('/missing');
    expect(await failure(missing)).toBe(`Download failed: HTTP 404 Not Found from ${base}/missing.`);
    const cut = plan('/cut');
    expect(await failure(cut)).toMatch(/^Download interrupted after 100000 bytes: /);
    const spare = http.createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    const { port } = spare.address() as AddressInfo;
    await new Promise((r) => spare.close(r)); // nothing listens there any more
    const closed = { ...plan('/model.onnx'), url: `http://127.0.0.1:${port}/model.onnx` };
    expect(await failure(closed)).toMatch(/^Download failed: .*ECONNREFUSED/);
    for (const p of [missing, cut, closed]) expect(files(p)).toEqual([]);
  });
});

describe('planFetch (flags, environment, manifest)', () => {
  const manifest = loadManifest();
  const entry = manifest.models[manifest.default];

  it('the shipped manifest pins a published hash, its source, size and contract for every model', () => {
    for (const m of Object.values(manifest.models)) {
      expect(m.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(m.hashSource).toMatch(/^https:\/\//);
      expect(m.size).toBeGreaterThan(0);
      expect(m.approxMB).toBeGreaterThan(1);
    }
  });

  it('defaults to the manifest model at COLORIZER_ONNX_MODEL or .models/colorizer.onnx', () => {
    const p = planFetch([], {}, manifest);
    expect(p).toMatchObject({ url: entry.url, sha256: entry.sha256, bytes: entry.bytes, dest: path.resolve('.models/colorizer.onnx') });
    expect(p.sidecar).toMatchObject({ model: manifest.default, io: entry.io, size: entry.size, licence: entry.licence });
    expect(planFetch([], { COLORIZER_ONNX_MODEL: '/srv/m.onnx' }, manifest).dest).toBe('/srv/m.onnx');
  });

  it('takes a self-hoster’s export only with its sha256, from flags or the environment', () => {
    expect(() => planFetch(['--url', 'https://example.org/mine.onnx'], {}, manifest)).toThrow(
      'No sha256 for https://example.org/mine.onnx. Pass --sha256 <64 hex digits> (or set COLORIZER_ONNX_SHA256) with the hash of your export: an unverified download is never installed.',
    );
    const viaEnv = planFetch([], { COLORIZER_ONNX_URL: 'https://example.org/mine.onnx', COLORIZER_ONNX_SHA256: BODY_SHA.toUpperCase() }, manifest);
    expect(viaEnv).toMatchObject({ url: 'https://example.org/mine.onnx', sha256: BODY_SHA, bytes: null, sidecar: { model: 'custom', io: 'l-norm', size: null } });
    const viaFlags = planFetch(['--url', 'https://example.org/mine.onnx', '--sha256', BODY_SHA, '--io', 'rgb', '--size', '384'], {}, manifest);
    expect(viaFlags.sidecar).toMatchObject({ io: 'rgb', size: 384 });
    expect(() => planFetch(['--sha256', 'abc123'], {}, manifest)).toThrow('--sha256 must be 64 hexadecimal digits (got "abc123").');
    expect(() => planFetch(['--io', 'yuv', '--sha256', BODY_SHA], {}, manifest)).toThrow(/--io must be one of l-norm, l, rgb/);
    expect(() => planFetch(['--model', 'nope'], {}, manifest)).toThrow(/Unknown model "nope"; the manifest lists: /);
  });

  it('refuses a manifest model without a published hash unless --sha256 is given explicitly', () => {
    const unpinned: Manifest = { default: 'x', models: { x: { ...entry, sha256: null, hashSource: null } } };
    expect(() => planFetch([], {}, unpinned)).toThrow(/No published sha256 is pinned for "x" .*pass its hash explicitly with --sha256/);
    expect(planFetch(['--sha256', BODY_SHA], {}, unpinned)).toMatchObject({ url: entry.url, sha256: BODY_SHA, bytes: null });
  });

  it('rejects a manifest with a malformed hash', () => {
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ default: 'x', models: { x: { ...entry, sha256: 'deadbeef' } } }));
    expect(() => loadManifest(bad)).toThrow('bad.json: model "x" has a sha256 that is not 64 hex digits (use null when none is published).');
  });
});

describe('npm run models:fetch (the command)', () => {
  const run = (args: string[]) =>
    promisify(execFile)(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/training/models-fetch.ts', ...args], { env: { ...process.env, COLORIZER_ONNX_URL: '', COLORIZER_ONNX_SHA256: '' } })
      .then(({ stdout }) => ({ code: 0, stdout, stderr: '' }), (e) => ({ code: e.code as number, stdout: e.stdout as string, stderr: e.stderr as string }));

  it('installs, then skips, and exits non-zero with a clear message on a mismatch', async () => {
    const dest = path.join(dir, 'cli', 'colorizer.onnx');
    const ok = await run(['--url', `${base}/model.onnx`, '--sha256', BODY_SHA, '--dest', dest]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain(`Installed your model from ${base}/model.onnx as `);
    expect(ok.stdout).toContain(`300000 bytes, sha256 ${BODY_SHA} verified.`);
    expect(ok.stdout).toContain('(io l-norm)');
    const again = await run(['--url', `${base}/model.onnx`, '--sha256', BODY_SHA, '--dest', dest]);
    expect(again.stdout).toContain(`already matches sha256 ${BODY_SHA}`);
    const bad = await run(['--url', `${base}/model.onnx`, '--sha256', sha('x'), '--dest', path.join(dir, 'cli2', 'colorizer.onnx')]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^models:fetch: sha256 mismatch for /);
    expect(existsSync(path.join(dir, 'cli2', 'colorizer.onnx'))).toBe(false);
  }, 60_000);
});
