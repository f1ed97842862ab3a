import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { STATIC_HEADERS, pagePolicies, type Policy } from '../../netlify/lib/security-headers';

// The policy as the build writes it, over every built page: the one the e2e server serves (dist/, default
// configuration) and one built with Supabase and embeds configured.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function builtPages(dir: string): { file: string; policy: Policy }[] {
  const files = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.html'));
  return files.map((file) => {
    const policies = pagePolicies(readFileSync(path.join(dir, file), 'utf8'), null);
    expect(policies, `${file} carries one policy`).toHaveLength(1);
    return { file, policy: policies[0]! };
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
  });

  describe('built with Supabase and embeds configured', () => {
    const outDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-csp-build-'));
    afterAll(() => rmSync(outDir, { recursive: true, force: true }));
    const env = {
      ...process.env,
      SUPABASE_URL: 'https://abcdefgh.supabase.co',
      PUBLIC_BOOKING_CALENDAR_URL: 'https://calendar.example.net/book/lumora',
      PUBLIC_ASK_AI_ASSISTANT_URL: 'https://assistant.example.org/embed',
    };

    it('every page allows exactly those origins where they are needed', () => {
      const build = spawnSync('npx', ['astro', 'build', '--outDir', outDir], { cwd: root, env, encoding: 'utf8' });
      expect(build.status, build.stderr || build.stdout).toBe(0);
      const pages = builtPages(outDir);
      expectStrictScripts(pages);
      for (const { file, policy } of pages) {
        for (const directive of ['img-src', 'media-src', 'connect-src']) expect(policy[directive], `${file} ${directive}`).toContain('https://abcdefgh.supabase.co');
        expect(policy['frame-src'], file).toEqual(['https://calendar.example.net', 'https://assistant.example.org']);
        expect(policy['script-src']!.filter((s) => !s.startsWith("'sha256-")), file).toEqual(["'self'"]);
      }
      // The contact page really frames the calendar the policy allows.
      expect(readFileSync(path.join(outDir, 'contact.html'), 'utf8')).toMatch(/<iframe[^>]+src="https:\/\/calendar\.example\.net\/book\/lumora"/);
    }, 300_000);
  });
});
