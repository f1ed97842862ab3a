import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForDeploy, FUNCTION_BUDGET, type DeployBundle } from '../../../scripts/platform/functions/deploy-bundles';

// Every function zipped exactly as a Netlify deploy zips them (Netlify's bundler, netlify.toml's settings),
// by the Node this test runs on: the `node` dev dependency's binary, as on a fresh install. What ships must
// be production code only, and fit the budget. Sizes are deterministic, so this is a gate, not a timing.
// `health` imports the widest server graph (database, storage, image and video engines, chat, payments),
// `process-image` the colorizers. Per-function sizes and their largest parts: `npm run bench:deploy`.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let outDir: string;
let bundles: Map<string, DeployBundle>;
const functionNames = (await readdir(path.join(root, 'netlify/functions')))
  .filter((f) => f.endsWith('.mts'))
  .map((f) => f.slice(0, -'.mts'.length));

// The server function @astrojs/netlify writes for the on-demand routes (the content editor's /admin and GitHub
// sign-in) exists only after `astro build`. It is bundled with the others from the build `npm test` has just made
// (Vitest runs the e2e project's global setup, an `astro build`, before any test file), so this gate adds no build
// of its own; run alone without a build (or after `astro check`/`astro dev`, which empty it), its checks are
// skipped (`npx astro build` first).
const built = (await readdir(path.join(root, '.netlify/v1/functions'), { recursive: true, withFileTypes: true }).catch(() => [])).some((e) => e.isFile());
let framework: DeployBundle[] = [];

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'lumora-deploy-test-'));
  // Every function in one bundler run, as a deploy makes it: about 13 s on a quiet 2-core machine.
  const all = await bundleForDeploy(root, outDir);
  bundles = new Map(all.map((b) => [b.name, b]));
  framework = all.filter((b) => !functionNames.includes(b.name));
}, 600_000);
afterAll(() => rm(outDir, { recursive: true, force: true }));

/** What a bundle ships: the project sources bundled into its code, and every file in the archive. */
const shipped = (name: string) => {
  const bundle = bundles.get(name)!;
  // npm packages the bundler traced but netlify.toml excludes are in `inputs` and not in the archive.
  return [...bundle.inputs.filter((p) => !p.startsWith('node_modules/')), ...bundle.files.map((f) => f.path)];
};

function expectWithinBudget({ zippedBytes, unzippedBytes, files }: DeployBundle): void {
  const MB = 1024 * 1024;
  const largest = files.toSorted((a, b) => b.bytes - a.bytes).slice(0, 3).map((f) => `${f.path} ${(f.bytes / MB).toFixed(1)} MB`);
  expect(zippedBytes / MB, `zipped; largest files: ${largest.join(', ')}`).toBeLessThanOrEqual(FUNCTION_BUDGET.zippedBytes / MB);
  expect(unzippedBytes / MB, `unzipped; largest files: ${largest.join(', ')}`).toBeLessThanOrEqual(FUNCTION_BUDGET.unzippedBytes / MB);
}

const NOT_FOR_PRODUCTION: Array<[string, RegExp]> = [
  ['PGlite', /@electric-sql\/pglite/],
  ['the PGlite socket server', /pglite-socket/],
  ['the embedded services (scripts/)', /^scripts\//],
  ['the local disk storage adapter', /^netlify\/lib\/storage\/local\.ts$/],
  ['test code', /^tests\/|\.test\.[cm]?[jt]sx?$/],
  ['the optional ONNX runtime (288 MB)', /onnxruntime-node/],
];

describe('function bundles for a Netlify deploy', () => {
  it.each(['health', 'process-image'])('%s ships no embedded-only or test code', (name) => {
    const paths = shipped(name);
    // The listing is real: the function's own server code is in it.
    expect(paths).toContain('netlify/lib/db/index.ts');
    expect(paths).toContain('netlify/lib/storage/supabase.ts');
    for (const [what, pattern] of NOT_FOR_PRODUCTION) {
      expect(paths.filter((p) => pattern.test(p)), what).toEqual([]);
    }
  });

  it.each(functionNames)('%s fits the budget (40 MB zipped, 200 MB unzipped)', (name) => {
    expectWithinBudget(bundles.get(name)!);
  });

  it('never ships the Node binary the bundler itself runs on', () => {
    // Netlify's tracer follows sharp's libc probe (detect-libc reads /proc/self/exe) to whatever Node runs
    // the bundler: under npm scripts that is node_modules/node/bin/node, 125 MB. netlify.toml excludes it.
    for (const [name, bundle] of bundles) {
      expect(bundle.files.filter((f) => f.path.startsWith('node_modules/node/')), name).toEqual([]);
    }
  });

  it('ships ffmpeg only to the functions that run it', () => {
    const withFfmpeg = [...bundles.values()]
      .filter((b) => b.files.some((f) => f.path.startsWith('node_modules/@ffmpeg-installer/')))
      .map((b) => b.name);
    expect(withFfmpeg.sort()).toEqual(['health', 'process-video', 'process-video-background']);
  });

  it('ships the files read at run time only to the functions that read them', () => {
    const image = bundles.get('process-image')!.files.map((f) => f.path);
    const health = bundles.get('health')!.files.map((f) => f.path);
    expect(image).toContain('netlify/lib/media/fonts/DejaVuSans-Bold.ttf');
    expect(image).toContain('engines/image/reference/manifest.json');
    expect(image.some((p) => p.startsWith('node_modules/@ffmpeg-installer/linux-x64/'))).toBe(false);
    // Health runs `ffmpeg -version` to report whether the video tool works.
    expect(health).toContain('node_modules/@ffmpeg-installer/linux-x64/ffmpeg');
    expect(health.some((p) => p.startsWith('engines/image/reference/'))).toBe(false);
  });

  it('ships the video functions the face and person models, TensorFlow.js and its wasm, and no other model', () => {
    for (const name of ['process-video', 'process-video-background']) {
      const files = bundles.get(name)!.files.map((f) => f.path);
      const models = files.filter((p) => p.startsWith('engines/vision/models/')).sort();
      expect(models, name).toEqual(['blazeface', 'facemesh', 'selfie'].flatMap((m) => [`engines/vision/models/${m}.bin`, `engines/vision/models/${m}.json`]));
      expect(files, name).toContain('node_modules/@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm-simd.wasm');
      for (const pkg of ['tfjs-core', 'tfjs-converter', 'tfjs-backend-wasm']) expect(files.some((p) => p.startsWith(`node_modules/@tensorflow/${pkg}/`)), pkg).toBe(true);
    }
    expect(bundles.get('health')!.files.some((f) => f.path.startsWith('engines/vision/models/'))).toBe(false);
  });

  it('ships the object detector to the video tab\'s defaults, which send its boxes on to the job', () => {
    const files = bundles.get('video-defaults')!.files.map((f) => f.path);
    expect(files).toContain('engines/vision/models/nanodet.json');
    expect(files).toContain('engines/vision/models/nanodet.bin');
    expect(files.some((p) => p.startsWith('node_modules/@ffmpeg-installer/linux-x64/'))).toBe(false);
  });
});

describe.skipIf(!built)('the server function of a site build (on-demand routes: the content editor)', () => {
  it('was built, and fits the budget (40 MB zipped, 200 MB unzipped)', () => {
    expect(framework.map((b) => b.name)).toEqual(['ssr']);
    for (const bundle of framework) expectWithinBudget(bundle);
  });

  it('ships neither the dev server’s file API nor an image resizer', () => {
    // decap-server and Express serve the editor's local files under `npm run dev` only; the build answers /_image
    // with a 404 (src/editor/image-endpoint.ts), so sharp and its native library stay out.
    const packages = /node_modules\/(decap-server|express|sharp|@img|decap-cms-[a-z-]+)\//;
    for (const bundle of framework) expect(bundle.files.map((f) => f.path).filter((p) => packages.test(p)), bundle.name).toEqual([]);
    for (const bundle of framework) {
      for (const [what, pattern] of NOT_FOR_PRODUCTION) expect(bundle.files.filter((f) => pattern.test(f.path)), what).toEqual([]);
    }
  });
});
