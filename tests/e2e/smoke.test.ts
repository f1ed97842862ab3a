import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import getPort from 'get-port';
import { describe, expect, inject, it } from 'vitest';

// `npm run smoke`, the command an operator points at a deploy, run as a newcomer runs it against the site
// `npm start` serves (the e2e server): every check passes; against a dead address it fails at once.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function smoke(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn('npm', ['run', '--silent', 'smoke'], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, output }));
  });
}

describe('npm run smoke', () => {
  it('passes against npm start: pages, 404, headers, health, a photo to its preview, a demo purchase and download', async () => {
    const { code, output } = await smoke({ BASE_URL: inject('baseUrl'), SMOKE_EXPECT: 'production' });
    expect(output, output).toMatch(/All \d+ checks passed/);
    expect(code).toBe(0);
    for (const name of ['key pages answer 200 with one heading', 'an unknown address is the 404 page', 'pages carry the security headers', '/api/health is healthy and tells visitors no configuration', 'robots rules of production', 'a photo goes through upload → restoration → watermarked preview', 'demo checkout, then the clean download']) {
      expect(output).toContain(`✓ ${name}`);
    }
  }, 240_000);

  it('fails at once with a clear message against an address where nothing answers', async () => {
    const port = await getPort({ host: '127.0.0.1' });
    const { code, output } = await smoke({ BASE_URL: `http://127.0.0.1:${port}` });
    expect(code).toBe(1);
    expect(output).toContain(`FAILED: 1 of 1 checks`);
    expect(output).toMatch(new RegExp(`http://127\\.0\\.0\\.1:${port} answers: fetch failed \\(.*ECONNREFUSED`));
  }, 60_000);

  it('says how to use it without BASE_URL', async () => {
    const { code, output } = await smoke({ BASE_URL: '' });
    expect(code).toBe(2);
    expect(output).toContain('Set BASE_URL to the site to check');
  }, 60_000);
});
