import { randomBytes, createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSiteServer, type RunningServer } from '../../../scripts/platform/server';

// The local server's function runtime, driven over real HTTP with the fixture functions in
// tests/support/local-functions: what a function receives, streaming, background mode, crash recovery.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let server: RunningServer;
let tmp: string;

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'lumora-fns-'));
  server = await startSiteServer({
    root,
    port: 0,
    functionsDir: path.join(root, 'tests/support/local-functions'),
    functionsOutDir: path.join(tmp, 'built'),
    functionTimeoutMs: 5_000,
  });
});
afterAll(async () => {
  await server?.close();
  rmSync(tmp, { recursive: true, force: true });
});

async function waitFor(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  if (!check()) throw new Error(`gave up waiting for ${what}`);
}

describe('local function runtime', () => {
  it('gives the function the socket address as context.ip, never a header the client sent', async () => {
    const res = await fetch(`${server.url}/fixture/context/alpha`, {
      headers: { 'x-forwarded-for': '203.0.113.9', 'x-nf-client-connection-ip': '198.51.100.7' },
    });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.ip).toBe('127.0.0.1');
  });

  it('fills context.params from the route, a request id, a geo and the public URL; LAMBDA_TASK_ROOT is the project', async () => {
    const body = await (await fetch(`${server.url}/fixture/context/Some%20Name?x=1`)).json();
    expect(body.params).toEqual({ name: 'Some%20Name' });
    expect(body.requestId).toMatch(/^[0-9A-Z]{26}$/);
    expect(body.geo.country.code).toBe('US');
    expect(body.url).toBe(`${server.url}/fixture/context/Some%20Name?x=1`);
    expect(body.taskRoot).toBe(root);
  });

  it('passes binary bodies byte for byte and refuses bodies over the local cap with 413', async () => {
    const bytes = randomBytes(300_000);
    const res = await fetch(`${server.url}/fixture/context/bin`, { method: 'POST', headers: { 'content-type': 'image/jpeg' }, body: bytes });
    const body = await res.json();
    expect(body).toMatchObject({ method: 'POST', bodyBytes: bytes.length, bodySha256: createHash('sha256').update(bytes).digest('hex') });
    const tooBig = await fetch(`${server.url}/fixture/context/big`, { method: 'POST', body: Buffer.alloc(33 * 1024 * 1024) });
    expect(tooBig.status).toBe(413);
  });

  it('keeps one warm instance: later calls reach the same process', async () => {
    const pids = new Set<number>();
    for (let i = 0; i < 5; i++) pids.add((await (await fetch(`${server.url}/fixture/context/warm`)).json()).pid);
    expect(pids.size).toBe(1);
  });

  it('keeps the length of an answer, which a browser needs to seek in a video', async () => {
    const res = await fetch(`${server.url}/fixture/bytes`);
    expect(res.headers.get('content-length')).toBe('4096');
    expect((await res.arrayBuffer()).byteLength).toBe(4096);
  });

  it('sends a long answer to a slow reader without piling up listeners on the response', async () => {
    // The server waits for the socket to drain many times over a 24 MB answer read slowly, as a video player reads.
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', onWarning);
    try {
      const size = 24 * 1024 * 1024;
      const reader = (await fetch(`${server.url}/fixture/bytes?size=${size}`)).body!.getReader();
      let received = 0;
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        received += chunk.value.byteLength;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(received).toBe(size);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('streams a response as the function writes it', async () => {
    const release = path.join(tmp, 'stream-release');
    const res = await fetch(`${server.url}/fixture/stream?release=${encodeURIComponent(release)}`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('first')) text += decoder.decode((await reader.read()).value);
    expect(text).toBe('first\n'); // delivered while the function is still waiting
    writeFileSync(release, '');
    for (let r = await reader.read(); !r.done; r = await reader.read()) text += decoder.decode(r.value);
    expect(text).toBe('first\nsecond\n');
  });

  it('answers a background function with 202 at once and runs it on its own', async () => {
    const release = path.join(tmp, 'bg-release');
    const done = path.join(tmp, 'bg-done');
    const res = await fetch(`${server.url}/.netlify/functions/work-background`, { method: 'POST', body: JSON.stringify({ release, done }) });
    expect(res.status).toBe(202);
    expect(existsSync(done)).toBe(false); // answered before the work could finish
    writeFileSync(release, '');
    await waitFor(() => existsSync(done), 'the background function');
    expect(Number(readFileSync(done, 'utf8'))).toBeGreaterThan(0);
  });

  it('answers 500 when a function process dies mid-request, and starts a fresh one for the next request', async () => {
    const before = (await (await fetch(`${server.url}/fixture/crash`)).json()).pid;
    const crashed = await fetch(`${server.url}/fixture/crash?exit`);
    expect(crashed.status).toBe(500);
    expect(await crashed.text()).toBe('Internal Server Error'); // no stack trace or path leaks out
    const after = await fetch(`${server.url}/fixture/crash`);
    expect(after.status).toBe(200);
    expect((await after.json()).pid).not.toBe(before);
  });

  it('stops a function past its time limit instead of leaving it computing: the next request gets a fresh instance', async () => {
    const before = (await (await fetch(`${server.url}/fixture/busy`)).json()).pid;
    const stuck = await fetch(`${server.url}/fixture/busy?spin`);
    expect(stuck.status).toBe(504);
    const after = await fetch(`${server.url}/fixture/busy`);
    expect(after.status).toBe(200);
    expect((await after.json()).pid).not.toBe(before);
  });

  it('serves a function only at its own path: the default address of a routed function is not a function', async () => {
    expect((await fetch(`${server.url}/.netlify/functions/context`)).status).toBe(404);
    expect((await fetch(`${server.url}/fixture/nothing-here`)).status).toBe(404);
  });
});
