/**
 * Function bundle sizes as a Netlify deploy ships them: every function zipped by Netlify's own bundler with
 * netlify.toml's settings, each archive's zipped and unzipped bytes against the platform's limits, and the
 * biggest contributors (so a size jump names its cause).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { bundleForDeploy, FUNCTION_BUDGET, NETLIFY_FUNCTION_LIMITS, withinBudget, withinLimits, type DeployBundle } from '../scripts/platform/functions/deploy-bundles';

const MB = 1024 * 1024;
const mb = (bytes: number) => Math.round((bytes / MB) * 100) / 100;

/** `node_modules/@scope/name` or the first two path segments: what a file in the archive belongs to. */
function owner(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'node_modules') return parts.slice(0, parts[1]?.startsWith('@') ? 3 : 2).join('/');
  return parts.length > 2 ? parts.slice(0, 3).join('/') : file;
}

function row(bundle: DeployBundle) {
  const byOwner = new Map<string, number>();
  for (const file of bundle.files) byOwner.set(owner(file.path), (byOwner.get(owner(file.path)) ?? 0) + file.bytes);
  return {
    name: bundle.name,
    background: bundle.background,
    zippedMB: mb(bundle.zippedBytes),
    unzippedMB: mb(bundle.unzippedBytes),
    zippedShareOfLimit: Math.round((bundle.zippedBytes / NETLIFY_FUNCTION_LIMITS.zippedBytes) * 1000) / 1000,
    files: bundle.files.length,
    largest: [...byOwner].sort((a, b) => b[1] - a[1]).slice(0, 3).map(([what, bytes]) => ({ what, unzippedMB: mb(bytes) })),
    withinLimits: withinLimits(bundle),
    withinBudget: withinBudget(bundle),
  };
}

export async function benchDeploy(root: string, names?: string[]) {
  const outDir = await mkdtemp(path.join(os.tmpdir(), 'lumora-deploy-'));
  const started = performance.now();
  try {
    const bundles = await bundleForDeploy(root, outDir, names);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    const rows = bundles.map(row);
    return {
      bundler: '@netlify/zip-it-and-ship-it with netlify.toml',
      limits: {
        zippedMB: mb(NETLIFY_FUNCTION_LIMITS.zippedBytes),
        unzippedMB: mb(NETLIFY_FUNCTION_LIMITS.unzippedBytes),
        sources: ['https://github.com/netlify/build/issues/3554', 'https://docs.aws.amazon.com/lambda/latest/api/API_AccountLimit.html'],
      },
      budget: { zippedMB: mb(FUNCTION_BUDGET.zippedBytes), unzippedMB: mb(FUNCTION_BUDGET.unzippedBytes) },
      seconds,
      functions: rows,
      largestZippedMB: Math.max(...rows.map((r) => r.zippedMB)),
      largestUnzippedMB: Math.max(...rows.map((r) => r.unzippedMB)),
      allWithinLimits: rows.every((r) => r.withinLimits),
      allWithinBudget: rows.every((r) => r.withinBudget),
    };
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
}
