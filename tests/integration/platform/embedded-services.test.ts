import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout as delay } from 'node:timers/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { closePool, query } from '../../../netlify/lib/db';
import { platformHealth } from '../../../netlify/lib/health';
import { startEmbeddedServices } from '../../../scripts/platform/embedded/embedded-services';
import { extended, firstColumn, wireClient } from '../../support/postgres-wire';

// The embedded platform `npm start` runs: one owner of the PGlite folder, data kept across restarts.
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-services-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

describe('startEmbeddedServices', () => {
  it('keeps data, migrations and the secret across restarts', async () => {
    delete process.env.APP_SECRET;
    const first = await startEmbeddedServices({ dataDir });
    expect(first.migrationsApplied.length).toBeGreaterThan(0);
    expect(first.env.DATABASE_URL).toBe(`postgres://postgres@127.0.0.1:${first.port}/postgres`);
    expect(process.env.DATABASE_URL).toBe(first.env.DATABASE_URL);
    expect(first.env.STORAGE_DIR).toBe(path.join(dataDir, 'storage'));
    expect(readFileSync(path.join(dataDir, 'secret'), 'utf8').trim()).toBe(first.env.APP_SECRET);
    await query(`insert into leads (name, email) values ('Kept', 'kept@example.com')`);
    await closePool();
    await first.stop();

    delete process.env.APP_SECRET;
    const second = await startEmbeddedServices({ dataDir });
    try {
      expect(second.migrationsApplied).toEqual([]);
      expect(second.env.APP_SECRET).toBe(first.env.APP_SECRET);
      expect(await query(`select name from leads where email = 'kept@example.com'`)).toEqual([{ name: 'Kept' }]);
      expect(await platformHealth()).toEqual({ database: 'embedded-pglite', storage: 'local', ok: true });
    } finally {
      await closePool();
      await second.stop();
    }
  });

  it('refuses a second owner of the same folder with a clear message', async () => {
    const owner = await startEmbeddedServices({ dataDir, setEnv: false });
    try {
      await expect(startEmbeddedServices({ dataDir, setEnv: false })).rejects.toThrow(
        new RegExp(`already in use by process ${process.pid}`),
      );
      // The owner is unharmed.
      const client = new pg.Client({ connectionString: owner.env.DATABASE_URL });
      await client.connect();
      expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
      await client.end();
    } finally {
      await owner.stop();
    }
  });

  it('takes over a lock left by a process that is gone', async () => {
    const lock = path.join(dataDir, 'embedded.lock');
    writeFileSync(lock, '999999999:0:stale');
    const services = await startEmbeddedServices({ dataDir, setEnv: false });
    try {
      // The lock now names this process, and the folder's data is served as before.
      expect(readFileSync(lock, 'utf8')).toMatch(new RegExp(`^${process.pid}:`));
      const client = new pg.Client({ connectionString: services.env.DATABASE_URL });
      await client.connect();
      expect((await client.query(`select name from leads where email = 'kept@example.com'`)).rows).toEqual([{ name: 'Kept' }]);
      await client.end();
    } finally {
      await services.stop();
    }
    // Stopping releases it: nothing is left behind for the next start to take over.
    expect(existsSync(lock)).toBe(false);
  });

  it('reports an unconfigured database at call time, never at import', async () => {
    delete process.env.DATABASE_URL;
    await closePool();
    await expect(query('select 1')).rejects.toThrow('Database not configured: set DATABASE_URL (see .env.example)');
    expect(await platformHealth()).toMatchObject({ database: 'unconfigured', ok: false });
  });
});

describe('the embedded database socket, shared by every function', () => {
  it("keeps a client's query with parameters together when it arrives in two reads, and others wait for it", async () => {
    // node-postgres sends a query with parameters as Parse, Bind, Describe, Execute, Sync. Under load those can
    // arrive in two reads; another client's whole query between them closed the first one's portal (a CI run:
    // 'portal "" does not exist' for one of 50 concurrent reads).
    const services = await startEmbeddedServices({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'lumora-wire-')), setEnv: false });
    const [first, second, leaver] = await Promise.all([wireClient(services.port), wireClient(services.port), wireClient(services.port)]);
    try {
      first.send(extended.parse('select 1 as first'), extended.bind());
      await delay(100);
      second.send(extended.parse('select 2 as second'), extended.bind(), extended.describe(), extended.execute(), extended.sync());
      const secondAnswer = second.untilReady();
      await delay(100);
      first.send(extended.describe(), extended.execute(), extended.sync());
      const firstAnswer = await first.untilReady();
      expect(firstAnswer.filter((m) => m.type === 'E').map((m) => m.body.toString())).toEqual([]);
      expect(firstAnswer.filter((m) => m.type === 'D').map(firstColumn)).toEqual(['1']);
      expect((await secondAnswer).filter((m) => m.type === 'D').map(firstColumn)).toEqual(['2']);

      // A client that leaves in the middle of its query does not hold the others up.
      leaver.send(extended.parse('select 3 as left'), extended.bind());
      await delay(100);
      second.send(extended.parse('select 4 as after'), extended.bind(), extended.describe(), extended.execute(), extended.sync());
      const after = second.untilReady();
      leaver.close();
      expect((await after).filter((m) => m.type === 'D').map(firstColumn)).toEqual(['4']);
    } finally {
      for (const client of [first, second, leaver]) client.close();
      await services.stop();
    }
  });
});
