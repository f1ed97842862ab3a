import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from './command';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * A copy of the project's files (what git tracks or would track, without ignored build output or .env) with the
 * checkout's node_modules linked in. A dev server or a build there writes its own `.netlify/` (Astro's Netlify
 * adapter clears and rewrites it), so it never changes the build the other tests of the run read or serve.
 */
export function copyProject(prefix = 'lumora-copy-'): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), prefix));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: checkout, encoding: 'utf8' });
  for (const file of files.split('\0').filter(Boolean)) {
    cpSync(path.join(checkout, file), path.join(copy, file), { recursive: true, errorOnExist: false });
  }
  symlinkSync(path.join(checkout, 'node_modules'), path.join(copy, 'node_modules'), 'dir');
  return copy;
}

/** `astro build` of the project with another environment, into `outDir`, built in a copy (see copyProject). */
export async function buildSiteCopy(outDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const copy = copyProject('lumora-build-');
  try {
    await runCommand('npx', ['astro', 'build', '--outDir', outDir], { cwd: copy, env });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
