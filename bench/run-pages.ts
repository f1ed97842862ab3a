/**
 * `npm run bench:pages`: builds the site, serves it as `npm start` does, and prints JSON per page:
 * HTML bytes, JavaScript bytes shipped (external module scripts + inline scripts, split into the shell's
 * own script and island/framework code), and Lighthouse scores on mobile settings with Debian's Chromium.
 * Targets: pages without islands ship no island JS; accessibility, best practices and SEO 100;
 * performance 100 on mobile.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { startSiteServer } from '../scripts/platform/server';
import { startEmbeddedServices } from '../scripts/platform/embedded/embedded-services';
import { chromiumPath, CHROMIUM_ARGS } from '../tests/support/browser';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const only = process.argv.slice(2).filter((a) => a.startsWith('/'));
const skipLighthouse = process.argv.includes('--no-lighthouse');

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npx', ['astro', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

async function pages(): Promise<string[]> {
  const entries = await readdir(dist, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.html') && e.name !== '404.html')
    .map((e) => '/' + path.relative(dist, path.join(e.parentPath, e.name)).replace(/(index)?\.html$/, ''))
    .map((p) => (p.length > 1 ? p.replace(/\/$/, '') : p))
    .sort();
}

async function jsBytes(html: string) {
  let shell = 0;
  let islands = 0;
  let inline = 0;
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const attrs = m[1]!;
    if (/type="application\/ld\+json"/.test(attrs)) continue;
    const src = /src="([^"]+)"/.exec(attrs)?.[1];
    if (src) {
      const size = (await readFile(path.join(dist, src)).catch(() => Buffer.alloc(0))).length;
      if (/Sidebar|shell|hoisted/i.test(src)) shell += size;
      else islands += size;
    } else inline += Buffer.byteLength(m[2]!);
  }
  // Island bundles are referenced from <astro-island component-url=… renderer-url=…>.
  const islandUrls = new Set([...html.matchAll(/(?:component-url|renderer-url)="([^"]+)"/g)].map((m) => m[1]!));
  for (const url of islandUrls) islands += (await readFile(path.join(dist, url)).catch(() => Buffer.alloc(0))).length;
  return { shellScript: shell, islands, inline, total: shell + islands + inline, hasIslands: islandUrls.size > 0 };
}

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-bench-'));
const services = await startEmbeddedServices({ dataDir });
const server = await startSiteServer({ root, port: 0 });
const chrome = skipLighthouse
  ? undefined
  : await chromeLauncher.launch({ chromePath: chromiumPath('full'), chromeFlags: CHROMIUM_ARGS });

const results: Record<string, unknown>[] = [];
try {
  for (const page of only.length ? only : await pages()) {
    const html = await (await fetch(server.url + page)).text();
    const js = await jsBytes(html);
    const row: Record<string, unknown> = { page, htmlBytes: Buffer.byteLength(html), js };
    if (chrome) {
      const run = await lighthouse(server.url + page, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        formFactor: 'mobile',
      });
      const categories = run?.lhr.categories ?? {};
      row.lighthouse = Object.fromEntries(
        Object.entries(categories).map(([k, v]) => [k, v.score === null ? null : Math.round(v.score * 100)]),
      );
    }
    results.push(row);
    process.stderr.write(`measured ${page}\n`);
  }
} finally {
  await chrome?.kill();
  await server.close();
  await services.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

const noIslandPages = results.filter((r) => !(r.js as { hasIslands: boolean }).hasIslands);
console.log(
  JSON.stringify(
    {
      lighthouseSettings: skipLighthouse ? 'skipped' : 'mobile (Lighthouse default throttling), Debian Chromium, local server',
      summary: {
        pages: results.length,
        pagesWithoutIslands: noIslandPages.length,
        islandJsOnPagesWithoutIslands: noIslandPages.reduce((s, r) => s + (r.js as { islands: number }).islands, 0),
      },
      pages: results,
    },
    null,
    2,
  ),
);
