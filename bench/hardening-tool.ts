// The tool's probes of `npm run bench -- hardening` (bench/hardening.ts calls `hardeningTool`), over HTTP against
// `npm start`'s server: work an image endpoint refuses before it starts, measured in the function's own process
// (each function runs in a child process of the site server, Netlify's runtime, scripts/platform/functions/instance.ts,
// so its CPU time is read from /proc: Linux; null elsewhere), and what an item's id gives a browser that did not
// make it. Run alone: npx tsx bench/hardening-tool.ts
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { OWNER_SECRET_HEADER } from '../src/lib/tool/ownership';
import { jsonOnlyStdout } from './stdout';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;
const TICK_MS = 1000 / 100; // USER_HZ: /proc counts CPU time in hundredths of a second on Linux

/** The pids of this process's children that run the named function (its bundle path is in their environment). */
function functionPids(name: string): number[] {
  const pids: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return pids;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const env = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').find((v) => v.startsWith('NETLIFY_PLAY_ENTRY_PATH='));
      if (env && env.split(/[\\/]/).includes(name)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/** CPU milliseconds (user + system) the named function's processes have used so far, or null without /proc. */
function functionCpuMs(name: string): number | null {
  const pids = functionPids(name);
  if (pids.length === 0) return null;
  let ticks = 0;
  for (const pid of pids) {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
  }
  return ticks * TICK_MS;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** One request's answer, wall time and the function process's CPU time for it. */
async function measured(fn: string, send: () => Promise<Response>) {
  const cpuBefore = functionCpuMs(fn);
  const start = performance.now();
  const res = await send();
  const body = (await res.json().catch(() => ({}))) as { error?: string; success?: boolean };
  const wallMs = round(performance.now() - start);
  const cpuAfter = functionCpuMs(fn);
  return { status: res.status, error: body.error ?? null, wallMs, cpuMs: cpuBefore === null || cpuAfter === null ? null : round(cpuAfter - cpuBefore) };
}

/**
 * The probes: a 129 KB PNG that declares 6324 × 6324 pixels (40 MP: what the restoration takes, far more than the
 * video tab's defaults need) sent to /api/video-defaults, and the same file as a colour reference photo; each
 * beside a normal request to the same warm function. Then an item's id used by another browser (no owner secret).
 * `base` is the running site; `own` the headers of its own pages.
 */
export async function hardeningTool(base: string, own: Record<string, string>) {
  const bomb = await sharp({ create: { width: 6324, height: 6324, channels: 3, background: '#808080' } }).png().toBuffer();
  const photo = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#8a7a66' } }).jpeg().toBuffer();
  const form = (bytes: Buffer, type: string, fields: Record<string, string> = {}) => {
    const f = new FormData();
    f.append('file', new Blob([new Uint8Array(bytes)], { type }), type === 'image/png' ? 'photo.png' : 'photo.jpg');
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return f;
  };
  const post = (url: string, body: FormData, headers: Record<string, string> = {}) => fetch(`${base}${url}`, { method: 'POST', headers: { ...own, ...headers }, body });

  // video-defaults: the instance is started and warmed by a normal photo first, so the figures are the requests' own.
  await post('/api/video-defaults', form(photo, 'image/jpeg'));
  const normals = [];
  for (let i = 0; i < 3; i++) normals.push(await measured('video-defaults', () => post('/api/video-defaults', form(photo, 'image/jpeg'))));
  const refused = await measured('video-defaults', () => post('/api/video-defaults', form(bomb, 'image/png')));
  const after = await measured('video-defaults', () => post('/api/video-defaults', form(photo, 'image/jpeg')));
  const normal = { status: normals[0]!.status, medianWallMs: median(normals.map((n) => n.wallMs)), medianCpuMs: normals.every((n) => n.cpuMs !== null) ? median(normals.map((n) => n.cpuMs!)) : null };

  // The same file as the colour reference of a grey result (the owner's own item).
  const grey = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#777777' } }).png().toBuffer();
  const made = await post('/api/process-image', form(grey, 'image/png', { model: 'sd-xl', prompt: 'Restore and colorize this photo' }));
  const item = (await made.json()) as { transformationId: string; ownerSecret?: string };
  const owner: Record<string, string> = item.ownerSecret ? { [OWNER_SECRET_HEADER]: item.ownerSecret } : {};
  const referenceUrl = `/api/transformations/${item.transformationId}/reference`;
  await post(referenceUrl, form(Buffer.from('warm-up'), 'image/jpeg'), owner);
  const reference = await measured('image-reference', () => post(referenceUrl, form(bomb, 'image/png'), owner));

  // Another browser with the item's id (from a shared preview link): the preview only.
  const other = { ...own };
  const id = item.transformationId;
  const ownership = {
    preview: (await fetch(`${base}/api/transformations/${id}/preview`, { redirect: 'manual' })).status,
    statusWithOriginal: (await fetch(`${base}/api/transformations/${id}`, { headers: other })).status,
    ownersStatus: (await fetch(`${base}/api/transformations/${id}`, { headers: owner })).status,
    heal: (await fetch(`${base}/api/transformations/${id}/heal`, { method: 'POST', headers: { 'content-type': 'application/json', ...other }, body: JSON.stringify({ marks: [] }) })).status,
    animate: (await fetch(`${base}/api/process-video`, { method: 'POST', headers: { 'content-type': 'application/json', ...other }, body: JSON.stringify({ fromImageId: id, prompt: 'Slowly zoom in on the subject', mode: 'standard', duration: 5 }) })).status,
    checkout: (await fetch(`${base}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json', ...other }, body: JSON.stringify({ items: [{ transformationId: id }], idempotencyKey: `bench-${crypto.randomUUID()}` }) })).status,
    target: { preview: 302, statusWithOriginal: 403, ownersStatus: 200, heal: 403, animate: 403, checkout: 403 },
  };

  return {
    uploads: {
      pngBytes: bomb.length,
      declaredSize: [6324, 6324],
      videoDefaults: { normal640: normal, refused6324: refused, normalAfter: after },
      colourReference: { refused6324: reference },
      target: { refusedStatus: '4xx before decoding', refusedCpuMs: '< 100' },
      note: 'CPU time of the function process (/proc utime + stime, 10 ms ticks); wall time on a host shared with other work',
    },
    ownership,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const printJson = jsonOnlyStdout();
  const { startEmbeddedServices } = await import('../scripts/platform/embedded/embedded-services');
  const { startSiteServer } = await import('../scripts/platform/server');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-bench-uploads-'));
  const services = await startEmbeddedServices({ dataDir });
  const server = await startSiteServer({ root: ROOT, port: 0 });
  try {
    printJson(await hardeningTool(server.url, { origin: server.url, 'sec-fetch-site': 'same-origin' }));
  } finally {
    await server.close();
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
