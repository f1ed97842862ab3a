// Local request overhead of `npm start`: the site server with its warm function instances, on a fresh
// embedded database. p50/p95 of GET /api/health and of a status read after the first call, and one 1 MP
// restore through POST /api/process-image against the same restore run in-process (the engine's own time).
// Run: npx tsx bench/local-server.ts [--quick]   (prints JSON)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmbeddedServices } from '../scripts/platform/embedded/embedded-services';
import { startSiteServer } from '../scripts/platform/server';
import { restoreAndColorize } from '../engines/image';
import { syntheticOldPhoto } from './image';
import { quantile } from './timing';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PROMPT = 'Restore this family photo';

const ms = (x: number) => Math.round(x * 10) / 10;

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function series(calls: number, fn: () => Promise<unknown>) {
  const first = await timed(fn);
  const times: number[] = [];
  for (let i = 0; i < calls; i++) times.push(await timed(fn));
  return { firstCallMs: ms(first), calls, p50Ms: ms(quantile(times, 0.5)), p95Ms: ms(quantile(times, 0.95)) };
}

async function ok(res: Promise<Response>): Promise<Response> {
  const r = await res;
  if (!r.ok) throw new Error(`${r.url}: HTTP ${r.status} ${await r.text()}`);
  return r;
}

export async function benchLocalServer({ quick = false } = {}) {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-bench-server-'));
  const services = await startEmbeddedServices({ dataDir });
  const server = await startSiteServer({ root: ROOT, port: 0 });
  try {
    const calls = quick ? 50 : 200;
    const restores = quick ? 3 : 5;
    const health = await series(calls, async () => (await ok(fetch(`${server.url}/api/health`))).arrayBuffer());

    const photo = await syntheticOldPhoto(1);
    const viaApi = async () => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'old.jpg');
      form.append('model', 'sd-xl');
      form.append('prompt', PROMPT);
      return (await (await ok(fetch(`${server.url}/api/process-image`, { method: 'POST', body: form }))).json()) as { transformationId: string };
    };
    const { transformationId } = await viaApi(); // warms the instance and gives a row to read
    const status = await series(calls, async () => (await ok(fetch(`${server.url}/api/transformations/${transformationId}`))).arrayBuffer());

    await restoreAndColorize(photo, { model: 'sd-xl', prompt: PROMPT }); // warm-up in this process too
    const engine: number[] = [];
    const api: number[] = [];
    for (let i = 0; i < restores; i++) {
      engine.push(await timed(() => restoreAndColorize(photo, { model: 'sd-xl', prompt: PROMPT })));
      api.push(await timed(viaApi));
    }
    const engineP50 = quantile(engine, 0.5);
    const apiP50 = quantile(api, 0.5);
    return {
      healthGet: health,
      statusRead: status,
      restore1MP: { runs: restores, engineP50Ms: Math.round(engineP50), apiP50Ms: Math.round(apiP50), overheadMs: Math.round(apiP50 - engineP50) },
      targets: { overheadP50Ms: 30, overheadP95Ms: 100, restoreOverheadMs: 150 },
    };
  } finally {
    await server.close();
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchLocalServer({ quick: process.argv.includes('--quick') }), null, 2));
}
