// The security review's probes, run over HTTP against the product as `npm start` serves it (a fresh embedded
// database, the site server with its function instances), as an attacker or a new visitor would run them.
// Prints JSON: what each probe got, and how long the refusals took.
// Run: npx tsx bench/hardening.ts   (or npm run bench -- hardening)
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { startEmbeddedServices } from '../scripts/platform/embedded/embedded-services';
import { startSiteServer } from '../scripts/platform/server';
import { uploadWatermarkSeed, watermarkOverlay, watermarkSeed } from '../engines/shared';
import { renderEmbedded, finishHostedVideo, ffmpegPath } from '../engines/video';
import { RESOLUTION_SHORT_SIDE } from '../src/lib/tool/video-modes';
import { WATERMARK } from '../src/lib/watermark-spec';
import { execFileSync } from 'node:child_process';
import { invertWhiteOverlay, overlayAlpha, photoLike, psnr, rawOf, videoFrameInversion, type Raw } from '../tests/support/watermark-attack';
import { syntheticOldPhoto } from './image';
import { jsonOnlyStdout } from './stdout';
import { hardeningTool } from './hardening-tool';
import { OWNER_SECRET_HEADER } from '../src/lib/tool/ownership';
import { benchChatDocuments } from './hardening-documents';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/** Frame `n` of an MP4 as a PNG (ffmpeg from the project's own dependency; from a file: it stops reading early). */
function framePng(mp4: Buffer, n: number): Buffer {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-bench-frame-'));
  try {
    const file = path.join(dir, 'clip.mp4');
    writeFileSync(file, mp4);
    return execFileSync(ffmpegPath(), ['-v', 'error', '-i', file, '-vf', `select='eq(n\\,${n})'`, '-vsync', '0', '-frames:v', '1', '-f', 'image2', '-c:v', 'png', 'pipe:1'], { maxBuffer: 64 * 1024 * 1024 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function videoPreviewProbe() {
  const seed = watermarkSeed('bench-video-item');
  const cheapest = Math.min(...Object.values(RESOLUTION_SHORT_SIDE));
  const embedded = await renderEmbedded(await photoLike(1280, 720), { prompt: 'zoom in slowly', mode: 'standard', watermarkText: WATERMARK.text, watermarkSeed: seed }, { parallax: false });
  const hosted = await finishHostedVideo(embedded.video, WATERMARK.text, { watermarkSeed: seed });
  const measure = async (r: { video: Buffer; preview: Buffer }) => {
    const { width = 0, height = 0 } = await sharp(framePng(r.preview, 0)).metadata();
    const overlay = await watermarkOverlay(width, height, WATERMARK.text, seed);
    const frames = [];
    for (const n of [10, 75, 140]) frames.push(await videoFrameInversion(framePng(r.preview, n), framePng(r.video, n), overlay, { width, height }));
    return {
      previewSize: [width, height],
      previewShortSideBelowCheapestPaid: Math.min(width, height) < cheapest,
      previewBytes: r.preview.length,
      cleanBytes: r.video.length,
      inversionPsnrMarkedDb: frames.map((f) => round(f.inversionPsnrMarkedDb)),
      previewPsnrUnmarkedDb: frames.map((f) => round(f.previewPsnrUnmarkedDb)),
      markedShare: round(frames[0]!.markedShare, 3),
    };
  };
  return { cheapestPaidShortSide: cheapest, embedded: await measure(embedded), hosted: await measure(hosted), target: { inversionPsnrMarkedDb: '≤ 22', previewShortSide: `< ${cheapest}` } };
}

async function previewOnProductionData() {
  const [{ default: checkout }, { query }, { forgetDatabaseRole }, { resetDeployState }] = await Promise.all([
    import('../netlify/functions/checkout.mts'),
    import('../netlify/lib/db'),
    import('../netlify/lib/db/role'),
    import('../netlify/lib/running-deploy'),
  ]);
  const payments = async () => Number((await query<{ n: number }>('select count(*)::int as n from payments'))[0]!.n);
  await query('delete from database_role');
  forgetDatabaseRole();
  resetDeployState();
  const saved = process.env.CONTEXT;
  process.env.CONTEXT = 'deploy-preview';
  try {
    const before = await payments();
    const res = await checkout(new Request('http://localhost/api/checkout', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId: 'basic-restoration' }], idempotencyKey: `bench-${randomUUID()}` }) }), { ip: '10.9.9.9' } as never);
    return { status: res.status, paymentsWritten: (await payments()) - before, target: { status: 503, paymentsWritten: 0 } };
  } finally {
    if (saved === undefined) delete process.env.CONTEXT;
    else process.env.CONTEXT = saved;
    await query(`insert into database_role (role) values ('non-production') on conflict do nothing`);
    forgetDatabaseRole();
  }
}

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
    return (await res.json()) as { transformationId: string; processedUrl: string; ownerSecret: string };
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
    const order = await (await post('/api/checkout', { items: [{ transformationId: item.transformationId, ownerSecret: item.ownerSecret }], idempotencyKey: `bench-${randomUUID()}` })).json();
    const clean = Buffer.from(await (await fetch(`${base}${order.downloads[0].url}`)).arrayBuffer());
    const alpha = await overlayAlpha(await watermarkOverlay(width, height, undefined, await uploadWatermarkSeed(photo)));
    const reference = await rawOf(clean, { width, height });
    const marked = (p: number) => alpha[p]! > 0;
    const watermark = {
      previewSize: [width, height],
      inversionPsnrMarkedDb: round(psnr(invertWhiteOverlay(await rawOf(preview), alpha), reference, marked)),
      previewPsnrMarkedDb: round(psnr(await rawOf(preview), reference, marked)),
      previewPsnrUnmarkedDb: round(psnr(await rawOf(preview), reference, (p) => !marked(p))),
      target: { inversionPsnrMarkedDb: '≤ 22' },
    };

    // 1b. Three uploads of one photo (two identical, one re-encoded): one layout, and their best combination.
    const photo2 = await photoLike(1000, 750, 11);
    const three = [];
    for (const bytes of [photo2, await sharp(photo2).jpeg({ quality: 90 }).toBuffer(), photo2]) {
      const up = await restore(bytes);
      three.push(Buffer.from(await (await fetch(new URL(up.processedUrl, base))).arrayBuffer()));
      if (three.length === 1) {
        const bought = await (await post('/api/checkout', { items: [{ transformationId: up.transformationId, ownerSecret: up.ownerSecret }], idempotencyKey: `bench-${randomUUID()}` })).json();
        three.push(Buffer.from(await (await fetch(`${base}${bought.downloads[0].url}`)).arrayBuffer()));
      }
    }
    const [firstPreview, bought2, ...others] = three as [Buffer, Buffer, Buffer, Buffer];
    const m2 = await sharp(firstPreview).metadata();
    const size2 = { width: m2.width!, height: m2.height! };
    const alpha2 = await overlayAlpha(await watermarkOverlay(size2.width, size2.height, undefined, await uploadWatermarkSeed(photo2)));
    const marked2 = (p: number) => alpha2[p]! > 0;
    const shown = await Promise.all([firstPreview, ...others].map((b) => rawOf(b)));
    const combined: Raw = { ...shown[0]!, data: Buffer.from(shown[0]!.data.map((v, i) => Math.min(v, shown[1]!.data[i]!, shown[2]!.data[i]!))) };
    const reference2 = await rawOf(bought2, size2);
    const boughtMeta = await sharp(bought2).metadata();
    const reuploads = {
      previewSize: [size2.width, size2.height],
      boughtSize: [boughtMeta.width, boughtMeta.height],
      // Against the first upload's preview, on its marked pixels: 'identical' when the previews are the same bytes.
      sameLayoutMarkedPsnrDb: others.map((_, i) => { const db = psnr(shown[i + 1]!, shown[0]!, marked2); return Number.isFinite(db) ? round(db) : 'identical'; }),
      combinedInversionPsnrMarkedDb: round(psnr(invertWhiteOverlay(combined, alpha2), reference2, marked2)),
      target: { combinedInversionPsnrMarkedDb: '≤ 22', previewLongSide: '< bought long side' },
    };

    // 1c. Video previews of both engines: the item's exact overlay solved away, frame by frame, vs the bought file.
    const video = await videoPreviewProbe();

    // 2. Heal work: the 59 KB corner-to-corner body on a 1 MP photo, then one spot.
    const mp = await restore(await syntheticOldPhoto(1));
    const marks = Array.from({ length: 64 }, () => ({ radius: 0.05, points: Array.from({ length: 64 }, (_, k) => ({ x: k % 2, y: k % 2 })) }));
    // The heal function's instance is started first (an answer without work), so the time is the refusal's own.
    await post(`/api/transformations/${randomUUID()}/heal`, { marks: [] });
    const mpOwner = { [OWNER_SECRET_HEADER]: mp.ownerSecret };
    const flood = await timed(async () => {
      const res = await post(`/api/transformations/${mp.transformationId}/heal`, { marks }, mpOwner);
      return { status: res.status, error: ((await res.json().catch(() => ({}))) as { error?: string }).error };
    });
    const spot = await timed(async () => (await post(`/api/transformations/${mp.transformationId}/heal`, { marks: [{ points: [{ x: 0.5, y: 0.5 }] }] }, mpOwner)).status);
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
    const status = await (await fetch(`${base}/api/transformations/${gpsItem.transformationId}`, { headers: { [OWNER_SECRET_HEADER]: gpsItem.ownerSecret } })).json();
    const original = Buffer.from(await (await fetch(new URL(status.originalImageUrl, base))).arrayBuffer());
    const location = { servedOriginalHasExif: (await sharp(original).metadata()).exif !== undefined, servedOriginalNamesCamera: original.includes('PhoneCo') };

    // 7. A CONTEXT=deploy-preview function on a database not declared non-production (production's, shared):
    // checkout refused, nothing written. Run in this process against the same embedded database.
    const previewCheckout = await previewOnProductionData();

    const tool = await hardeningTool(base, own);
    const chatDocuments = await benchChatDocuments(base);

    return { watermark, reuploads, video, previewCheckout, heal, crossSiteTextPlainCheckout: { status: crossSite.status }, checkoutsFromOneClient: checkouts, location, tool, chatDocuments };
  } finally {
    await server.close();
    await services.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const printJson = jsonOnlyStdout();
  printJson(await benchHardening());
}
