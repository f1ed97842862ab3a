import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import type { LocalFunction } from './catalog';

/**
 * Bundles every function once, the way Netlify's bundler lays a function out: the project's own code in one
 * ESM file at `{name}/netlify/functions/{name}.mjs` (so paths taken from `import.meta.url` resolve as on a
 * deploy), npm packages left external and resolved from node_modules. All functions in one esbuild run
 * (about 0.1 s), against ~3 s per call when the emulator rebuilt a function for every request.
 */
// Same prelude as Netlify's ESM bundles: CommonJS-style `require` for packages that still use it.
const BANNER = 'import {createRequire as ___nfyCreateRequire} from "module";\nlet require=___nfyCreateRequire(import.meta.url);';
// What only the embedded setup runs (the local disk storage adapter), evaluated before each function's code.
const EMBEDDED_ADAPTERS = fileURLToPath(new URL('../embedded/local-storage.ts', import.meta.url));

function buildOptions(functions: readonly LocalFunction[], outDir: string): esbuild.BuildOptions {
  return {
    entryPoints: Object.fromEntries(functions.map((f) => [`${f.name}/netlify/functions/${f.name}`, f.mainFile])),
    outdir: outDir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    sourcemap: 'linked',
    banner: { js: BANNER },
    inject: [EMBEDDED_ADAPTERS],
    logLevel: 'warning',
  };
}

function entryPaths(functions: readonly LocalFunction[], outDir: string): Map<string, string> {
  return new Map(functions.map((f) => [f.name, path.join(outDir, f.name, 'netlify/functions', `${f.name}.mjs`)]));
}

export async function bundleFunctions(functions: readonly LocalFunction[], outDir: string): Promise<Map<string, string>> {
  await esbuild.build(buildOptions(functions, outDir));
  return entryPaths(functions, outDir);
}

const digest = async (file: string) => createHash('sha1').update(await readFile(file).catch(() => '')).digest('hex');

/**
 * Watch mode (`npm run dev`): esbuild rebuilds on every change to a function's sources; `onChange` gets the
 * names whose bundle actually changed, so only those instances restart.
 */
export async function watchFunctions(
  functions: readonly LocalFunction[],
  outDir: string,
  onChange: (names: string[]) => void,
): Promise<{ entries: Map<string, string>; stop(): Promise<void> }> {
  const entries = entryPaths(functions, outDir);
  const hashes = new Map<string, string>();
  let first = true;
  const ctx = await esbuild.context({
    ...buildOptions(functions, outDir),
    plugins: [
      {
        name: 'lumora:changed-functions',
        setup(build) {
          build.onEnd(async (result) => {
            if (result.errors.length > 0) return;
            const changed: string[] = [];
            for (const [name, file] of entries) {
              const hash = await digest(file);
              if (hashes.get(name) !== hash) changed.push(name);
              hashes.set(name, hash);
            }
            if (!first && changed.length > 0) onChange(changed);
            first = false;
          });
        },
      },
    ],
  });
  await ctx.rebuild();
  await ctx.watch();
  return { entries, stop: () => ctx.dispose() };
}
