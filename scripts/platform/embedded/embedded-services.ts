import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { applyMigrations, type MigrationTarget } from '../../../netlify/lib/db/migrations';
import { acquireDataDirLock } from './lock';
import { withExtendedQueriesTogether } from './pglite-sessions';
import { loadOrCreateSecret } from './secret';

/**
 * The embedded platform for `npm start` and the tests: ONE process owns the PGlite folder (PGlite has no
 * lock of its own, and Netlify bundles every function separately), applies the migrations and serves the
 * database on loopback through pglite-socket. Server code only ever sees DATABASE_URL.
 */
export interface EmbeddedServicesOptions {
  /** Folder for pgdata/, storage/, secret and the lock; `npm start` uses `.data`. */
  dataDir: string;
  /** Loopback port of the database socket; 0 (default) picks a free one. */
  port?: number;
  /** Copy the returned env into process.env (default true). */
  setEnv?: boolean;
  /** Socket connections accepted at once; keep DATABASE_POOL_MAX × live function bundles below it. */
  maxConnections?: number;
}

export interface EmbeddedEnv {
  DATABASE_URL: string;
  /** Marks the database as the embedded one for platformHealth(). */
  EMBEDDED_DATABASE: 'pglite';
  STORAGE_DIR: string;
  APP_SECRET: string;
}

export interface EmbeddedServices {
  env: EmbeddedEnv;
  port: number;
  /** Migration versions applied by this start. */
  migrationsApplied: string[];
  stop(): Promise<void>;
}

export async function startEmbeddedServices(options: EmbeddedServicesOptions): Promise<EmbeddedServices> {
  const dataDir = path.resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true });
  const releaseLock = await acquireDataDirLock(dataDir);

  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  try {
    db = await PGlite.create(path.join(dataDir, 'pgdata'));
    const migrationsApplied = await applyMigrations(pgliteTarget(db), undefined, { nonProduction: true });

    server = new PGLiteSocketServer({
      db: withExtendedQueriesTogether(db),
      host: '127.0.0.1',
      port: options.port ?? 0,
      maxConnections: options.maxConnections ?? 100,
    });
    await server.start();
    const port = Number(server.getServerConn().split(':').pop());

    const storageDir = path.join(dataDir, 'storage');
    await mkdir(storageDir, { recursive: true });

    const env: EmbeddedEnv = {
      DATABASE_URL: `postgres://postgres@127.0.0.1:${port}/postgres`,
      EMBEDDED_DATABASE: 'pglite',
      STORAGE_DIR: storageDir,
      APP_SECRET: process.env.APP_SECRET?.trim() || (await loadOrCreateSecret(path.join(dataDir, 'secret'))),
    };
    if (options.setEnv !== false) Object.assign(process.env, env);

    const running = { db, server };
    let stopped = false;
    return {
      env,
      port,
      migrationsApplied,
      async stop() {
        if (stopped) return;
        stopped = true;
        await running.server.stop();
        await running.db.close();
        await releaseLock();
      },
    };
  } catch (error) {
    await server?.stop().catch(() => {});
    await db?.close().catch(() => {});
    await releaseLock();
    throw error;
  }
}

function pgliteTarget(db: PGlite): MigrationTarget {
  return {
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: async (text, params) => ({ rows: (await db.query<Record<string, unknown>>(text, params)).rows }),
  };
}
