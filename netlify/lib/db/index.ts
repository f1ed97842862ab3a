import pg from 'pg';

/**
 * The one way server code reaches Postgres: node-postgres with a small pool on DATABASE_URL. The same
 * queries run on the embedded PGlite (through its loopback socket), Debian's PostgreSQL and Supabase's
 * transaction pooler — so statements are never named (no server-side prepared statements).
 */
export class DatabaseNotConfiguredError extends Error {
  constructor(message = 'Database not configured: set DATABASE_URL (see .env.example)') {
    super(message);
    this.name = 'DatabaseNotConfiguredError';
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '']);
/** TLS modes that encrypt; node-postgres 8 verifies the certificate for all but `no-verify`. */
const TLS_MODES = new Set(['require', 'verify-ca', 'verify-full', 'no-verify']);

/**
 * A database reached over the network must be reached over TLS: the URL of any host but this machine's
 * (loopback, a Unix socket) has to name an `sslmode` that encrypts, or no pool is made and the error says what to
 * add — node-postgres would otherwise send the password and every query in the clear. `DATABASE_CA_CERT` (PEM)
 * adds the CA a provider signs with (Supabase's, from its dashboard), for `sslmode=verify-full`.
 */
export function checkDatabaseTls(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return; // node-postgres reports a malformed URL itself
  }
  const host = parsed.hostname.toLowerCase();
  if (LOOPBACK.has(host) || parsed.searchParams.get('host')?.startsWith('/')) return;
  const mode = parsed.searchParams.get('sslmode')?.toLowerCase() ?? '';
  if (TLS_MODES.has(mode)) return;
  throw new DatabaseNotConfiguredError(
    `DATABASE_URL points at ${host} without TLS (sslmode=${mode || 'unset'}): add ?sslmode=verify-full (with DATABASE_CA_CERT, Supabase's CA certificate) or ?sslmode=require; see docs/deploy.md`,
  );
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

/**
 * The connection settings: with a CA certificate, TLS verified against it (node-postgres lets the URL's own
 * sslmode override an explicit `ssl`, so the mode is taken out of the URL and the verification stated here).
 */
function connectionWithCa(url: string, caPem: string | undefined): { connectionString: string; ssl?: { ca: string; rejectUnauthorized: true } } {
  const ca = caPem?.trim().replace(/\\n/g, '\n');
  if (!ca || !URL.canParse(url)) return { connectionString: url };
  const parsed = new URL(url);
  parsed.searchParams.delete('sslmode');
  return { connectionString: parsed.href, ssl: { ca, rejectUnauthorized: true } };
}

/** The pool for the current DATABASE_URL (a changed URL — tests switch databases — gets a new pool). */
export function getPool(): pg.Pool {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) throw new DatabaseNotConfiguredError();
  if (pool && poolUrl === url) return pool;
  checkDatabaseTls(url);
  if (pool) void pool.end().catch(() => {});
  poolUrl = url;
  pool = new pg.Pool({
    ...connectionWithCa(url, process.env.DATABASE_CA_CERT),
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
  const result = await getPool().query<T>(text, params as unknown[]);
  return result.rows;
}

/** Runs fn inside BEGIN/COMMIT on one connection; any throw rolls back. */
export async function withTransaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
  const client = await getPool().connect();
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
