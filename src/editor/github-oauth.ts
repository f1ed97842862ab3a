import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { githubSettings, setupMessage, type GithubSettings } from './github-settings';
import { CALLBACK_PATH, EDITOR_PATH } from './paths';

/**
 * GitHub sign-in for the content editor (server side). Decap CMS opens `/admin/auth` in a pop-up; it sends the
 * person to GitHub with a one-time state (kept in an HttpOnly cookie); GitHub sends them back to
 * `/admin/callback`, which trades the code for a token with the client secret and hands the token to the editor
 * window through Decap's postMessage handshake, to this site's own origin only. The token then talks to GitHub's
 * API from the author's browser: this site never writes content itself, so there is no write endpoint to protect.
 */

export const GITHUB_AUTHORIZE_URL = 'https://github.com/login/oauth/authorize';
export const GITHUB_TOKEN_URL = 'https://github.com/login/oauth/access_token';
const STATE_COOKIE = 'editor_oauth_state';

const NO_STORE = { 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-content-type-options': 'nosniff' };

function stateCookie(value: string, url: URL, maxAge: number): string {
  const secure = url.protocol === 'https:' ? '; Secure' : '';
  return `${STATE_COOKIE}=${value}; Path=${EDITOR_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get('cookie') ?? '';
  return header.split(/;\s*/).find((part) => part.startsWith(`${name}=`))?.slice(name.length + 1);
}

/** Constant-time equality; the byte lengths are compared first (timingSafeEqual throws on unequal lengths). */
function sameText(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** `/admin/auth`: off to GitHub's consent page, with a fresh state tied to this browser. */
export function startSignIn(request: Request, settings: GithubSettings): Response {
  const url = new URL(request.url);
  const state = randomBytes(24).toString('base64url');
  const target = new URL(GITHUB_AUTHORIZE_URL);
  target.searchParams.set('client_id', settings.clientId);
  target.searchParams.set('redirect_uri', new URL(CALLBACK_PATH, url).href);
  target.searchParams.set('scope', settings.scope);
  target.searchParams.set('state', state);
  return new Response(null, { status: 302, headers: { ...NO_STORE, location: target.href, 'set-cookie': stateCookie(state, url, 600) } });
}

/**
 * The pop-up's script: the token goes only to the window that started the flow, and only if that window is the
 * editor page. It checks its opener is this origin's `/admin` (a page of the marketing site, where a configured
 * third-party script runs, cannot receive it), announces itself, and answers only the echo that comes back from
 * that same window object (`event.source`), from this origin — Decap's handshake requires the announcement to be
 * exactly `authorizing:github`, so the round-trip binds the window, not a nonce in the message. The result is read
 * from a JSON block, so the script is constant and allowed by its hash alone; it is dropped once sent.
 */
const HANDSHAKE_SCRIPT =
  "(function(){var r=document.getElementById('result').textContent;var o=location.origin;var w=opener;" +
  `if(!w)return;try{if(w.location.origin!==o||w.location.pathname.replace(/\\/+$/,'')!==${JSON.stringify(EDITOR_PATH)})return;}catch(x){return;}` +
  "var n='authorizing:github';" +
  "function on(e){if(e.origin!==o||e.source!==w||e.data!==n)return;removeEventListener('message',on);w.postMessage(JSON.parse(r),o);r='';}" +
  "addEventListener('message',on);w.postMessage(n,o);})();";
const HANDSHAKE_HASH = `sha256-${createHash('sha256').update(HANDSHAKE_SCRIPT).digest('base64')}`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The pop-up page: the handshake, and a sentence for the person in case the window stays open. */
function handshakePage(result: { token: string } | { error: string }, status: number, url: URL): Response {
  const message = 'token' in result
    ? `authorization:github:success:${JSON.stringify({ token: result.token, provider: 'github' })}`
    : `authorization:github:error:${JSON.stringify({ message: result.error })}`;
  const text = 'token' in result ? 'Signed in. You can close this window.' : result.error;
  const json = JSON.stringify(message).replace(/</g, '\\u003c');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Content editor sign-in</title></head>` +
    `<body><p>${escapeHtml(text)}</p><script type="application/json" id="result">${json}</script>` +
    `<script>${HANDSHAKE_SCRIPT}</script></body></html>`;
  const csp = `default-src 'none'; script-src '${HANDSHAKE_HASH}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;
  return new Response(html, {
    status,
    headers: { ...NO_STORE, 'content-type': 'text/html; charset=utf-8', 'content-security-policy': csp, 'set-cookie': stateCookie('', url, 0) },
  });
}

/** GitHub's answer to the code exchange, as far as it is read: the token, or why there is none. */
const githubTokenAnswerSchema = z.object({ access_token: z.string().optional(), error_description: z.string().optional() });

/** `/admin/callback`: checks the state, trades GitHub's code for a token, and hands it to the editor window. */
export async function finishSignIn(request: Request, settings: GithubSettings, fetchImpl: typeof fetch = fetch): Promise<Response> {
  const url = new URL(request.url);
  const { code, state, denied } = { code: url.searchParams.get('code'), state: url.searchParams.get('state'), denied: url.searchParams.get('error') };
  if (denied) return handshakePage({ error: `GitHub sign-in was cancelled (${denied}).` }, 403, url);
  const expected = cookieValue(request, STATE_COOKIE);
  if (!code || !state || !expected || !sameText(state, expected)) {
    return handshakePage({ error: 'This sign-in could not be verified (it expired or was started in another browser). Close this window and sign in again.' }, 400, url);
  }
  const answer = await fetchImpl(GITHUB_TOKEN_URL, {
    method: 'POST',
    headers: { accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: settings.clientId, client_secret: settings.clientSecret, code, redirect_uri: new URL(CALLBACK_PATH, url).href }),
  }).catch(() => undefined);
  const body = githubTokenAnswerSchema.safeParse(await answer?.json().catch(() => undefined)).data ?? {};
  if (!answer?.ok || !body.access_token) {
    return handshakePage({ error: `GitHub did not sign you in: ${body.error_description ?? 'no answer from GitHub'}.` }, 502, url);
  }
  return handshakePage({ token: body.access_token }, 200, url);
}

/** A sign-in route: `answer` with the settings, or a 503 saying which to set (never an attempt without them). */
export async function withSettings(answer: (settings: GithubSettings) => Response | Promise<Response>): Promise<Response> {
  const result = githubSettings();
  if (result.ok) return answer(result.settings);
  return new Response(setupMessage(result), { status: 503, headers: { ...NO_STORE, 'content-type': 'text/plain; charset=utf-8' } });
}
