import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { resolveConfig } from '@netlify/config';
import { zipFunction, zipFunctions, type Config, type FunctionResult } from '@netlify/zip-it-and-ship-it';
import StreamZip from 'node-stream-zip';

/**
 * The functions as a Netlify deploy ships them: netlify.toml read by Netlify's own config loader, each
 * function zipped by Netlify's own bundler (`@netlify/zip-it-and-ship-it`, what the Netlify build runs),
 * and each archive measured against the platform's size limits.
 */

/**
 * A Netlify function is deployed as an AWS Lambda archive, so Lambda's code-size quotas bound it:
 * 50 MiB zipped (Netlify: "The function … is larger than the 50MB limit", github.com/netlify/build/issues/3554)
 * and 250 MiB unzipped ("Unzipped size must be smaller than 262144000 bytes",
 * docs.aws.amazon.com/lambda/latest/api/API_AccountLimit.html). Background functions are the same kind
 * of archive; they differ in run time (15 min) and payload (256 KB), not in size.
 */
export const NETLIFY_FUNCTION_LIMITS = {
  zippedBytes: 50 * 1024 * 1024,
  unzippedBytes: 262_144_000,
} as const;

/**
 * This project's own ceiling, with headroom under the platform's: a dependency bump or a traced file that
 * grows a bundle fails `npm test` (tests/integration/platform/deploy-bundle.test.ts) long before a deploy
 * would be refused.
 */
export const FUNCTION_BUDGET = {
  zippedBytes: 40 * 1024 * 1024,
  unzippedBytes: 200 * 1024 * 1024,
} as const;

export interface DeployBundle {
  name: string;
  background: boolean;
  zipPath: string;
  zippedBytes: number;
  unzippedBytes: number;
  /** Each file inside the archive with its unzipped size. */
  files: Array<{ path: string; bytes: number }>;
  /** Source files the bundler read (bundled or traced), relative to the project root. */
  inputs: string[];
}

/**
 * netlify.toml's `[functions]` blocks in the shape the Netlify build hands them to the bundler (the same
 * mapping as Netlify's local runtime, @netlify/functions-dev): file globs are relative to the project root.
 */
export async function netlifyFunctionsConfig(root: string): Promise<{ config: Config; functionsDir: string }> {
  const { config } = await resolveConfig({ cwd: root, repositoryRoot: root, context: 'production', offline: true });
  const functions = (config.functions ?? {}) as Record<string, Record<string, unknown>>;
  const zisiConfig: Config = {};
  for (const [pattern, value] of Object.entries(functions)) {
    zisiConfig[pattern] = {
      externalNodeModules: value.external_node_modules as string[] | undefined,
      includedFiles: value.included_files as string[] | undefined,
      includedFilesBasePath: root,
      ignoredNodeModules: value.ignored_node_modules as string[] | undefined,
      nodeBundler: value.node_bundler === 'esbuild' ? 'esbuild_zisi' : (value.node_bundler as Config[string]['nodeBundler']),
      schedule: value.schedule as string | undefined,
    };
  }
  return { config: zisiConfig, functionsDir: config.functionsDirectory ?? path.join(root, 'netlify/functions') };
}

async function measure(root: string, result: FunctionResult): Promise<DeployBundle> {
  const zip = new StreamZip.async({ file: result.path });
  try {
    const entries = Object.values(await zip.entries()).filter((e) => !e.isDirectory);
    return {
      name: result.name,
      background: result.name.endsWith('-background'),
      zipPath: result.path,
      zippedBytes: (await stat(result.path)).size,
      unzippedBytes: entries.reduce((sum, e) => sum + e.size, 0),
      files: entries.map((e) => ({ path: e.name, bytes: e.size })),
      inputs: (result.inputs ?? []).map((p) => path.relative(root, p)),
    };
  } finally {
    await zip.close();
  }
}

/** Functions a framework adapter wrote at build time (Astro's on-demand pages), which Netlify deploys too. */
async function frameworkFunctionDirs(root: string): Promise<string[]> {
  const dir = path.join(root, '.netlify/v1/functions');
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.some((e) => e.isFile()) ? [dir] : [];
}

/**
 * Zips the functions the way a Netlify deploy does, and measures each: by default every function, with those
 * the last `astro build` left in .netlify/v1/functions (the server function of the on-demand routes: the content
 * editor's /admin and its GitHub sign-in), in one bundler run as the Netlify build makes it. One run shares the
 * bundler's cache of traced files across functions: 23 functions take less than half the time of one run each.
 * With `names`, only those (one run each: the bundler has no filter).
 */
export async function bundleForDeploy(root: string, outDir: string, names?: readonly string[]): Promise<DeployBundle[]> {
  const { config, functionsDir } = await netlifyFunctionsConfig(root);
  const options = { basePath: root, repositoryRoot: root, config };
  const results = names
    ? await Promise.all(
        names.map(async (name) => {
          const result = await zipFunction(path.join(functionsDir, `${name}.mts`), outDir, options);
          if (!result) throw new Error(`No function ${name} in ${functionsDir}`);
          return result;
        }),
      )
    : await zipFunctions([functionsDir, ...(await frameworkFunctionDirs(root))], outDir, { ...options, parallelLimit: 2 });
  const bundles = await Promise.all(results.map((r) => measure(root, r)));
  return bundles.sort((a, b) => a.name.localeCompare(b.name));
}

type Sizes = Pick<DeployBundle, 'zippedBytes' | 'unzippedBytes'>;
const fits = (bundle: Sizes, limits: Sizes) => bundle.zippedBytes <= limits.zippedBytes && bundle.unzippedBytes <= limits.unzippedBytes;

/** Within what Netlify accepts. */
export const withinLimits = (bundle: Sizes): boolean => fits(bundle, NETLIFY_FUNCTION_LIMITS);
/** Within this project's budget (the gate in `npm test`). */
export const withinBudget = (bundle: Sizes): boolean => fits(bundle, FUNCTION_BUDGET);
