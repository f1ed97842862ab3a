import http from 'node:http';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { readRequest } from '../../scripts/platform/node-request';
import { writeResponse } from '../../scripts/platform/server';
import { GITHUB_AUTHORIZE_URL, GITHUB_TOKEN_URL } from '../../src/editor/github-oauth';
import { EDITOR_VARIABLES } from '../../src/editor/github-settings';
import { EDITOR_BUNDLE_PATH } from '../../src/editor/paths';
import { newPage, useBrowser } from './harness';

// The editor as a deploy ships it: the on-demand routes of the build global-setup made, answered by the server
// function @astrojs/netlify generated (.netlify/v1/functions/ssr), called the way Netlify calls it. GitHub
// itself is out of reach here; its two OAuth addresses are stood in for, the rest of the code path is real.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const dist = path.join(root, 'dist');
type Handler = (request: Request, context: object) => Promise<Response>;
let handler: Handler;

const context = { ip: '127.0.0.1', geo: {}, site: {}, deploy: {}, account: {}, server: {}, params: {}, requestId: 'e2e', waitUntil() {}, next: async () => new Response(null, { status: 404 }) };
const call = (p: string, init?: RequestInit) => handler(new Request(`https://site.example${p}`, init), context);
const GITHUB_ENV = { [EDITOR_VARIABLES.repo]: 'acme/site', [EDITOR_VARIABLES.clientId]: 'client-id-e2e', [EDITOR_VARIABLES.clientSecret]: 'client-secret-e2e' };

beforeAll(async () => {
  const ssr = (await import(pathToFileURL(path.join(root, '.netlify/v1/functions/ssr/ssr.mjs')).href)) as { default: Handler };
  handler = ssr.default;
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('the content editor in a production build', () => {
  it('without the GitHub settings, /admin says what to set and the sign-in routes refuse', async () => {
    for (const name of Object.values(EDITOR_VARIABLES)) vi.stubEnv(name, '');
    const admin = await call('/admin');
    expect(admin.status).toBe(503);
    const html = await admin.text();
    for (const name of [EDITOR_VARIABLES.repo, EDITOR_VARIABLES.clientId, EDITOR_VARIABLES.clientSecret]) expect(html).toContain(name);
    expect(html).not.toContain(EDITOR_BUNDLE_PATH);
    for (const p of ['/admin/auth', '/admin/callback?code=x&state=y']) expect((await call(p)).status).toBe(503);
  });

  it('has no write route: the dev server’s file API is not in the build', async () => {
    for (const method of ['GET', 'POST']) {
      const res = await call('/admin/api/v1', { method, ...(method === 'POST' && { body: JSON.stringify({ action: 'info' }), headers: { 'content-type': 'application/json' } }) });
      expect(res.status, method).toBe(404);
    }
  });

  it('keeps the editor off visitors’ pages: no built page or sitemap entry loads or lists it', async () => {
    const pages = (await readdir(dist, { recursive: true })).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(40);
    // /admin itself is the editor's function; the only built pages beside it are the team's inbox (no editor in it).
    expect(pages.filter((f) => f.startsWith('admin')).sort()).toEqual(['admin/inbox.html', 'admin/inbox/sign-in.html']);
    for (const page of pages) expect(await readFile(path.join(dist, page), 'utf8'), page).not.toMatch(/admin\/editor\.js|decap/i);
    expect(await readFile(path.join(dist, 'sitemap-0.xml'), 'utf8')).not.toContain('/admin');
  });

  it('with the settings, /admin loads the editor for the repository, without a secret in the page', async () => {
    for (const [name, value] of Object.entries(GITHUB_ENV)) vi.stubEnv(name, value);
    const admin = await call('/admin');
    expect(admin.status).toBe(200);
    const html = await admin.text();
    expect(html).toContain('"mode":"github","repo":"acme/site","branch":"main"');
    expect(html).toContain(`src="${EDITOR_BUNDLE_PATH}"`);
    expect(html).not.toContain('client-secret-e2e');
    expect(admin.headers.get('content-security-policy')).toContain("connect-src 'self' blob: data: https://api.github.com");
  });
});

describe('GitHub sign-in in the browser, against the production build', () => {
  const getBrowser = useBrowser();
  let server: http.Server;
  let base = '';

  beforeAll(async () => {
    server = http.createServer(async (req, res) => {
      const url = new URL(req.url ?? '/', base);
      if (url.pathname === EDITOR_BUNDLE_PATH || url.pathname === '/favicon.svg') {
        res.setHeader('content-type', url.pathname.endsWith('.js') ? 'text/javascript' : 'image/svg+xml');
        res.end(await readFile(path.join(dist, url.pathname)));
        return;
      }
      const request = await readRequest(req, base);
      await writeResponse(request instanceof Response ? request : await handler(request, context), req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("runs under the editor's policy, signs in through GitHub's OAuth and calls GitHub's API with the token", async () => {
    for (const [name, value] of Object.entries(GITHUB_ENV)) vi.stubEnv(name, value);
    // GitHub's token endpoint, as the server function calls it.
    const realFetch = globalThis.fetch;
    const exchanges: unknown[] = [];
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      if (String(input) !== GITHUB_TOKEN_URL) return realFetch(input, init);
      exchanges.push(JSON.parse(String(init?.body)));
      return Response.json({ access_token: 'gho_e2e', token_type: 'bearer', scope: 'repo' });
    });
    const { context: browserContext, page } = await newPage(getBrowser());
    // GitHub's consent page, which sends the person straight back with a code and the state it was given. The
    // site's own redirect to it is answered here (a route does not see the request a redirect leads to).
    const consented: string[] = [];
    await browserContext.route(`${base}/admin/auth?**`, async (route) => {
      const response = await route.fetch({ maxRedirects: 0 });
      const asked = new URL(response.headers().location ?? '');
      consented.push(`${asked.origin}${asked.pathname}`);
      const back = new URL(asked.searchParams.get('redirect_uri')!);
      back.searchParams.set('code', 'code-e2e');
      back.searchParams.set('state', asked.searchParams.get('state')!);
      return route.fulfill({ response, headers: { ...response.headers(), location: back.href } });
    });
    const apiCalls: Array<string | undefined> = [];
    await browserContext.route('https://api.github.com/**', (route) => {
      apiCalls.push(route.request().headers().authorization);
      return route.fulfill({ status: 401, json: { message: 'Bad credentials' } });
    });

    await page.goto(`${base}/admin`);
    await page.getByRole('button', { name: 'Login with GitHub' }).click();
    await expect.poll(() => apiCalls.length, { timeout: 30_000 }).toBeGreaterThan(0);
    expect(consented).toEqual([GITHUB_AUTHORIZE_URL]);
    expect(apiCalls[0]).toBe('token gho_e2e');
    expect(exchanges).toEqual([{ client_id: 'client-id-e2e', client_secret: 'client-secret-e2e', code: 'code-e2e', redirect_uri: `${base}/admin/callback` }]);
  });
});
