import pg from 'pg';
import { databaseConnection, DatabaseNotConfiguredError, explainDatabaseError } from './connection';

/**
 * The one way server code reaches Postgres: node-postgres with a small pool on DATABASE_URL. The same
 * queries run on the embedded PGlite (through its loopback socket), Debian's PostgreSQL and Supabase's
 * transaction pooler — so statements are never named (no server-side prepared statements).
 */
export { DatabaseNotConfiguredError, DatabaseTlsError, databaseConnection, explainDatabaseError } from './connection';

/** Throws when DATABASE_URL / DATABASE_CA_CERT cannot work (kept for callers that only check). */
export function checkDatabaseTls(url: string, caCert?: string): void {
  databaseConnection({ DATABASE_URL: url, DATABASE_CA_CERT: caCert });
}

export type Row = Record<string, unknown>;

export interface Queryable {
  query<T extends Row = Row>(text: string, params?: readonly unknown[]): Promise<T[]>;
}

let pool: pg.Pool | null = null;
let poolUrl = '';

function poolMax(): number {
  const max = Number(process.env.DATABASE_POOL_MAX);
  // The embedded socket server accepts 100 connections; functions are bundled separately, each with a pool.
  return Number.isInteger(max) && max > 0 ? max : 4;
}

/** The pool for the current DATABASE_URL (a changed URL — tests switch databases — gets a new pool). */
export function getPool(): pg.Pool {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) throw new DatabaseNotConfiguredError();
  const key = `${url}\n${process.env.DATABASE_CA_CERT ?? ''}`;
  if (pool && poolUrl === key) return pool;
  // Refuses a TLS setting that cannot work before any connection is tried (db/connection.ts).
  const { connectionString, ssl } = databaseConnection();
  if (pool) void pool.end().catch(() => {});
  poolUrl = key;
  pool = new pg.Pool({
    connectionString,
    ssl,
    max: poolMax(),
    idleTimeoutMillis: 10_000,
    connectionTimeoutMillis: 15_000,
    // Idle connections must not keep a process alive (scripts, tests) nor hold a slot of the embedded
    // socket server after the work is done.
    allowExitOnIdle: true,
  });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (error) => console.error('[db] idle client error:', error.message));
  return pool;
}

export async function query<T extends Row = Row>(text: string, params: readonly unknown[] = []): Promise<T[]> {
  try {
    const result = await getPool().query<T>(text, params as unknown[]);
    return result.rows;
  } catch (error) {
    throw explainDatabaseError(error);
  }
}

/** Runs fn inside BEGIN/COMMIT on one connection; any throw rolls back. */
export async function withTransaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const client = await getPool().connect().catch((error: unknown) => {
    throw explainDatabaseError(error);
  });
  const tx: Queryable = {
    query: async <R extends Row = Row>(text: string, params: readonly unknown[] = []) =>
      (await client.query<R>(text, params as unknown[])).rows,
  };
  try {
    await client.query('begin');
    const result = await fn(tx);
    await client.query('commit');
    return result;
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

export async function closePool(): Promise<void> {
  const current = pool;
  pool = null;
  poolUrl = '';
  if (current) await current.end();
}
