import { afterAll, beforeAll, expect, vi } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import packages from '../../../netlify/functions/packages.mts';
import { query } from '../../../netlify/lib/db';
import { PACKAGE_KEY_HEADER } from '../../../src/lib/packages';
import { OWNER_SECRET_HEADER } from '../../../src/lib/tool/ownership';
import { newKey } from '../platform/helpers/seed';
import { startEmbedded } from '../platform/helpers/backends';
import { inlineJobs } from '../../../netlify/lib/batches';

export const BASE = 'http://localhost:8888';

/** A demo checkout of one package (optionally with an e-mail); its order answer. */
export async function buyPackage(packageId = 'basic-restoration', email?: string) {
  const res = await checkout(
    new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ packageId }], idempotencyKey: newKey(), ...(email && { email }) }) }),
    {},
  );
  expect(res.status).toBe(200);
  return res.json();
}

/** The key out of a package link (`…#package=<key>`). */
export const keyOf = (link: string) => decodeURIComponent(link.split('#package=')[1]!);

export const packageRequest = (path: string, key: string | null, init: { method?: string; body?: unknown; ownerSecret?: string } = {}) =>
  packages(
    new Request(`${BASE}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(key && { [PACKAGE_KEY_HEADER]: key }),
        ...(init.ownerSecret && { [OWNER_SECRET_HEADER]: init.ownerSecret }),
        ...(init.body !== undefined && { 'content-type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
    {},
  );

export const take = (key: string, transformationId: string, ownerSecret?: string) =>
  packageRequest('/api/packages/take', key, { method: 'POST', body: { transformationId }, ...(ownerSecret && { ownerSecret }) });

/** Everything a read could change: "changes nothing" compares two of these. */
export async function allowanceState() {
  return {
    allowances: await query('select id, images_used, revoked_at, link_version from package_allowances order by id'),
    takes: await query('select transformation_id, allowance_id from allowance_takes order by transformation_id'),
    purchased: await query('select id from media_transformations where purchased order by id'),
    batches: await query('select id from tool_batches order by id'),
    events: await query(`select id from outbox_events order by id`),
  };
}

/**
 * The test file's embedded platform with batch jobs run in this process, whatever deploy this checkout last recorded:
 * a site server another test project started (its URL in the deploy record) would take the trigger, answer 202 and
 * refuse the job's signature (its own APP_SECRET), leaving the photos working until their lease ran out.
 */
export function useInlineBatchPlatform(): void {
  let platform: Awaited<ReturnType<typeof startEmbedded>>;
  beforeAll(async () => {
    vi.stubEnv('BATCH_JOB_RUNNER', 'inline');
    platform = await startEmbedded();
  });
  afterAll(async () => {
    await Promise.all(inlineJobs);
    await platform?.stop();
    vi.unstubAllEnvs();
  });
}
