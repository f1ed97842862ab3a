import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import checkout from '../../../netlify/functions/checkout.mts';
import health from '../../../netlify/functions/health.mts';
import { closePool, query } from '../../../netlify/lib/db';
import { forgetDatabaseRole } from '../../../netlify/lib/db/role';
import { resetDeployState } from '../../../netlify/lib/running-deploy';
import { MSG } from '../../../src/lib/messages';
import { operatorHealthRequest } from '../../support/operator-health';
import { startEmbedded } from '../platform/helpers/backends';
import { countRows, newKey, seedCompleted } from '../platform/helpers/seed';

// The abuse corpus, deploy contexts: a Deploy Preview sharing the production database cannot sell from it.
const BASE = 'http://localhost:8888';
let platform: Awaited<ReturnType<typeof startEmbedded>>;
const savedEnv = { ...process.env };

beforeAll(async () => {
  platform = await startEmbedded();
});
afterAll(async () => {
  await closePool();
  await platform?.stop();
  process.env = { ...savedEnv };
});
afterEach(async () => {
  for (const k of ['CONTEXT', 'PAYMENTS', 'NETLIFY', 'SITE_ID']) delete process.env[k];
  await query(`insert into database_role (role) values ('non-production') on conflict do nothing`);
  forgetDatabaseRole();
  resetDeployState();
});

let ip = 1;
const buy = async (transformationId: string, context?: string) => {
  const ctx = { ip: `10.77.${ip >> 8}.${ip++ & 255}`, ...(context && { deploy: { context } }) };
  return checkout(new Request(`${BASE}/api/checkout`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ items: [{ transformationId }], idempotencyKey: newKey() }) }), ctx as never);
};
/** The database as production's: no declaration (a migration runner that was not told it is a test database). */
const undeclare = async () => {
  await query(`delete from database_role`);
  forgetDatabaseRole();
};

describe('previews never sell from production data', () => {
  it('a CONTEXT=deploy-preview function on a database not marked non-production: checkout 503, nothing written', async () => {
    const item = await seedCompleted();
    await undeclare();
    process.env.CONTEXT = 'deploy-preview';
    const before = await countRows();
    const res = await buy(item.id);
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe(MSG.checkoutOffOnPreview);
    expect(await countRows()).toEqual(before);
  });

  it('the same refusal from Netlify’s functions context (a branch deploy), whatever CONTEXT says', async () => {
    const item = await seedCompleted();
    await undeclare();
    const before = await countRows();
    resetDeployState();
    const res = await buy(item.id, 'branch-deploy');
    expect(res.status).toBe(503);
    expect(await countRows()).toEqual(before);
  });

  it('/api/health says why: misconfigured for the public, the problem for the operator', async () => {
    await undeclare();
    process.env.CONTEXT = 'deploy-preview';
    const open = await (await health(new Request(`${BASE}/api/health`), {} as never)).json();
    expect(open.payments).toEqual({ mode: 'misconfigured' });
    const operator = await (await health(operatorHealthRequest(`${BASE}/api/health`), {} as never)).json();
    expect(operator.payments).toMatchObject({ mode: 'misconfigured', database: 'undeclared', context: 'deploy-preview' });
    expect(operator.payments.problem).toMatch(/does not declare itself non-production/);
  });

  it('a preview on its own test database (the marker row) sells, and says demo (what the smoke test buys on)', async () => {
    process.env.CONTEXT = 'deploy-preview';
    const item = await seedCompleted();
    const res = await buy(item.id);
    expect(res.status).toBe(200);
    expect((await res.json()).downloads).toHaveLength(1);
    const open = await (await health(new Request(`${BASE}/api/health`), {} as never)).json();
    expect(open.payments).toEqual({ mode: 'demo' });
  });

  it('an unknown context counts as production: PAYMENTS must be named, no demo by default', async () => {
    const item = await seedCompleted();
    const before = await countRows();
    process.env.CONTEXT = 'staging';
    const res = await buy(item.id);
    expect(res.status).toBe(503);
    expect((await res.json()).error).toBe(MSG.paymentsUnavailable);
    // On Netlify without any context name at all: production too.
    delete process.env.CONTEXT;
    process.env.SITE_ID = 'site-123';
    expect((await buy(item.id)).status).toBe(503);
    expect(await countRows()).toEqual(before);
  });

  it('production sells from its own (undeclared) database once PAYMENTS is named', async () => {
    const item = await seedCompleted();
    await undeclare();
    Object.assign(process.env, { CONTEXT: 'production', PAYMENTS: 'demo' });
    expect((await buy(item.id)).status).toBe(200);
  });
});
