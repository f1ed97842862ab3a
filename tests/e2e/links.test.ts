import { describe, expect, it } from 'vitest';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { site } from '../../src/lib/site';

const dist = path.resolve(import.meta.dirname, '../../dist');
/** Absolute links to the site's own origin (canonical URLs, RSS items) must resolve like relative ones. */
const siteOrigin = new URL(site.url).origin;

async function builtFiles(dir: string, extension: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && e.name.endsWith(extension)).map((e) => path.join(e.parentPath, e.name));
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

/** The on-site link targets among `raw` that do not resolve (other sites and schemes are not checked). */
async function broken(raw: string[], from: string): Promise<string[]> {
  const found: string[] = [];
  for (const target of raw) {
    if (/^(mailto:|tel:|sms:|data:|#|\/\/)/.test(target)) continue;
    if (/^https?:/.test(target) && new URL(target).origin !== siteOrigin) continue;
    const url = new URL(target, 'http://site.local/' + from);
    if (url.pathname.startsWith('/api/')) continue;
    if (!(await resolves(url.pathname))) found.push(`${from} → ${target}`);
  }
  return found;
}

describe('internal links in the built site', () => {
  it('lead to existing pages or files', async () => {
    const files = await builtFiles(dist, '.html');
    expect(files.length).toBeGreaterThan(3);
    const problems: string[] = [];
    for (const file of files) {
      const html = await readFile(file, 'utf8');
      const targets = [...html.matchAll(/\s(?:href|src)="([^"]+)"/g)].map((m) => m[1]!);
      problems.push(...(await broken(targets, path.relative(dist, file))));
    }
    expect(problems).toEqual([]);
  });

  it('the RSS feed: every item link and every address in its articles leads to an existing page or file', async () => {
    const xml = await readFile(path.join(dist, 'rss.xml'), 'utf8');
    const items = [...xml.matchAll(/<item>[\s\S]*?<\/item>/g)].map((m) => m[0]);
    expect(items.length).toBeGreaterThan(0);
    const targets: string[] = [];
    for (const item of items) {
      const link = /<link>([^<]+)<\/link>/.exec(item)?.[1];
      expect(link, 'every item has a link').toBeTruthy();
      targets.push(link!);
      // The article HTML is entity-encoded inside <content:encoded>.
      targets.push(...[...item.matchAll(/\s(?:href|src)=&quot;(.+?)&quot;/g)].map((m) => m[1]!.replaceAll('&amp;', '&')));
    }
    expect(targets.filter((t) => t.startsWith(`${siteOrigin}/blog/`)).length).toBeGreaterThanOrEqual(items.length);
    expect(await broken(targets, 'rss.xml')).toEqual([]);
  });

  it.skipIf(site.external.blog)('no page or feed links to the placeholder external blog when none is configured', async () => {
    const offenders: string[] = [];
    for (const file of [...(await builtFiles(dist, '.html')), ...(await builtFiles(dist, '.xml'))]) {
      if ((await readFile(file, 'utf8')).includes('blog.lumora-ai.example.com')) offenders.push(path.relative(dist, file));
    }
    expect(offenders).toEqual([]);
  });
});
