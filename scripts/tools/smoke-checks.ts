import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import type { PublicHealth } from '../../src/lib/health';

/**
 * A smoke test of any running copy of the site, over HTTP only (no build, no database): the pages a visitor
 * lands on, the 404 page, security headers, health, one small generated photo through upload → restore →
 * watermarked preview, and, only where the site says it runs the demonstration checkout, a purchase and the
 * clean download. It never pays for anything. The robots rules are checked against the site's own context
 * (a preview says noindex everywhere, production nowhere but the pages meant to stay out of search).
 */
export interface SmokeOptions {
  /** Whole-run budget; checks still pending when it is spent are reported as failed. */
  timeoutMs?: number;
  /** What the deploy is expected to be; by default read from the site (its home page's robots meta). */
  expectContext?: 'production' | 'preview';
  log?: (line: string) => void;
}

export interface SmokeResult {
  name: string;
  ok: boolean;
  detail: string;
  ms: number;
}

/** Pages every deploy has, each with one heading. The sitemap's pages are checked as well. */
export const KEY_PAGES = ['/', '/services', '/about-us', '/contact', '/blog', '/image-video-transformation', '/ai-agent-hub', '/ai-consulting'];
const REQUEST_TIMEOUT_MS = 30_000;
const PAGE_HEADERS = ['strict-transport-security', 'x-content-type-options', 'referrer-policy', 'x-frame-options'];
const PUBLIC_HEALTH_KEYS = ['ok', 'status', 'video', 'payments'] satisfies (keyof PublicHealth)[] as string[];

class SmokeFailure extends Error {}
const fail = (message: string): never => {
  throw new SmokeFailure(message);
};
const check = (condition: unknown, message: string) => {
  if (!condition) fail(message);
};

const headings = (html: string) => [...html.matchAll(/<h1\b[^>]*>([\s\S]*?)<\/h1>/g)].map((m) => m[1]!.replace(/<[^>]+>/g, '').trim());
const hasNoindexMeta = (html: string) => /<meta name="robots" content="[^"]*noindex/.test(html);

/** A small photo made here, so the smoke test needs no files: a grey sky over a darker round subject. */
async function smokePhoto(width = 320, height = 240): Promise<Buffer> {
  const raw = Buffer.alloc(width * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const dx = x - width / 2;
      const dy = y - height * 0.6;
      const subject = dx * dx + dy * dy < (height / 4) ** 2 ? 70 : 0;
      raw[y * width + x] = Math.round(200 - (y / height) * 80 - subject + ((x * 7 + y * 13) % 11) - 5);
    }
  }
  return sharp(raw, { raw: { width, height, channels: 1 } }).png().toBuffer();
}

/** Mean absolute difference of two images' grey values (0..255) at the first one's size. */
async function greyDifference(a: Buffer, b: Buffer): Promise<number> {
  const first = await sharp(a).greyscale().raw().toBuffer({ resolveWithObject: true });
  const second = await sharp(b).greyscale().resize(first.info.width, first.info.height, { fit: 'fill' }).raw().toBuffer();
  let sum = 0;
  for (let i = 0; i < first.data.length; i++) sum += Math.abs(first.data[i]! - second[i]!);
  return sum / first.data.length;
}

export async function runSmoke(baseUrl: string, options: SmokeOptions = {}): Promise<SmokeResult[]> {
  const base = new URL(baseUrl);
  const origin = base.origin;
  const deadline = Date.now() + (options.timeoutMs ?? 180_000);
  const log = options.log ?? (() => {});
  const results: SmokeResult[] = [];

  /** Every request: bounded by its own timeout and the run's deadline; sent as the site's own pages send it. */
  const request = (path: string, init: RequestInit = {}) => {
    const left = deadline - Date.now();
    if (left <= 0) fail('the smoke test ran out of time');
    const headers = new Headers(init.headers);
    if (init.method && init.method !== 'GET') {
      headers.set('origin', origin);
      headers.set('sec-fetch-site', 'same-origin');
    }
    return fetch(new URL(path, base), { redirect: 'follow', ...init, headers, signal: AbortSignal.timeout(Math.min(REQUEST_TIMEOUT_MS, left)) });
  };
  const json = async (res: Response, what: string): Promise<Record<string, unknown>> => {
    const text = await res.text();
    try {
      return JSON.parse(text) as Record<string, unknown>;
    } catch {
      return fail(`${what} answered ${res.status} with something that is not JSON: ${text.slice(0, 120)}`);
    }
  };

  async function step<T>(name: string, work: () => Promise<T>): Promise<T | undefined> {
    const started = Date.now();
    try {
      const value = await work();
      const ms = Date.now() - started;
      results.push({ name, ok: true, detail: typeof value === 'string' ? value : '', ms });
      log(`  ✓ ${name}${typeof value === 'string' && value ? ` (${value})` : ''} ${ms} ms`);
      return value;
    } catch (error) {
      const err = error as Error;
      const detail = err instanceof SmokeFailure ? err.message : `${err.name === 'TimeoutError' ? 'timed out' : err.message}${err.cause ? ` (${(err.cause as Error).message ?? err.cause})` : ''}`;
      results.push({ name, ok: false, detail, ms: Date.now() - started });
      log(`  ✗ ${name}: ${detail}`);
      return undefined;
    }
  }

  // Reachability first: a dead address ends the run at once with one clear failure.
  const home = await step(`${origin} answers`, async () => {
    const res = await request('/');
    check(res.status === 200, `the home page answered ${res.status}`);
    return { html: await res.text(), headers: res.headers };
  });
  if (!home) return results;

  const preview = hasNoindexMeta(home.html);
  const context = options.expectContext ?? (preview ? 'preview' : 'production');
  log(`  · the site presents itself as ${preview ? 'a preview (noindex)' : 'production (indexable)'}${options.expectContext ? `; expected ${options.expectContext}` : ''}`);

  await step('key pages answer 200 with one heading', async () => {
    const sitemapPaths = await request('/sitemap-0.xml')
      .then(async (res) => (res.ok ? [...(await res.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname) : []))
      .catch(() => [] as string[]);
    const paths = [...new Set([...KEY_PAGES, ...sitemapPaths])];
    const problems: string[] = [];
    for (let i = 0; i < paths.length; i += 6) {
      await Promise.all(
        paths.slice(i, i + 6).map(async (path) => {
          const res = await request(path);
          const found = headings(await res.text());
          if (res.status !== 200) problems.push(`${path} answered ${res.status}`);
          else if (found.length !== 1 || !found[0]) problems.push(`${path} has ${found.length} headings (h1)`);
        }),
      );
    }
    check(problems.length === 0, problems.join('; '));
    check(sitemapPaths.length > 0, 'the sitemap (/sitemap-0.xml) lists no pages');
    return `${paths.length} pages`;
  });

  await step('an unknown address is the 404 page', async () => {
    const res = await request(`/smoke-missing-${randomUUID().slice(0, 8)}`);
    check(res.status === 404, `answered ${res.status}`);
    check(headings(await res.text()).length === 1, 'the 404 page has no heading');
  });

  await step('pages carry the security headers and a Content-Security-Policy', async () => {
    const missing = PAGE_HEADERS.filter((name) => !home.headers.get(name));
    check(missing.length === 0, `missing ${missing.join(', ')}`);
    check(/<meta http-equiv="content-security-policy" content="[^"]*script-src/i.test(home.html) || home.headers.get('content-security-policy')?.includes('script-src'), 'no script-src policy on the home page');
  });

  const health = await step('/api/health is healthy and tells visitors no configuration', async () => {
    const res = await request('/api/health');
    const body = await json(res, '/api/health');
    check(res.status === 200 && body.ok === true, `answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}`);
    // Public: ok, ok/degraded/down, whether videos can be made and the payment mode (src/lib/health.ts); details need the operator's secret.
    const extra = Object.keys(body).filter((key) => !PUBLIC_HEALTH_KEYS.includes(key));
    check(extra.length === 0, `its public answer shows configuration details: ${extra.join(', ')}`);
    const csp = res.headers.get('content-security-policy') ?? '';
    check(csp.includes("default-src 'none'"), 'its answer has no closed Content-Security-Policy');
    check(res.headers.get('x-content-type-options') === 'nosniff', 'its answer lacks X-Content-Type-Options');
    return { body, headers: res.headers };
  });

  await step(`robots rules of ${context === 'preview' ? 'a preview' : 'production'}`, async () => {
    check((context === 'preview') === preview, `the home page ${preview ? 'says' : 'does not say'} noindex, but ${context} was expected`);
    const pageTag = home.headers.get('x-robots-tag') ?? '';
    const apiTag = health?.headers.get('x-robots-tag') ?? '';
    const robots = await request('/robots.txt');
    const robotsText = robots.ok ? await robots.text() : '';
    const label = /data-preview-label/.test(home.html);
    if (context === 'preview') {
      check(pageTag.includes('noindex'), 'pages lack X-Robots-Tag: noindex');
      check(!health || apiTag.includes('noindex'), 'API answers lack X-Robots-Tag: noindex');
      check(label, 'the Preview label is missing');
      check(!/^Disallow:\s*\/\s*$/m.test(robotsText), 'robots.txt disallows crawling, which would hide the noindex');
    } else {
      check(!pageTag.includes('noindex') && !apiTag.includes('noindex'), 'a production answer says X-Robots-Tag: noindex');
      check(!label, 'production shows the Preview label');
      check(robots.ok && /^Sitemap: \S+/m.test(robotsText), 'robots.txt names no sitemap');
    }
  });

  const processed = await step('a photo goes through upload → restoration → watermarked preview', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(await smokePhoto())], { type: 'image/png' }), 'smoke-test.png');
    form.append('model', 'sd-xl');
    form.append('prompt', 'Restore and colorize this smoke-test photo');
    const res = await request('/api/process-image', { method: 'POST', body: form });
    const body = await json(res, '/api/process-image');
    check(res.status === 200 && body.success === true && typeof body.transformationId === 'string', `answered ${res.status}: ${String(body.error ?? '')}`);
    const previewRes = await request(String(body.processedUrl));
    check(previewRes.status === 200 && (previewRes.headers.get('content-type') ?? '').startsWith('image/'), `the preview answered ${previewRes.status}`);
    const previewBytes = Buffer.from(await previewRes.arrayBuffer());
    const { width, height } = await sharp(previewBytes).metadata();
    check(width && height, 'the preview is not an image');
    // The owner secret proves, at checkout, that this run made the photo it buys (the cart sends it the same way).
    check(typeof body.ownerSecret === 'string', 'the answer carries no owner secret for the photo');
    return { id: body.transformationId as string, ownerSecret: body.ownerSecret as string, previewBytes };
  });

  // `demo` on a preview means demo payments on its own data: a preview on a database not declared non-production
  // reports `misconfigured` (netlify/lib/payments/selling.ts), so the smoke test never buys from production data.
  const mode = (health?.body.payments as { mode?: string } | undefined)?.mode;
  if (mode !== 'demo') {
    log(`  · checkout skipped: the site reports ${mode ? `${mode} payments` : 'no payment mode'}, and a smoke test never pays`);
  } else if (processed) {
    await step('demo checkout, then the clean download differs from the watermarked preview', async () => {
      const res = await request('/api/checkout', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ items: [{ transformationId: processed.id, ownerSecret: processed.ownerSecret }], idempotencyKey: `smoke-${randomUUID()}` }),
      });
      const body = await json(res, '/api/checkout');
      check(res.status === 200 && body.success === true, `answered ${res.status}: ${String(body.error ?? '')}`);
      const link = (body.downloads as { transformationId: string; url: string }[] | undefined)?.find((d) => d.transformationId === processed.id);
      check(link, 'the order lists no download for the photo');
      const file = await request(link!.url);
      check(file.status === 200, `the clean download answered ${file.status}`);
      const difference = await greyDifference(Buffer.from(await file.arrayBuffer()), processed.previewBytes);
      check(difference > 0.5, `the clean file looks like the preview (mean difference ${difference.toFixed(2)}): is the watermark missing?`);
      return `order ${String(body.paymentId).slice(0, 8)}`;
    });
  }
  return results;
}
