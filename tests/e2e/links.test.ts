import { describe, expect, it } from 'vitest';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const dist = path.resolve(import.meta.dirname, '../../dist');

/**
 * Routes that later issues build. Internal links to them may dangle until those issues land; the list
 * must only ever shrink. Everything else linked from the built site must exist.
 */
const NOT_YET_BUILT = new Set<string>(['/image-video-transformation']);

async function htmlFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith('.html')).map((e) => path.join(e.parentPath, e.name));
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then((s) => s.isFile(), () => false);
}

/** Where Netlify would find a path: the file itself, `path.html` or `path/index.html`. */
async function resolves(pathname: string): Promise<boolean> {
  const clean = decodeURIComponent(pathname).replace(/\/$/, '') || '/';
  if (clean === '/') return exists(path.join(dist, 'index.html'));
  const base = path.join(dist, clean);
  return (await exists(base)) || (await exists(`${base}.html`)) || (await exists(path.join(base, 'index.html')));
}

describe('internal links in the built site', () => {
  it('lead to existing pages or files (apart from routes later issues add)', async () => {
    const files = await htmlFiles(dist);
    expect(files.length).toBeGreaterThan(3);
    const broken: string[] = [];
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      for (const match of html.matchAll(/\s(?:href|src)="([^"]+)"/g)) {
        const raw = match[1]!;
        if (/^(https?:|mailto:|tel:|sms:|data:|#|\/\/)/.test(raw)) continue;
        const url = new URL(raw, 'http://site.local' + '/' + path.relative(dist, file));
        if (url.pathname.startsWith('/api/')) continue;
        if (NOT_YET_BUILT.has(url.pathname)) continue;
        if (!(await resolves(url.pathname))) broken.push(`${path.relative(dist, file)} → ${raw}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
