import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  API_HEADERS,
  INLINE_SCRIPT_HASHES,
  astroCsp,
  headersFile,
  pagePolicies,
  pagePolicy,
  parsePolicy,
  policyInputs,
  serializePolicy,
  storageDirectivesMissing,
  toastStyleHash,
  type Policy,
} from '../../../netlify/lib/security-headers';
import { THEME_INIT_SCRIPT } from '../../../src/lib/theme';

const SUPABASE = 'https://abcdefgh.supabase.co';
const CONFIGURED = {
  SUPABASE_URL: `${SUPABASE}/`,
  PUBLIC_BOOKING_CALENDAR_URL: 'https://calendar.example.net/book/123?x=1',
  PUBLIC_NEWSLETTER_FORM_URL: 'https://forms.example.org/newsletter',
  PUBLIC_CHAT_WIDGET_SCRIPT_URL: 'https://widget.example.com/v2/embed.js',
};

/** Every source of every directive: nothing may be a wildcard or a bare scheme a script could come from. */
function assertNothingWider(policy: Policy) {
  for (const [directive, sources] of Object.entries(policy)) {
    for (const source of sources) {
      expect(source, `${directive} ${source}`).not.toContain('*');
      expect(['https:', 'http:', 'wss:', 'ws:'], `${directive} ${source}`).not.toContain(source);
    }
  }
  expect(policy['script-src']).not.toContain("'unsafe-inline'");
  expect(policy['script-src']).not.toContain("'unsafe-eval'");
  // The one 'unsafe-inline' is for style attributes, which cannot run code.
  const inline = Object.entries(policy).filter(([, sources]) => sources.includes("'unsafe-inline'")).map(([d]) => d);
  expect(inline).toEqual(['style-src-attr']);
}

describe('the policy generated from the configuration', () => {
  it('lets the browser reach Supabase Storage and each configured embed, and nothing else', () => {
    const policy = pagePolicy(policyInputs(CONFIGURED));
    for (const directive of ['img-src', 'media-src', 'connect-src']) expect(policy[directive]).toContain(SUPABASE);
    expect(policy['frame-src']).toEqual(['https://forms.example.org', 'https://calendar.example.net', 'https://widget.example.com']);
    expect(policy['script-src']).toEqual(["'self'", 'https://widget.example.com']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://widget.example.com', SUPABASE]);
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    assertNothingWider(policy);
  });

  it('is same-origin only when nothing is configured (local storage is this site)', () => {
    const policy = pagePolicy(policyInputs({}));
    expect(policy['frame-src']).toEqual(["'none'"]);
    expect(policy['connect-src']).toEqual(["'self'"]);
    expect(policy['img-src']).toEqual(["'self'", 'data:', 'blob:']);
    expect(policy['media-src']).toEqual(["'self'", 'blob:']);
    assertNothingWider(policy);
  });

  it('stops the build on a malformed URL, naming the variable', () => {
    expect(() => policyInputs({ PUBLIC_CONTACT_FORM_URL: 'forms.example.org/contact' })).toThrow(/PUBLIC_CONTACT_FORM_URL is not a valid URL/);
    expect(() => policyInputs({ SUPABASE_URL: 'javascript:alert(1)' })).toThrow(/SUPABASE_URL must be an http\(s\) URL/);
  });

  it('hands Astro every directive but the two it completes with hashes, plus the hashes it cannot compute', () => {
    const csp = astroCsp(policyInputs(CONFIGURED));
    const names = (csp.directives ?? []).map((d) => d.split(' ')[0]);
    expect(names).not.toContain('script-src');
    expect(names).not.toContain('style-src');
    expect(names).not.toContain('frame-ancestors');
    expect(csp.directives).toContain(`img-src 'self' data: blob: ${SUPABASE}`);
    expect(csp.scriptDirective?.resources).toEqual(["'self'", 'https://widget.example.com']);
    const themeHash = `sha256-${createHash('sha256').update(THEME_INIT_SCRIPT).digest('base64')}`;
    expect(csp.scriptDirective?.hashes).toEqual([themeHash]);
    expect(INLINE_SCRIPT_HASHES).toEqual([themeHash]);
    expect(csp.styleDirective?.hashes).toEqual([toastStyleHash()]);
    expect(toastStyleHash()).toMatch(/^sha256-[A-Za-z0-9+/]{43}=$/);
  });

  it('writes the headers a <meta> cannot carry into the _headers file, and a closed policy for functions', () => {
    const file = headersFile();
    expect(file).toMatch(/^\/\*$/m);
    expect(file).toContain("  Content-Security-Policy: frame-ancestors 'none'");
    expect(file).toContain('  X-Content-Type-Options: nosniff');
    expect(file).toContain('  Strict-Transport-Security: max-age=63072000; includeSubDomains; preload');
    expect(file).not.toContain('X-Robots-Tag');
    // A preview's files all carry noindex.
    expect(headersFile({ noindex: true })).toContain('  X-Robots-Tag: noindex\n');
    expect(parsePolicy(API_HEADERS['Content-Security-Policy']!)).toEqual({
      'default-src': ["'none'"],
      'frame-ancestors': ["'none'"],
      'base-uri': ["'none'"],
      'form-action': ["'none'"],
    });
  });
});

describe('reading a delivered policy back', () => {
  const site = 'https://shop.example.com';
  const meta = (policy: Policy) => `<head><meta http-equiv="content-security-policy" content="${serializePolicy(policy)}"></head>`;

  it('finds Storage allowed by the generated policy, and names what a hand-written one lacks', () => {
    const generated = pagePolicies(meta(pagePolicy(policyInputs(CONFIGURED))), "frame-ancestors 'none'");
    expect(generated).toHaveLength(2);
    expect(storageDirectivesMissing(generated, SUPABASE, site)).toEqual([]);

    const old = parsePolicy("default-src 'self'; img-src 'self' data: blob:; media-src 'self' blob: data:; connect-src 'self'");
    expect(storageDirectivesMissing(pagePolicies(meta(old), null), SUPABASE, site)).toEqual(['img-src', 'media-src', 'connect-src']);
    // default-src stands in for a missing directive, as in browsers.
    expect(storageDirectivesMissing([parsePolicy(`default-src 'self' ${SUPABASE}`)], SUPABASE, site)).toEqual([]);
    // Same-origin storage is allowed by 'self'.
    expect(storageDirectivesMissing([old], site, site)).toEqual([]);
  });
});
