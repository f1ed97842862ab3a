// @ts-check
/**
 * The Content-Security-Policy in netlify.toml must allow exactly the configured embeds. This check runs at
 * build time (astro.config.mjs): an embed URL set through a PUBLIC_* variable whose origin is not in the
 * matching CSP directive fails the build with a message saying what to add, instead of shipping a page
 * whose frame the browser silently blocks.
 */
import { readFileSync } from 'node:fs';

/** Embed variables and the CSP directive that must allow their origin. */
export const EMBED_DIRECTIVES = {
  PUBLIC_NEWSLETTER_FORM_URL: 'frame-src',
  PUBLIC_BOOKING_CALENDAR_URL: 'frame-src',
  PUBLIC_CONTACT_FORM_URL: 'frame-src',
  PUBLIC_MARKET_RESEARCH_AGENT_URL: 'frame-src',
  PUBLIC_RESEARCH_WORKSPACE_URL: 'frame-src',
  PUBLIC_ASK_AI_ASSISTANT_URL: 'frame-src',
  PUBLIC_CHAT_WIDGET_SCRIPT_URL: 'script-src',
};

/** @param {string} toml */
export function readCsp(toml) {
  const match = /Content-Security-Policy\s*=\s*"([^"]+)"/.exec(toml);
  if (!match) throw new Error('netlify.toml has no Content-Security-Policy header');
  /** @type {Record<string, string[]>} */
  const directives = {};
  for (const part of match[1].split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    if (name) directives[name] = sources;
  }
  return directives;
}

/**
 * @param {Record<string, string[]>} csp
 * @param {Record<string, string | undefined>} env
 * @returns {string[]} problems, empty when every configured embed is allowed
 */
export function embedProblems(csp, env) {
  const problems = [];
  for (const [variable, directive] of Object.entries(EMBED_DIRECTIVES)) {
    const value = env[variable]?.trim();
    if (!value) continue;
    let origin;
    try {
      origin = new URL(value).origin;
    } catch {
      problems.push(`${variable} is not a valid URL: ${value}`);
      continue;
    }
    const allowed = csp[directive] ?? csp['default-src'] ?? [];
    const ok = allowed.some((src) => src === origin || (src.includes('*.') && origin.endsWith(src.split('*')[1] ?? '\0')));
    if (!ok) problems.push(`${variable} (${origin}) is not allowed by ${directive} in netlify.toml's Content-Security-Policy: add ${origin} to ${directive}.`);
  }
  return problems;
}

/** @param {URL} root */
export function assertEmbedsAllowed(root, env = process.env) {
  const problems = embedProblems(readCsp(readFileSync(new URL('netlify.toml', root), 'utf8')), env);
  if (problems.length) throw new Error(`Embed configuration:\n- ${problems.join('\n- ')}`);
}
