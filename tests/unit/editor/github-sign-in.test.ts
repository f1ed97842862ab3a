import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { adminResponse, localAdminResponse } from '../../../src/editor/admin-page';
import { finishSignIn, GITHUB_AUTHORIZE_URL, GITHUB_TOKEN_URL, startSignIn } from '../../../src/editor/github-oauth';
import { githubSettings } from '../../../src/editor/github-settings';

// The deployed editor's settings, its /admin page and GitHub sign-in (the routes in src/pages/admin/ call these).
const env = { EDITOR_GITHUB_REPO: 'acme/site', EDITOR_GITHUB_CLIENT_ID: 'cid', EDITOR_GITHUB_CLIENT_SECRET: 'very-secret' };
const settings = { repo: 'acme/site', branch: 'main', clientId: 'cid', clientSecret: 'very-secret', scope: 'public_repo' as const };
const origin = 'https://site.example';

describe('editor settings', () => {
  it('names every missing variable, and only names', () => {
    expect(githubSettings({})).toEqual({ ok: false, missing: ['EDITOR_GITHUB_REPO', 'EDITOR_GITHUB_CLIENT_ID', 'EDITOR_GITHUB_CLIENT_SECRET'], invalid: [] });
    expect(githubSettings({ ...env, EDITOR_GITHUB_REPO: 'not a repo' })).toMatchObject({ ok: false, missing: [], invalid: ['EDITOR_GITHUB_REPO must be owner/name, e.g. acme/website'] });
    expect(githubSettings({ ...env, EDITOR_GITHUB_BRANCH: ' content ' })).toEqual({ ok: true, settings: { ...settings, branch: 'content' } });
  });
});

describe('/admin', () => {
  it('says what to set when the settings are missing (503), and loads no editor', async () => {
    const res = adminResponse({ origin, brand: 'Lumora AI', env: { EDITOR_GITHUB_REPO: 'acme/site' } });
    expect(res.status).toBe(503);
    const html = await res.text();
    expect(html).toContain('<li><code>EDITOR_GITHUB_CLIENT_ID</code> (missing)</li>');
    expect(html).not.toContain('editor.js');
  });

  it('loads the editor for the repository, never with the client secret', async () => {
    const res = adminResponse({ origin, brand: 'Lumora AI', env });
    const html = await res.text();
    expect(html).toContain('{"mode":"github","repo":"acme/site","branch":"main","origin":"https://site.example"}');
    expect(html).not.toContain('very-secret');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
  });

  it('under the dev server, edits the local files through its file API', async () => {
    const html = await localAdminResponse({ origin: 'http://localhost:4321', brand: 'Lumora AI' }).text();
    expect(html).toContain('"mode":"local","proxyUrl":"http://localhost:4321/admin/api/v1"');
  });
});

describe('GitHub sign-in', () => {
  const begin = () => startSignIn(new Request(`${origin}/admin/auth?provider=github&scope=public_repo`), settings);

  it('sends the person to GitHub with a one-time state, kept in an HttpOnly cookie', () => {
    const res = begin();
    const target = new URL(res.headers.get('location')!);
    expect(`${target.origin}${target.pathname}`).toBe(GITHUB_AUTHORIZE_URL);
    expect(Object.fromEntries(target.searchParams)).toMatchObject({ client_id: 'cid', redirect_uri: `${origin}/admin/callback`, scope: 'public_repo' });
    const state = target.searchParams.get('state')!;
    expect(state.length).toBeGreaterThanOrEqual(32);
    expect(res.headers.get('set-cookie')).toBe(`editor_oauth_state=${state}; Path=/admin; Max-Age=600; HttpOnly; SameSite=Lax; Secure`);
    expect(new URL(begin().headers.get('location')!).searchParams.get('state')).not.toBe(state);
  });

  const callback = (query: string, cookie?: string) =>
    new Request(`${origin}/admin/callback?${query}`, { headers: cookie ? { cookie: `other=1; editor_oauth_state=${cookie}` } : {} });

  it('refuses a callback whose state is not the one this browser was given, without asking GitHub', async () => {
    const calls: string[] = [];
    const fakeFetch = (async (url: string) => (calls.push(url), Response.json({}))) as unknown as typeof fetch;
    for (const request of [callback('code=c&state=abc', 'xyz'), callback('code=c&state=abc'), callback('code=c', 'abc')]) {
      const res = await finishSignIn(request, settings, fakeFetch);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('authorization:github:error:');
    }
    expect(calls).toEqual([]);
  });

  it('trades the code for a token and hands it to the editor window only, through a script its policy allows', async () => {
    const sent: unknown[] = [];
    const fakeFetch = (async (url: string, init: RequestInit) => {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return Response.json({ access_token: 'gho_token' });
    }) as unknown as typeof fetch;
    const res = await finishSignIn(callback('code=c0de&state=abc', 'abc'), settings, fakeFetch);
    expect(res.status).toBe(200);
    expect(sent).toEqual([{ url: GITHUB_TOKEN_URL, body: { client_id: 'cid', client_secret: 'very-secret', code: 'c0de', redirect_uri: `${origin}/admin/callback` } }]);
    const html = await res.text();
    expect(html).toContain(JSON.stringify(`authorization:github:success:${JSON.stringify({ token: 'gho_token', provider: 'github' })}`));
    expect(html).not.toContain('very-secret');
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)![1]!;
    const hash = createHash('sha256').update(script).digest('base64');
    expect(res.headers.get('content-security-policy')).toBe(`default-src 'none'; script-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`);
    expect(script).toContain('postMessage(JSON.parse(r),o)');
    expect(res.headers.get('set-cookie')).toContain('Max-Age=0');
  });

  it("says so when GitHub refuses the code", async () => {
    const fakeFetch = (async () => Response.json({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' })) as unknown as typeof fetch;
    const res = await finishSignIn(callback('code=old&state=abc', 'abc'), settings, fakeFetch);
    expect(res.status).toBe(502);
    expect(await res.text()).toContain('GitHub did not sign you in: The code passed is incorrect or expired.');
  });
});
