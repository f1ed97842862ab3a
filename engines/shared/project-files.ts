import path from 'node:path';

/**
 * Absolute path of a file by its path in the repository, for files the functions read at run time (fonts,
 * the colour reference library, a self-hosted model). On Netlify, `included_files` sit at their repository
 * paths under the function's root (LAMBDA_TASK_ROOT); the local server sets LAMBDA_TASK_ROOT to the
 * project root, and tests and scripts run from it. Never derive these from `import.meta.url`: bundling
 * moves the code, not the files.
 */
export function projectFile(repoPath: string): string {
  return path.join(process.env.LAMBDA_TASK_ROOT || process.cwd(), repoPath);
}
