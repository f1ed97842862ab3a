/**
 * `BASE_URL=https://… npm run smoke`: checks a running copy of the site over HTTP (scripts/tools/smoke-checks.ts) and
 * exits non-zero with the list of what failed. SMOKE_EXPECT=production|preview asserts the deploy's kind
 * (by default it is read from the site); SMOKE_TIMEOUT_S bounds the whole run (default 180).
 */
import { runSmoke } from './smoke-checks';

const baseUrl = process.env.BASE_URL?.trim();
if (!baseUrl || !URL.canParse(baseUrl)) {
  console.error('Set BASE_URL to the site to check, e.g. BASE_URL=https://deploy-preview-7--your-site.netlify.app npm run smoke');
  process.exit(2);
}
const expect = process.env.SMOKE_EXPECT?.trim();
if (expect && expect !== 'production' && expect !== 'preview') {
  console.error('SMOKE_EXPECT must be "production" or "preview"');
  process.exit(2);
}

console.log(`Smoke test of ${baseUrl}`);
const started = Date.now();
const results = await runSmoke(baseUrl, {
  timeoutMs: Number(process.env.SMOKE_TIMEOUT_S || 180) * 1000,
  expectContext: expect as 'production' | 'preview' | undefined,
  log: (line) => console.log(line),
});
const failed = results.filter((r) => !r.ok);
const seconds = ((Date.now() - started) / 1000).toFixed(1);
if (failed.length > 0) {
  console.error(`\nFAILED: ${failed.length} of ${results.length} checks (${seconds} s)`);
  for (const f of failed) console.error(`- ${f.name}: ${f.detail}`);
  process.exit(1);
}
console.log(`\nAll ${results.length} checks passed (${seconds} s)`);
