import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATIC_HEADERS, pagePolicies, type Policy } from '../../netlify/lib/security-headers';
import { buildSiteCopy } from '../support/project-copy';

const NOINDEX_META = '<meta name="robots" content="noindex">';

// The policy as the build writes it, over every built page: the one the e2e server serves (dist/, default
// configuration) and one built as a Netlify Deploy Preview with Supabase and embeds configured (which also
// shows what a preview build adds: noindex everywhere and the "Preview" label), built in a copy of the project so
// the e2e build's .netlify/ the other tests read stays as it is.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

function builtPages(dir: string): { file: string; policy: Policy }[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
  return files.map((file) => {
    const html = readFileSync(path.join(dir, file), 'utf8');
    const policies = pagePolicies(html, null);
    expect(policies, `${file} carries one policy`).toHaveLength(1);
    const policy = policies[0]!;
    // Astro puts the <meta> at the end of <head>: what runs before it is not checked by it, so it must be
    // data (JSON-LD) or one of our own hashed scripts.
    const before = html.slice(0, html.search(/<meta http-equiv="content-security-policy"/));
    for (const [, attrs, body] of before.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
      if (/type="application\/ld\+json"/.test(attrs!)) continue;
      expect(attrs, `${file}: no external script before the policy`).not.toMatch(/\bsrc=/);
      expect(policy['script-src'], `${file}: an inline script before the policy is one of ours`).toContain(sha256(body!));
    }
    return { file, policy };
  });
}

function expectStrictScripts(pages: { file: string; policy: Policy }[]) {
  expect(pages.length).toBeGreaterThan(30);
  for (const { file, policy } of pages) {
    expect(policy['script-src'], file).toBeDefined();
    expect(policy['script-src'], file).not.toContain("'unsafe-inline'");
    expect(policy['script-src']!.filter((s) => s.startsWith("'sha256-")).length, `${file} hashes its inline scripts`).toBeGreaterThan(0);
    for (const sources of Object.values(policy)) expect(sources.filter((s) => s.includes('*') || /^[a-z]+:$/.test(s) && !['data:', 'blob:'].includes(s)), file).toEqual([]);
  }
}

describe('the policy of the built pages', () => {
  it('dist/: no page allows inline scripts, Storage and frames are same-origin only, _headers is generated', () => {
    const pages = builtPages(path.join(root, 'dist'));
    expectStrictScripts(pages);
    for (const { file, policy } of pages) {
      expect(policy['connect-src'], file).toEqual(["'self'"]);
      expect(policy['frame-src'], file).toEqual(["'none'"]);
    }
    const headers = readFileSync(path.join(root, 'dist/_headers'), 'utf8');
    for (const [name, value] of Object.entries(STATIC_HEADERS)) expect(headers).toContain(`  ${name}: ${value}\n`);
    // Not a preview: no site-wide noindex, no label.
    expect(headers).not.toContain('X-Robots-Tag');
    const home = readFileSync(path.join(root, 'dist/index.html'), 'utf8');
    expect(home).not.toContain(NOINDEX_META);
    expect(home).not.toContain('data-preview-label');
  });

  describe('built as a Deploy Preview with Supabase and embeds configured', () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-csp-build-'));
    afterAll(() => rmSync(outDir, { recursive: true, force: true }));
    const env = {
      ...process.env,
      CONTEXT: 'deploy-preview',
      HEAD: 'content/new-hero',
      URL: 'https://lumora.netlify.app',
      SUPABASE_URL: 'https://abcdefgh.supabase.co',
      PUBLIC_BOOKING_CALENDAR_URL: 'https://calendar.example.net/book/lumora',
      PUBLIC_ASK_AI_ASSISTANT_URL: 'https://assistant.example.org/embed',
    };

    beforeAll(() => buildSiteCopy(outDir, env), 300_000);

    it('every page allows exactly those origins where they are needed', () => {
      const pages = builtPages(outDir);
      expectStrictScripts(pages);
      for (const { file, policy } of pages) {
        for (const directive of ['img-src', 'media-src', 'connect-src']) expect(policy[directive], `${file} ${directive}`).toContain('https://abcdefgh.supabase.co');
        expect(policy['frame-src'], file).toEqual(['https://calendar.example.net', 'https://assistant.example.org']);
        expect(policy['script-src']!.filter((s) => !s.startsWith("'sha256-")), file).toEqual(["'self'"]);
      }
      // The contact page really frames the calendar the policy allows.
      expect(readFileSync(path.join(outDir, 'contact.html'), 'utf8')).toMatch(/<iframe[^>]+src="https:\/\/calendar\.example\.net\/book\/lumora"/);
    });

    it('is kept out of search engines: noindex on every page and every file, a Preview label naming the branch', () => {
      for (const file of readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'))) {
        const html = readFileSync(path.join(outDir, file), 'utf8');
        expect(html, file).toContain(NOINDEX_META);
        expect(html, file).toMatch(/<aside aria-label="Preview deploy"[^>]*><strong>Preview<\/strong> of branch <code>content\/new-hero<\/code>/);
      }
      expect(readFileSync(path.join(outDir, '_headers'), 'utf8')).toContain('  X-Robots-Tag: noindex\n');
      // Canonical URLs still name the site's main address (URL), and robots.txt lists no sitemap.
      expect(readFileSync(path.join(outDir, 'about-us.html'), 'utf8')).toContain('<link rel="canonical" href="https://lumora.netlify.app/about-us">');
      expect(readFileSync(path.join(outDir, 'robots.txt'), 'utf8')).not.toContain('Sitemap:');
    });
  });
});
