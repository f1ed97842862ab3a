// The security review's probes, run over HTTP against the product as `npm start` serves it (a fresh embedded
// database, the site server with its function instances), as an attacker or a new visitor would run them.
// Prints JSON: what each probe got, and how long the refusals took.
// Run: npx tsx bench/hardening.ts   (or npm run bench -- hardening)
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startEmbeddedServices } from '../scripts/embedded/embedded-services';
import { startSiteServer } from '../scripts/lib/server';
import { watermarkOverlay, watermarkSeed } from '../netlify/lib/media/watermark';
import { invertWhiteOverlay, overlayAlpha, photoLike, psnr, rawOf } from '../tests/support/watermark-attack';
import { syntheticOldPhoto } from './image';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

export async function benchHardening() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-bench-hardening-'));
  const services = await startEmbeddedServices({ dataDir });
  const server = await startSiteServer({ root: ROOT, port: 0 });
  const base = server.url;
  const own = { origin: base, 'sec-fetch-site': 'same-origin' };
  const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${url}`, { method: 'POST', headers: { 'content-type': 'application/json', ...own, ...headers }, body: JSON.stringify(body) });
  const restore = async (photo: Buffer, type = 'image/jpeg') => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(photo)], { type }), 'photo.jpg');
    form.append('model', 'sd-xl');
    form.append('prompt', 'Restore and colorize this photo');
    const res = await fetch(`${base}/api/process-image`, { method: 'POST', headers: own, body: form });
    if (!res.ok) throw new Error(`process-image answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { transformationId: string; processedUrl: string };
  };
  const timed = async <T>(work: () => Promise<T>) => {
    const start = performance.now();
    const value = await work();
    return { value, ms: round(performance.now() - start) };
  };
  try {
    // 1. The preview's watermark against the inversion, with the item's exact overlay, vs the bought file.
    const photo = await photoLike(1200, 900);
    const item = await restore(photo);
    const preview = Buffer.from(await (await fetch(new URL(item.processedUrl, base))).arrayBuffer());
    const { width = 0, height = 0 } = await sharp(preview).metadata();
    const order = await (await post('/api/checkout', { items: [{ transformationId: item.transformationId }], idempotencyKey: `bench-${randomUUID()}` })).json();
    const clean = Buffer.from(await (await fetch(`${base}${order.downloads[0].url}`)).arrayBuffer());
    const alpha = await overlayAlpha(await watermarkOverlay(width, height, undefined, watermarkSeed(item.transformationId)));
    const reference = await rawOf(clean, { width, height });
    const marked = (p: number) => alpha[p]! > 0;
    const watermark = {
      previewSize: [width, height],
      inversionPsnrMarkedDb: round(psnr(invertWhiteOverlay(await rawOf(preview), alpha), reference, marked)),
      previewPsnrMarkedDb: round(psnr(await rawOf(preview), reference, marked)),
      previewPsnrUnmarkedDb: round(psnr(await rawOf(preview), reference, (p) => !marked(p))),
      target: { inversionPsnrMarkedDb: '≤ 22' },
    };

    // 2. Heal work: the 59 KB corner-to-corner body on a 1 MP photo, then one spot.
    const mp = await restore(await syntheticOldPhoto(1));
    const marks = Array.from({ length: 64 }, () => ({ radius: 0.05, points: Array.from({ length: 64 }, (_, k) => ({ x: k % 2, y: k % 2 })) }));
    // The heal function's instance is started first (an answer without work), so the time is the refusal's own.
    await post(`/api/transformations/${randomUUID()}/heal`, { marks: [] });
    const flood = await timed(async () => {
      const res = await post(`/api/transformations/${mp.transformationId}/heal`, { marks });
      return { status: res.status, error: ((await res.json().catch(() => ({}))) as { error?: string }).error };
    });
    const spot = await timed(async () => (await post(`/api/transformations/${mp.transformationId}/heal`, { marks: [{ points: [{ x: 0.5, y: 0.5 }] }] })).status);
    const heal = { bodyBytes: JSON.stringify({ marks }).length, flood: { ...flood.value, ms: flood.ms }, oneSpotAfter: { status: spot.value, ms: spot.ms }, target: { floodRefusedMs: '< 100' } };

    // 3. A cross-site text/plain checkout, as another site's page can send without a CORS preflight.
    const crossSite = await fetch(`${base}/api/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: JSON.stringify({ items: [{ packageId: 'basic-restoration' }], idempotencyKey: `bench-${randomUUID()}` }),
    });

    // 4. 40 checkouts from one client, each to another recipient (the purchase in 1. was this client's first).
    const outbox = path.join(dataDir, 'outbox');
    const mails = () => { try { return readdirSync(outbox).length; } catch { return 0; } };
    const mailsBefore = mails();
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) {
      statuses.push((await post('/api/checkout', { items: [{ packageId: 'basic-restoration' }], idempotencyKey: `bench-${randomUUID()}`, email: `recipient${i}@example.com` })).status);
    }
    const checkouts = { answered200: statuses.filter((s) => s === 200).length, answered429: statuses.filter((s) => s === 429).length, mailsWritten: mails() - mailsBefore };

    // 6. A phone photo with GPS: what the status answer's originalImageUrl serves back.
    const gpsPhoto = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#808080' } })
      .withExifMerge({ IFD0: { Make: 'PhoneCo', Model: 'Snap 9' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1' } })
      .jpeg().toBuffer();
    const gpsItem = await restore(gpsPhoto);
    const status = await (await fetch(`${base}/api/transformations/${gpsItem.transformationId}`)).json();
    const original = Buffer.from(await (await fetch(new URL(status.originalImageUrl, base))).arrayBuffer());
    const location = { servedOriginalHasExif: (await sharp(original).metadata()).exif !== undefined, servedOriginalNamesCamera: original.includes('PhoneCo') };

    return { watermark, heal, crossSiteTextPlainCheckout: { status: crossSite.status }, checkoutsFromOneClient: checkouts, location };
  } finally {
    await server.close();
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(JSON.stringify(await benchHardening(), null, 2));
}
