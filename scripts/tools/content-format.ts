/**
 * `npm run content:format`: rewrites every page and blog post in the form the content editor writes
 * (src/editor/mdx-file.ts), so that a later save from the editor changes only what the author changed.
 * Run it after editing frontmatter by hand; the data is the same, only the layout of the YAML changes.
 * `npm run content:format -- --check` lists the files not in that form and exits 1 (nothing is written).
 */
import { readFile, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_COLLECTIONS } from '../../src/editor/collections';
import { canonicalMdx } from '../../src/editor/mdx-file';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const check = process.argv.includes('--check');
const changed: string[] = [];

for (const collection of CONTENT_COLLECTIONS) {
  const folder = path.join(root, collection.folder);
  for (const name of (await readdir(folder)).filter((f) => f.endsWith('.mdx')).sort()) {
    const file = path.join(folder, name);
    const text = await readFile(file, 'utf8');
    const canonical = canonicalMdx(text, collection.json);
    if (canonical === text) continue;
    changed.push(path.relative(root, file));
    if (!check) await writeFile(file, canonical);
  }
}

if (check && changed.length) {
  console.error(`Not in the editor's form (run npm run content:format):\n  ${changed.join('\n  ')}`);
  process.exitCode = 1;
} else {
  console.log(changed.length ? `Rewrote ${changed.length} file(s):\n  ${changed.join('\n  ')}` : 'Every content file is already in the editor\'s form.');
}
