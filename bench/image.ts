// Image engine benchmark: speed and peak memory of restore+colorize at 1, 4 and 12 MP, and quality
// on the shared old-photo fixtures (../shared/fixtures/photos, scored as its README defines).
// Run: npx tsx bench/image.ts [--quick] [--speed | --quality [--only=cat,parrot]]   (prints JSON). Only this benchmark reads the fixtures.
import sharp from 'sharp';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { restoreAndColorize } from '../netlify/lib/image/pipeline';
import { exemplarColorizer } from '../netlify/lib/image/exemplar';
import { onnxColorizer, onnxModelAvailable } from '../netlify/lib/image/onnx';
import { replicateColorizer, replicateConfig } from '../netlify/lib/image/replicate-colorizer';
import type { Colorizer } from '../netlify/lib/image/colorizer';
import type { ImageModel } from '../src/lib/tool/image-schema';
import { damageRemoval, detectionScore, scoreImage, type Scores } from './metrics';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURES = path.resolve(ROOT, '../shared/fixtures/photos');

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};
const round = (x: number, d = 4) => Math.round(x * 10 ** d) / 10 ** d;

/** A synthetic "old photo" of about `mp` megapixels: soft shapes, gradients, grain, scratches, JPEG. */
export async function syntheticOldPhoto(mp: number): Promise<Buffer> {
  const w = Math.round(Math.sqrt(mp * 1e6 * 4 / 3)), h = Math.round(w * 3 / 4);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="sky" x1="0" y1="0" x2="0" y2="1"><stop offset="0" stop-color="#ddd"/><stop offset="1" stop-color="#888"/></linearGradient></defs>
    <rect width="100%" height="100%" fill="url(#sky)"/>
    <rect y="${h * 0.6}" width="100%" height="${h * 0.4}" fill="#555"/>
    <circle cx="${w * 0.3}" cy="${h * 0.5}" r="${h * 0.2}" fill="#333"/>
    <rect x="${w * 0.55}" y="${h * 0.3}" width="${w * 0.25}" height="${h * 0.45}" fill="#aaa"/>
    <line x1="${w * 0.1}" y1="0" x2="${w * 0.15}" y2="${h}" stroke="#fff" stroke-width="${Math.max(1, w / 1500)}"/>
    <line x1="${w * 0.7}" y1="0" x2="${w * 0.62}" y2="${h}" stroke="#111" stroke-width="${Math.max(1, w / 2000)}"/>
  </svg>`;
  return sharp(Buffer.from(svg)).greyscale().blur(1).toColourspace('srgb')
    .composite([{ input: { create: { width: w, height: h, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 12 } } }, blend: 'overlay' }])
    .jpeg({ quality: 88 }).toBuffer();
}

async function speed(mps: number[], runs: number, model: ImageModel) {
  const out: Record<string, unknown> = {};
  for (const mp of mps) {
    const input = await syntheticOldPhoto(mp);
    const times: number[] = [];
    let last: Awaited<ReturnType<typeof restoreAndColorize>> | null = null;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      last = await restoreAndColorize(input, { model });
      times.push(performance.now() - t0);
    }
    // The kernel's high-water mark (KiB): catches peaks inside synchronous passes that polling would miss.
    // Sizes run in increasing order, so each size's figure is the peak up to and including it.
    const peak = process.resourceUsage().maxRSS * 1024;
    out[`${mp}MP`] = {
      width: last!.width, height: last!.height, runs,
      p50Ms: Math.round(quantile(times, 0.5)), p95Ms: Math.round(quantile(times, 0.95)),
      peakRssMB: Math.round(peak / 2 ** 20),
      stepsMs: Object.fromEntries(Object.entries(last!.timings).map(([k, v]) => [k, Math.round(v)])),
    };
  }
  return out;
}

async function rgbAt(buf: Buffer, w: number, h: number): Promise<Uint8Array> {
  return sharp(buf).rotate().removeAlpha().toColourspace('srgb').resize(w, h, { fit: 'fill' }).raw().toBuffer();
}

/**
 * How the buyer's colour reference photo is simulated from a fixture's colour original: `same` is the photo
 * itself (the best case), `reframed` a mirrored 70 % crop of it (another shot of the same scene, framed
 * differently). Both at most 1024 px, as the browser sends a reference.
 */
export type ReferenceCase = 'same' | 'reframed';
async function referenceFor(truth: Buffer, kind: ReferenceCase): Promise<Buffer> {
  const img = sharp(truth);
  if (kind === 'reframed') {
    const { width = 0, height = 0 } = await img.metadata();
    img.flop().extract({ left: 0, top: Math.round(height * 0.3), width: Math.round(width * 0.7), height: Math.round(height * 0.7) });
  }
  return img.resize(1024, 1024, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 90 }).toBuffer();
}

/** `--only=cat,parrot`: score just these fixtures (a quick loop while tuning). */
export function onlyFlag(argv: string[]): string[] | undefined {
  return argv.find((a) => a.startsWith('--only='))?.slice(7).split(',').filter(Boolean);
}

/** Fixture names (optionally only those listed in `only`), sorted. */
function fixtureNames(only?: string[]): string[] {
  const names = readdirSync(path.join(FIXTURES, 'input')).filter((f) => /\.(jpe?g|png)$/i.test(f)).sort();
  return only?.length ? names.filter((f) => only.includes(f.replace(/\.[^.]+$/, ''))) : names;
}

async function greyAt(file: string, w: number, h: number): Promise<Uint8Array> {
  const { data, info } = await sharp(file).resize(w, h, { fit: 'fill', kernel: 'nearest' }).raw().toBuffer({ resolveWithObject: true });
  return info.channels === 1 ? data : data.filter((_, i) => i % info.channels === 0);
}

async function quality(colorizer: Colorizer, model: ImageModel, reference?: ReferenceCase, only?: string[]) {
  const baseline = JSON.parse(readFileSync(path.join(FIXTURES, 'baseline.json'), 'utf8')) as { images: (Scores & { name: string })[] };
  const names = fixtureNames(only);
  const images: Record<string, unknown>[] = [];
  const sums: Record<string, number> = {};
  let beatSsim = 0, beatDe = 0, removed90 = 0;
  for (const file of names) {
    const name = file.replace(/\.[^.]+$/, '');
    const truthBuf = readFileSync(path.join(FIXTURES, 'truth', `${name}.png`));
    const inputBuf = readFileSync(path.join(FIXTURES, 'input', file));
    const { width = 0, height = 0 } = await sharp(truthBuf).metadata();
    let detected: Uint8Array | null = null;
    const ref = reference && (await referenceFor(truthBuf, reference));
    const res = await restoreAndColorize(inputBuf, {
      model, colorizer, reference: ref,
      onDamageMask: (m, mw, mh) => { detected = mw === width && mh === height ? m.slice() : nearestResize(m, mw, mh, width, height); },
    });
    const [out, truth, input] = await Promise.all([rgbAt(res.image, width, height), rgbAt(truthBuf, width, height), rgbAt(inputBuf, width, height)]);
    const damage = await greyAt(path.join(FIXTURES, 'damage', `${name}.png`), width, height);
    const s = scoreImage(out, truth, width, height);
    const rm = damageRemoval(out, input, truth, damage, width, height);
    // The filling's ceiling: the same pipeline given the painted strokes' bodies (mask ≥ 64) instead of detecting them.
    const { width: iw = 0, height: ih = 0 } = await sharp(inputBuf).metadata();
    const strokes = Uint8Array.from(damage, (v) => (v >= 64 ? 1 : 0));
    const knownDamage = iw === width && ih === height ? strokes : nearestResize(strokes, width, height, iw, ih);
    const known = await restoreAndColorize(inputBuf, { model, colorizer, reference: ref, knownDamage });
    const ceiling = damageRemoval(await rgbAt(known.image, width, height), input, truth, damage, width, height).removal;
    const det = detected ? detectionScore(detected, damage, width, height) : null;
    const base = baseline.images.find((b) => b.name === name);
    const better = base ? { ssim: s.ssim > base.ssim, deltaE2000: s.deltaE2000 < base.deltaE2000 } : null;
    if (better?.ssim) beatSsim++;
    if (better?.deltaE2000) beatDe++;
    if (rm.removal >= 0.9) removed90++;
    for (const [k, v] of Object.entries({ ...s, removal: rm.removal, removalWithTrueMask: ceiling, ...(det ?? {}) })) sums[k] = (sums[k] ?? 0) + v;
    images.push({
      name, tone: res.tone, method: res.method,
      removal: round(rm.removal, 3), removalWithTrueMask: round(ceiling, 3), damagedPixels: rm.damagedPixels,
      detector: det && Object.fromEntries(Object.entries(det).map(([k, v]) => [k, round(v, 3)])),
      ...Object.fromEntries(Object.entries(s).map(([k, v]) => [k, round(v)])),
      baseline: base ? { removal: 0, ssim: base.ssim, deltaE2000: base.deltaE2000 } : null, better,
    });
  }
  const mean = Object.fromEntries(Object.entries(sums).map(([k, v]) => [k, round(v / names.length)]));
  const ratio = sums.colourfulnessOutput / sums.colourfulnessTruth;
  const meanBase = (k: 'ssim' | 'deltaE2000') => round(names.reduce((p, f) => p + (baseline.images.find((b) => b.name === f.replace(/\.[^.]+$/, ''))?.[k] ?? 0), 0) / names.length);
  return {
    count: names.length, mean, baselineMean: { removal: 0, ssim: meanBase('ssim'), deltaE2000: meanBase('deltaE2000') }, colourfulnessRatio: round(ratio),
    table: images.map((i) => {
      const d = i.detector as { precision: number; recall: number } | null, b = i.baseline as { ssim: number; deltaE2000: number } | null;
      return `${String(i.name).padEnd(19)} removal ${(100 * (i.removal as number)).toFixed(0).padStart(4)} % (true mask ${(100 * (i.removalWithTrueMask as number)).toFixed(0).padStart(4)} %)  SSIM ${(i.ssim as number).toFixed(4)} (input ${b?.ssim.toFixed(4)})  ΔE2000 ${(i.deltaE2000 as number).toFixed(2)} (input ${b?.deltaE2000.toFixed(2)})  P ${d ? (100 * d.precision).toFixed(0) : '-'} % R ${d ? (100 * d.recall).toFixed(0) : '-'} %`;
    }),
    targets: {
      removalAtLeast90: `${removed90}/${names.length}`,
      meanRemovalAtLeast95: (sums.removal ?? 0) / names.length >= 0.95,
      ssimBetterOnEvery: `${beatSsim}/${names.length}`,
      deltaE2000BetterOnEvery: `${beatDe}/${names.length}`,
      colourfulnessWithin30pct: Math.abs(ratio - 1) <= 0.3,
    },
    images,
  };
}

/** Nearest-neighbour resampling of a 0/1 mask. */
function nearestResize(m: Uint8Array, w: number, h: number, W: number, H: number): Uint8Array {
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) out[y * W + x] = m[Math.min(h - 1, Math.floor(((y + 0.5) * h) / H)) * w + Math.min(w - 1, Math.floor(((x + 0.5) * w) / W))];
  return out;
}

export async function benchImage(opts: { quick?: boolean; only?: string[] } = {}) {
  const cores = Number(process.env.BENCH_IMAGE_CONCURRENCY) || 2;
  sharp.concurrency(cores);
  const result: Record<string, unknown> = {
    machine: { sharpConcurrency: cores, node: process.version },
    speed: await speed(opts.quick ? [1] : [1, 4, 12], opts.quick ? 2 : 5, 'sd-xl'),
  };
  if (!existsSync(path.join(FIXTURES, 'input'))) {
    result.quality = { skipped: `fixtures not found at ${FIXTURES}: damage removal, SSIM, CIEDE2000 and detector precision/recall not measured` };
    return result;
  }
  const q: Record<string, unknown> = { fixtures: FIXTURES };
  q.exemplar = await quality(exemplarColorizer(), 'sd-xl', undefined, opts.only);
  // The colour reference photo feature: not automatic, so not the targets' method; it shows what a buyer's
  // own colour photo of the scene brings.
  q.referencePhoto = { same: await quality(exemplarColorizer(), 'sd-xl', 'same'), reframed: await quality(exemplarColorizer(), 'sd-xl', 'reframed') };
  q.onnx = onnxModelAvailable() ? await quality(onnxColorizer(), 'sd-xl') : { skipped: 'no ONNX model (set COLORIZER_ONNX_MODEL or run npm run models:fetch)' };
  const rep = replicateConfig();
  q.replicate = rep ? await quality(replicateColorizer(rep), 'sd-xl') : { skipped: 'Replicate not configured (REPLICATE_API_TOKEN + REPLICATE_COLORIZER_VERSION or _MODEL)' };
  result.quality = q;
  return result;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const quick = process.argv.includes('--quick');
  const qualityOnly = process.argv.includes('--quality');
  const only = onlyFlag(process.argv);
  if (process.argv.includes('--speed')) {
    sharp.concurrency(Number(process.env.BENCH_IMAGE_CONCURRENCY) || 2);
    console.log(JSON.stringify(await speed(quick ? [12] : [1, 4, 12], quick ? 3 : 5, 'sd-xl'), null, 2));
  } else if (qualityOnly) {
    sharp.concurrency(2);
    if (!existsSync(path.join(FIXTURES, 'input'))) {
      console.log(JSON.stringify({ skipped: `fixtures not found at ${FIXTURES}` }));
      process.exit(0);
    }
    const reference = process.argv.find((a) => a.startsWith('--reference='))?.slice(12) as ReferenceCase | undefined;
    console.log(JSON.stringify(await quality(exemplarColorizer(), (process.env.BENCH_MODEL as ImageModel) || 'sd-xl', reference, only), null, 2));
  } else {
    console.log(JSON.stringify(await benchImage({ quick, only }), null, 2));
  }
}
