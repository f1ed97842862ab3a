import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleForDeploy, type DeployBundle } from '../../../scripts/lib/functions/deploy';

// Two functions zipped exactly as a Netlify deploy zips them (Netlify's bundler, netlify.toml's settings):
// `health` imports the widest server graph (database, storage, image and video engines, chat, payments),
// `process-image` the colorizers. What ships must be production code only. Sizes: `npm run bench:deploy`.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let outDir: string;
let bundles: Map<string, DeployBundle>;

beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'lumora-deploy-test-'));
  bundles = new Map((await bundleForDeploy(root, outDir, ['health', 'process-image'])).map((b) => [b.name, b]));
});
afterAll(() => rm(outDir, { recursive: true, force: true }));

/** What a bundle ships: the project sources bundled into its code, and every file in the archive. */
const shipped = (name: string) => {
  const bundle = bundles.get(name)!;
  // npm packages the bundler traced but netlify.toml excludes are in `inputs` and not in the archive.
  return [...bundle.inputs.filter((p) => !p.startsWith('node_modules/')), ...bundle.files.map((f) => f.path)];
};

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

  it('ships the files read at run time only to the functions that read them', () => {
    const image = bundles.get('process-image')!.files.map((f) => f.path);
    const health = bundles.get('health')!.files.map((f) => f.path);
    expect(image).toContain('netlify/lib/media/fonts/DejaVuSans-Bold.ttf');
    expect(image).toContain('netlify/lib/image/reference/manifest.json');
    expect(image.some((p) => p.startsWith('node_modules/@ffmpeg-installer/linux-x64/'))).toBe(false);
    // Health runs `ffmpeg -version` to report whether the video tool works.
    expect(health).toContain('node_modules/@ffmpeg-installer/linux-x64/ffmpeg');
    expect(health.some((p) => p.startsWith('netlify/lib/image/reference/'))).toBe(false);
  });
});
