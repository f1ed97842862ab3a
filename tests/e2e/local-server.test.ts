import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { NetlifyDev } from '@netlify/dev';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { netlifyDevOptions } from '../../scripts/platform/server';
import { copyProject } from '../../scripts/tools/project-copy';
import { baseUrl } from './harness';

// The server `npm start` runs (started by global-setup): its functions answer at production speed, under
// load, and the same way Netlify's own emulator answers them.

describe('local server functions', () => {
  it('answers 50 concurrent calls to one function correctly', async () => {
    // 50 status reads at once (tool-upload grants are rate-limited per client now): every one answered
    // by the function itself, none a 500 from a half-built bundle or a dropped connection.
    const ids = Array.from({ length: 50 }, () => crypto.randomUUID());
    const answers = await Promise.all(
      ids.map(async (id) => {
        const res = await fetch(`${baseUrl()}/api/transformations/${id}`);
        return { status: res.status, body: (await res.json()) as { success: boolean; error: string } };
      }),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(50).fill(404));
    for (const { body } of answers) expect(body).toEqual({ success: false, error: expect.any(String) });
    expect(new Set(answers.map((a) => a.body.error)).size).toBe(1);
  });

  describe("gives the same answers as Netlify's emulator (which bundled the function for every call)", () => {
    let emulator: NetlifyDev;
    let copy: string;
    beforeAll(async () => {
      Object.assign(process.env, inject('platformEnv'));
      // The emulator bundles every function of its project at the first request (the image and video ones
      // trace large libraries): it runs in a copy of the project holding only the functions compared here.
      copy = copyProject('lumora-emulator-');
      const functionsDir = path.join(copy, 'netlify/functions');
      const compared = new Set(cases.map((c) => `${c.fn}.mts`));
      for (const file of readdirSync(functionsDir)) if (!compared.has(file)) rmSync(path.join(functionsDir, file));
      emulator = new NetlifyDev(netlifyDevOptions(copy, { functions: true }));
      await emulator.start();
    });
    afterAll(async () => {
      await emulator?.stop();
      if (copy) rmSync(copy, { recursive: true, force: true });
    });

    // Answers that do not depend on time or random ids; binary bodies are left out because the emulator
    // corrupted them (it decoded every non-text body as base64).
    // `fn`: the function (netlify/functions/<fn>.mts) that answers the path.
    const cases: { name: string; fn: string; path: string; init?: RequestInit }[] = [
      { name: 'health', fn: 'health', path: '/api/health' },
      { name: 'bad id', fn: 'transformations', path: '/api/transformations/not-an-id' },
      { name: 'unknown id', fn: 'transformations', path: '/api/transformations/00000000-0000-4000-8000-000000000000' },
      { name: 'unknown preview', fn: 'transformations', path: '/api/transformations/00000000-0000-4000-8000-000000000000/preview' },
      { name: 'wrong method', fn: 'checkout', path: '/api/checkout', init: { method: 'PUT' } },
      { name: 'invalid checkout', fn: 'checkout', path: '/api/checkout', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"items":[]}' } },
      { name: 'bad JSON', fn: 'tool-uploads', path: '/api/tool-uploads', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' } },
      { name: 'unknown order', fn: 'orders', path: '/api/orders/abc?token=x' },
      { name: 'forbidden download', fn: 'downloads', path: '/api/downloads/00000000-0000-4000-8000-000000000000?token=x' },
      { name: 'chat models', fn: 'chat-models', path: '/api/chat/models' },
      { name: 'form post redirect', fn: 'newsletter', path: '/api/newsletter', init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'email=not-an-address' } },
    ];
    // Transport headers differ by nature; `x-nf-*` answer headers are the platform's own bookkeeping (the
    // emulator's Lambda bootstrap adds its invocation metadata and start time), not the function's answer.
    const volatileHeaders = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
    const snapshot = async (res: Response) => ({
      status: res.status,
      headers: Object.fromEntries([...res.headers].filter(([k]) => !volatileHeaders.has(k) && !k.startsWith('x-nf-'))),
      body: (await res.text()).replace(/"time":"[^"]+"/, '"time":"…"'),
    });

    for (const { name, path: p, init } of cases) {
      it(name, async () => {
        const ours = await snapshot(await fetch(`${baseUrl()}${p}`, { ...init, redirect: 'manual' }));
        const theirs = await emulator.handle(new Request(`${baseUrl()}${p}`, init));
        expect(theirs).toBeDefined();
        expect(ours).toEqual(await snapshot(theirs!));
        // The emulator bundles the function on every call (its first bundle of a function that pulls in a
        // large library takes tens of seconds on a loaded machine): the reference is slow, not our server.
      }, 180_000);
    }
  });
});
