import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { adminResponse } from '../../../src/editor/admin-page';
import { finishSignIn, startSignIn } from '../../../src/editor/github-oauth';
import { githubSettings } from '../../../src/editor/github-settings';

// The abuse corpus, the content editor's GitHub token: narrow, and handed to the editor window only.
const origin = 'https://site.example';
const env = { EDITOR_GITHUB_REPO: 'acme/site', EDITOR_GITHUB_CLIENT_ID: 'cid', EDITOR_GITHUB_CLIENT_SECRET: 'very-secret' };
const settingsFor = (extra: Record<string, string> = {}) => {
  const result = githubSettings({ ...env, ...extra });
  if (!result.ok) throw new Error('settings');
  return result.settings;
};
const scopeAsked = (extra?: Record<string, string>) =>
  new URL(startSignIn(new Request(`${origin}/admin/auth?provider=github&scope=repo`), settingsFor(extra)).headers.get('location')!).searchParams.get('scope');

/** The pop-up's handshake script run against a stand-in opener window; returns what reached the opener. */
async function runHandshake(openerPath: string, reply: (popup: { deliver: (data: unknown, source: unknown, from?: string) => void }, opener: object) => void) {
  const res = await finishSignIn(new Request(`${origin}/admin/callback?code=c&state=abc`, { headers: { cookie: 'editor_oauth_state=abc' } }), settingsFor(), (async () => Response.json({ access_token: 'gho_token' })) as unknown as typeof fetch);
  const html = await res.text();
  const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
  const result = /<script type="application\/json" id="result">([\s\S]*?)<\/script>/.exec(html)![1]!;
  const received: unknown[] = [];
  const listeners: ((e: unknown) => void)[] = [];
  const opener = { location: { origin, pathname: openerPath }, postMessage: (data: unknown) => received.push(data) };
  runInNewContext(script, {
    opener,
    location: { origin },
    document: { getElementById: () => ({ textContent: result }) },
    addEventListener: (_: string, fn: (e: unknown) => void) => listeners.push(fn),
    removeEventListener: (_: string, fn: (e: unknown) => void) => listeners.splice(listeners.indexOf(fn), 1),
    JSON,
  });
  reply({ deliver: (data, source, from = origin) => [...listeners].forEach((fn) => fn({ data, source, origin: from })) }, opener);
  return received.filter((m) => typeof m === 'string' && m.includes('gho_token'));
}

describe('the editor’s GitHub token is kept narrow', () => {
  it('asks GitHub for public_repo whatever Decap requests; repo only when the operator names it', () => {
    expect(scopeAsked()).toBe('public_repo');
    expect(scopeAsked({ EDITOR_GITHUB_SCOPE: 'repo' })).toBe('repo');
    expect(githubSettings({ ...env, EDITOR_GITHUB_SCOPE: 'admin:org' })).toMatchObject({ ok: false, invalid: ['EDITOR_GITHUB_SCOPE must be public_repo or repo'] });
  });

  it('a 32-character non-ASCII state is a 400 (its byte length differs), never a 500', async () => {
    const state = 'é'.repeat(32);
    const res = await finishSignIn(new Request(`${origin}/admin/callback?code=c&state=${encodeURIComponent(state)}`, { headers: { cookie: `editor_oauth_state=${'a'.repeat(32)}` } }), settingsFor(), (async () => Response.json({})) as unknown as typeof fetch);
    expect(res.status).toBe(400);
  });

  it('the token reaches the /admin window that opened the pop-up, once', async () => {
    const got = await runHandshake('/admin/', (popup, opener) => {
      popup.deliver('authorizing:github', opener);
      popup.deliver('authorizing:github', opener);
    });
    expect(got).toHaveLength(1);
  });

  it('a marketing page that opens the pop-up (where a third-party widget runs) gets nothing', async () => {
    expect(await runHandshake('/blog/post', (popup, opener) => popup.deliver('authorizing:github', opener))).toHaveLength(0);
  });

  it('an answer from another window of the origin, or from another origin, gets nothing', async () => {
    expect(await runHandshake('/admin', (popup) => popup.deliver('authorizing:github', { other: true }))).toHaveLength(0);
    expect(await runHandshake('/admin', (popup, opener) => popup.deliver('authorizing:github', opener, 'https://evil.example'))).toHaveLength(0);
  });

  it('/admin is served without any third-party script, even with a chat widget configured', async () => {
    const res = adminResponse({ origin, brand: 'Lumora AI', env: { ...env, PUBLIC_CHAT_WIDGET_SCRIPT_URL: 'https://widget.example/w.js' } });
    const html = await res.text();
    expect(html).not.toContain('widget.example');
    const scriptSrc = /script-src ([^;]*)/.exec(res.headers.get('content-security-policy')!)![1]!;
    expect(scriptSrc.split(' ').filter((s) => s.startsWith('http'))).toEqual([]);
  });
});
