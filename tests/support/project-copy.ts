import { rmSync } from 'node:fs';
import { copyProject } from '../../scripts/tools/project-copy';
import { runCommand } from './command';

/** `astro build` of the project with another environment, into `outDir`, built in a copy (see copyProject). */
export async function buildSiteCopy(outDir: string, env: NodeJS.ProcessEnv): Promise<void> {
  const copy = copyProject('lumora-build-');
  try {
    await runCommand('npx', ['astro', 'build', '--outDir', outDir], { cwd: copy, env });
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
}
