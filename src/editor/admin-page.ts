import type { EditorBackend } from './config';
import { EDITOR_VARIABLES, githubSettings, setupMessage } from './github-settings';
import { EDITOR_BUNDLE_PATH, LOCAL_API_PATH } from './paths';

/**
 * The /admin page: a shell that loads the editor's bundle with its backend, or, on a deployed site without the
 * GitHub settings, a page saying which to set (503). Plain HTML rather than an Astro page: the dev server adds no
 * reload client to it (which would reload the editor after every save, as content changes), and it carries
 * its own Content-Security-Policy, the only one on the site that lets Decap CMS run (it compiles its config
 * schema with eval and styles itself with injected <style> elements) and reach GitHub's API.
 */

const EDITOR_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https://avatars.githubusercontent.com https://raw.githubusercontent.com",
  "connect-src 'self' blob: data: https://api.github.com",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'x-robots-tag': 'noindex',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'content-security-policy': EDITOR_POLICY,
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const page = (brand: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<meta name="robots" content="noindex"><title>Content editor | ${escapeHtml(brand)}</title>` +
  `<link rel="icon" href="/favicon.svg" type="image/svg+xml"></head><body>${body}</body></html>`;

function editorBody(backend: EditorBackend): string {
  const json = JSON.stringify(backend).replace(/</g, '\\u003c');
  return `<script type="application/json" id="editor-backend">${json}</script>` +
    `<script type="module" src="${EDITOR_BUNDLE_PATH}"></script><noscript>The content editor needs JavaScript.</noscript>`;
}

function setupBody(message: string, missing: readonly string[]): string {
  const variables = [EDITOR_VARIABLES.repo, EDITOR_VARIABLES.clientId, EDITOR_VARIABLES.clientSecret, EDITOR_VARIABLES.branch];
  const items = variables.map((name) => `<li><code>${name}</code>${missing.includes(name) ? ' (missing)' : ''}</li>`).join('');
  return `<main style="max-width: 40rem; margin: 4rem auto; padding: 0 1rem; font-family: system-ui, sans-serif; line-height: 1.5">` +
    `<h1>The content editor is not set up</h1><p>${escapeHtml(message)}</p>` +
    `<p>It needs a GitHub OAuth app (or a GitHub App) and these variables (the branch is optional, default main):</p><ul>${items}</ul>` +
    `<p>Content can always be edited as files in <code>src/content/</code>, or locally with <code>npm run dev</code> at <code>/admin</code>.</p></main>`;
}

export interface AdminRequest {
  origin: string;
  brand: string;
  env?: Record<string, string | undefined>;
}

/**
 * The page under the dev server, which answers /admin itself (scripts/platform/content-editor.ts) beside the file API
 * it serves: local editing exists exactly where that API does, never in a build, whatever NODE_ENV a build ran with.
 */
export function localAdminResponse({ origin, brand }: AdminRequest): Response {
  return new Response(page(brand, editorBody({ mode: 'local', proxyUrl: `${origin}${LOCAL_API_PATH}`, origin })), { headers: HEADERS });
}

/** The page on a deployed site (the on-demand route src/pages/admin/index.ts). */
export function adminResponse({ origin, brand, env = process.env }: AdminRequest): Response {
  const settings = githubSettings(env);
  if (!settings.ok) return new Response(page(brand, setupBody(setupMessage(settings), settings.missing)), { status: 503, headers: HEADERS });
  const { repo, branch } = settings.settings;
  return new Response(page(brand, editorBody({ mode: 'github', repo, branch, origin })), { headers: HEADERS });
}
