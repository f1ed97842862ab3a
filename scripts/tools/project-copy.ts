import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const checkout = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Tool caches that live in node_modules (Astro's content store and image cache, Vite's dependency cache). */
const CACHE_DIRS = new Set(['.astro', '.vite']);

/**
 * A copy of the project's files (what git tracks or would track, without ignored build output or .env) with the
 * checkout's node_modules linked in. A dev server, a build or `astro check` there writes its own `.netlify/` and
 * `.astro/` (Astro's Netlify adapter clears and rewrites `.netlify/`), so it never changes the build that tests
 * running at the same time read or serve.
 *
 * The caches in node_modules are shared by default: a build in the copy reuses the images the checkout's build
 * already optimised. `ownCaches` gives the copy its own instead (node_modules becomes a folder of links to each
 * package), for a command whose content sync must not write the store a build in the checkout is reading.
 */
export function copyProject(prefix = 'lumora-copy-', { ownCaches = false } = {}): string {
  const copy = mkdtempSync(path.join(os.tmpdir(), prefix));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: checkout, encoding: 'utf8' });
  for (const file of files.split('\0').filter(Boolean)) {
    // A tracked file deleted from the working tree (not yet committed) is not part of the project any more.
    if (existsSync(path.join(checkout, file))) cpSync(path.join(checkout, file), path.join(copy, file), { recursive: true, errorOnExist: false });
  }
  const modules = path.join(checkout, 'node_modules');
  if (!ownCaches) {
    symlinkSync(modules, path.join(copy, 'node_modules'), 'dir');
    return copy;
  }
  mkdirSync(path.join(copy, 'node_modules'));
  for (const entry of readdirSync(modules)) {
    if (!CACHE_DIRS.has(entry)) symlinkSync(path.join(modules, entry), path.join(copy, 'node_modules', entry));
  }
  return copy;
}
