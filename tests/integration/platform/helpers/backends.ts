import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { closePool, databaseConnection } from '../../../../netlify/lib/db';
import { applyMigrations, pgTarget } from '../../../../netlify/lib/db/migrations';
import { startEmbeddedServices, type EmbeddedServices } from '../../../../scripts/platform/embedded/embedded-services';
import { findPostgresBin, MISSING_POSTGRES, postgresAvailability, startDebianPostgres } from '../../../support/debian-postgres';

/**
 * The databases the data layer is tested on. Each start() gives a fresh, migrated database and points
 * DATABASE_URL (and the other server env) at it.
 */
export interface Backend {
  name: string;
  available: boolean;
  /** Why the backend is unavailable (shown in the skipped test's name). */
  note?: string;
  start(): Promise<StartedBackend>;
}

export interface StartedBackend {
  url: string;
  stop(): Promise<void>;
}

/**
 * A fresh embedded platform (PGlite + socket, storage folder, secret) in a temp folder, its database a copy of
 * the run's migrated one (tests/integration/global-setup.ts), opened as `npm start` opens an existing one.
 */
export async function startEmbedded(): Promise<StartedBackend & { services: EmbeddedServices; dataDir: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-embedded-'));
  cpSync(inject('embeddedDatabaseTemplate'), path.join(dataDir, 'pgdata'), { recursive: true });
  delete process.env.APP_SECRET; // let the services create one in the temp folder
  const services = await startEmbeddedServices({ dataDir });
  await closePool();
  return {
    url: services.env.DATABASE_URL,
    services,
    dataDir,
    async stop() {
      await closePool();
      await services.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The test file's own embedded platform (database and storage) from before its first test to after its last,
 * with `env` set meanwhile (and removed after).
 */
export function useEmbeddedPlatform(env: Record<string, string> = {}): void {
  let platform: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  beforeAll(async () => {
    platform = await startEmbedded();
    Object.assign(process.env, env);
  });
  afterAll(async () => {
    for (const name of Object.keys(env)) delete process.env[name];
    await platform?.stop();
  });
}

const pgliteBackend: Backend = { name: 'embedded PGlite', available: true, start: startEmbedded };

const hasPostgres = findPostgresBin() !== null;

const debianBackend: Backend = {
  name: 'Debian PostgreSQL',
  ...postgresAvailability(),
  async start() {
    if (!hasPostgres) throw new Error(`${MISSING_POSTGRES} (required when CI is set)`);
    const server = await startDebianPostgres();
    // The settings every program takes (netlify/lib/db/connection.ts), from the URL the tests give the server.
    const client = new pg.Client(databaseConnection({ DATABASE_URL: server.url }));
    await client.connect();
    await applyMigrations(pgTarget(client), undefined, { nonProduction: true });
    await client.end();
    // Same server env as the embedded platform, minus the PGlite marker.
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lumora-pg-storage-'));
    Object.assign(process.env, {
      DATABASE_URL: server.url,
      STORAGE_DIR: dataDir,
      APP_SECRET: 'test-secret-for-debian-postgres-0123456789',
    });
    delete process.env.EMBEDDED_DATABASE;
    await closePool();
    return {
      url: server.url,
      async stop() {
        await closePool();
        await server.stop();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

if (!debianBackend.available) console.warn(`[platform tests] Debian PostgreSQL ${debianBackend.note}`);

export const backends: Backend[] = [pgliteBackend, debianBackend];
