/**
 * The one place the Content-Security-Policy and the other security headers are computed, from the
 * configuration: SUPABASE_URL (Storage serves previews, videos, downloads and takes direct signed uploads)
 * and each configured PUBLIC_* embed. The operator never writes a policy by hand.
 *
 * Where each part goes:
 * - Pages: astro.config.mjs hands `astroCsp()` to Astro's `security.csp`, which writes the policy into each
 *   built page's <meta http-equiv="content-security-policy"> with the hashes of that page's inline scripts
 *   and styles (so `script-src` needs no 'unsafe-inline'). The headers a <meta> cannot carry
 *   (`frame-ancestors`, HSTS, nosniff…) go into `dist/_headers`, which Netlify applies to every static file
 *   and `npm start` serves through Netlify's own emulator: the same file on both.
 * - Functions: Netlify's static headers never reach a function's answer, so `withErrors` (netlify/lib/http.ts)
 *   sets `API_HEADERS` on every one.
 * Nothing here is wider than needed: no `*`, no bare scheme for scripts, no 'unsafe-inline' in script-src.
 */

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AstroUserConfig } from 'astro';
import { THEME_INIT_SCRIPT } from '../../src/lib/theme';
import { NOINDEX_HEADER } from '../../src/lib/deploy-context';

type Env = Record<string, string | undefined>;
export type Policy = Record<string, string[]>;

/** PUBLIC_* embed variables and the directives their origin needs. */
export const EMBED_DIRECTIVES = {
  PUBLIC_NEWSLETTER_FORM_URL: ['frame-src'],
  PUBLIC_BOOKING_CALENDAR_URL: ['frame-src'],
  PUBLIC_CONTACT_FORM_URL: ['frame-src'],
  PUBLIC_MARKET_RESEARCH_AGENT_URL: ['frame-src'],
  PUBLIC_RESEARCH_WORKSPACE_URL: ['frame-src'],
  PUBLIC_ASK_AI_ASSISTANT_URL: ['frame-src'],
  // A chat widget loads its script, then talks to and draws its panel from the same origin.
  PUBLIC_CHAT_WIDGET_SCRIPT_URL: ['script-src', 'connect-src', 'frame-src'],
} as const satisfies Record<string, readonly string[]>;

/** Storage answers the browser reaches directly: <img> previews, <video>, fetch() downloads and PUT uploads. */
const STORAGE_DIRECTIVES = ['img-src', 'media-src', 'connect-src'] as const;

export interface PolicyInputs {
  /** Supabase Storage's origin, or null when files are served by this site (local storage). */
  storageOrigin: string | null;
  /** Origins each directive gains from the configured embeds. */
  embeds: Policy;
}

function originOf(variable: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`${variable} is not a valid URL: ${value}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${variable} must be an http(s) URL: ${value}`);
  return url.origin;
}

/** Reads the variables that feed the policy; a malformed URL stops the build with its variable's name. */
export function policyInputs(env: Env = process.env): PolicyInputs {
  const supabase = env.SUPABASE_URL?.trim();
  const embeds: Policy = {};
  for (const [variable, directives] of Object.entries(EMBED_DIRECTIVES)) {
    const value = env[variable]?.trim();
    if (!value) continue;
    const origin = originOf(variable, value);
    for (const directive of directives) embeds[directive] = [...new Set([...(embeds[directive] ?? []), origin])];
  }
  return { storageOrigin: supabase ? originOf('SUPABASE_URL', supabase) : null, embeds };
}

/**
 * The whole policy of a page, without Astro's per-page hashes. `style-src-attr 'unsafe-inline'` allows
 * style *attributes* only (React islands and sized frames set them; they cannot run code); <style> elements
 * stay hash-only through Astro.
 */
export function pagePolicy(inputs: PolicyInputs): Policy {
  const storage = inputs.storageOrigin ? [inputs.storageOrigin] : [];
  const extra = (directive: string) => inputs.embeds[directive] ?? [];
  const policy: Policy = {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...extra('script-src')],
    'style-src': ["'self'"],
    'style-src-attr': ["'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'media-src': ["'self'", 'blob:'],
    'font-src': ["'self'"],
    'connect-src': ["'self'", ...extra('connect-src')],
    'frame-src': extra('frame-src').length ? extra('frame-src') : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
  };
  for (const directive of STORAGE_DIRECTIVES) policy[directive] = [...policy[directive]!, ...storage];
  return policy;
}

/** Directives a <meta> policy cannot carry (browsers ignore them there): sent as a header instead. */
export const HEADER_ONLY_POLICY: Policy = { 'frame-ancestors': ["'none'"] };

/** For JSON and file answers: nothing may load or run in them, and no one may frame them. */
export const API_POLICY: Policy = { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"], 'form-action': ["'none'"] };

export const serializePolicy = (policy: Policy) =>
  Object.entries(policy)
    .map(([directive, sources]) => [directive, ...sources].join(' '))
    .join('; ');

export function parsePolicy(text: string): Policy {
  const policy: Policy = {};
  for (const part of text.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name && !(name.toLowerCase() in policy)) policy[name.toLowerCase()] = sources;
  }
  return policy;
}

/** Headers every answer carries, page or function. */
const COMMON_HEADERS = {
  'Strict-Transport-Security': 'max-age=63072000; includeSubDomains; preload',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=(), usb=()',
  'X-Frame-Options': 'DENY',
} as const;

/** Headers of every static file (pages carry the rest of their policy in their <meta>). */
export const STATIC_HEADERS: Record<string, string> = {
  ...COMMON_HEADERS,
  'Content-Security-Policy': serializePolicy(HEADER_ONLY_POLICY),
};

/** Headers of every function answer. */
export const API_HEADERS: Record<string, string> = {
  ...COMMON_HEADERS,
  'Content-Security-Policy': serializePolicy(API_POLICY),
};

/**
 * `dist/_headers`: read by Netlify in production and by its emulator under `npm start`. A preview or branch
 * deploy's files (pages, images, feeds) all carry noindex.
 */
export function headersFile({ noindex = false }: { noindex?: boolean } = {}): string {
  const headers = noindex ? { ...STATIC_HEADERS, ...NOINDEX_HEADER } : STATIC_HEADERS;
  const lines = Object.entries(headers).map(([name, value]) => `  ${name}: ${value}`);
  return ['# Generated at build time by netlify/lib/security-headers.ts; edit that module, not this file.', '/*', ...lines, ''].join('\n');
}

const sha256 = (text: string) => `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}` as const;

/**
 * Inline scripts Astro does not process (`is:inline`), so it cannot hash them itself. The theme script sits
 * in <head> before Astro's <meta> (it must run before first paint); the build test checks that nothing but it
 * and JSON-LD data comes before the policy.
 */
export const INLINE_SCRIPT_HASHES = [sha256(THEME_INIT_SCRIPT)];

/**
 * The <style> the toast library (sonner) adds at run time: its stylesheet, as one string literal passed to
 * `__insertCSS` in the module the browser bundle is built from. Read from the installed package at build
 * time, so an upgrade that changes its CSS changes the hash with it (and one that drops the call fails here).
 */
export function toastStyleHash(): `sha256-${string}` {
  const file = createRequire(import.meta.url).resolve('sonner').replace(/index\.js$/, 'index.mjs');
  const source = readFileSync(file, 'utf8');
  const literal = /__insertCSS\(("(?:[^"\\]|\\.)*")\)/.exec(source)?.[1];
  if (!literal) throw new Error(`sonner no longer injects its CSS through __insertCSS("…") in ${file}: update toastStyleHash()`);
  return sha256(JSON.parse(literal) as string);
}

/**
 * Astro's `security.csp` option for this configuration: every directive except the two Astro owns
 * (script-src and style-src, which it completes with each page's hashes).
 */
type AstroCsp = Exclude<NonNullable<NonNullable<AstroUserConfig['security']>['csp']>, boolean>;

export function astroCsp(inputs: PolicyInputs): AstroCsp {
  const { 'script-src': script = [], 'style-src': style = [], 'style-src-attr': styleAttr = [], ...rest } = pagePolicy(inputs);
  return {
    algorithm: 'SHA-256',
    directives: Object.entries(rest).map(([directive, sources]) => [directive, ...sources].join(' ')) as AstroCsp['directives'],
    scriptDirective: { resources: script, hashes: INLINE_SCRIPT_HASHES },
    styleDirective: {
      hashes: [toastStyleHash()],
      resources: [...style.map((resource) => ({ resource, kind: 'element' as const })), ...styleAttr.map((resource) => ({ resource, kind: 'attribute' as const }))],
    },
  };
}

/** Whether a source list lets `origin` in (`selfOrigin` is the page's own). */
function sourcesAllow(sources: readonly string[], origin: string, selfOrigin: string): boolean {
  return sources.some((source) => source === origin || (source === "'self'" && origin === selfOrigin));
}

/**
 * Whether every policy a browser enforces on a page lets `origin` in for `directive` (falling back to
 * default-src as browsers do; a policy with neither does not restrict it).
 */
export function policiesAllow(policies: readonly Policy[], directive: string, origin: string, selfOrigin: string): boolean {
  return policies.every((policy) => {
    const sources = policy[directive] ?? policy['default-src'];
    return !sources || sourcesAllow(sources, origin, selfOrigin);
  });
}

/** The directives Storage needs that these policies do not grant `origin`. */
export function storageDirectivesMissing(policies: readonly Policy[], origin: string, selfOrigin: string): string[] {
  return STORAGE_DIRECTIVES.filter((directive) => !policiesAllow(policies, directive, origin, selfOrigin));
}

/** The policies a page delivers: its <meta> and its Content-Security-Policy header (each enforced). */
export function pagePolicies(html: string, header: string | null): Policy[] {
  const policies: Policy[] = [];
  for (const match of html.matchAll(/<meta\s[^>]*http-equiv=["']?content-security-policy["']?[^>]*>/gi)) {
    const content = /content=(?:"([^"]*)"|'([^']*)')/i.exec(match[0]);
    if (content) policies.push(parsePolicy((content[1] ?? content[2] ?? '').replaceAll('&#39;', "'").replaceAll('&quot;', '"')));
  }
  for (const part of header ? header.split(',') : []) if (part.trim()) policies.push(parsePolicy(part));
  return policies;
}
