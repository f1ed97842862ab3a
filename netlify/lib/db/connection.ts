import { X509Certificate } from 'node:crypto';
import type pg from 'pg';

/**
 * The connection settings of every program that opens the database — the site's pool (`db/index.ts`),
 * `npm run db:migrate`, `npm run doctor`, the operator's health details, the tests' helpers — read from one
 * place: DATABASE_URL and DATABASE_CA_CERT. The rules, and why:
 *
 * - A database on this machine (loopback, a Unix socket) may be reached in the clear.
 * - Anything else must be reached over TLS that is verified: `sslmode=verify-full` (or `verify-ca`) with
 *   DATABASE_CA_CERT, the provider's CA certificate (Supabase's, from its dashboard; docs/deploy.md).
 * - `sslmode=require` (or any verifying mode) without DATABASE_CA_CERT is refused before any connection is
 *   tried: node-postgres 8 treats `require` as `verify-full` against the system's CAs, and Supabase's
 *   certificate chains to Supabase's own root, so every query would fail with an opaque certificate error.
 *   DATABASE_CA_CERT=system states that the server's certificate chains to a public CA Node trusts (other
 *   providers), and keeps the verification.
 * - A CA certificate that does not verify the server (the wrong one) fails the first connection; the error
 *   is rewritten by `explainDatabaseError` into a sentence that names the fix.
 */
export class DatabaseNotConfiguredError extends Error {
  constructor(message = 'Database not configured: set DATABASE_URL (see .env.example)') {
    super(message);
    this.name = 'DatabaseNotConfiguredError';
  }
}

/** A TLS setting that cannot work, found before or at the first connection. */
export class DatabaseTlsError extends DatabaseNotConfiguredError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message);
    this.name = 'DatabaseTlsError';
    if (options?.cause) this.cause = options.cause;
  }
}

type Env = Record<string, string | undefined>;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '[::1]', '']);
const VERIFYING = new Set(['require', 'verify-ca', 'verify-full']);
const PLAIN = new Set(['', 'disable', 'allow', 'prefer']);
/** Parameters node-postgres reads from the URL that would override the settings made here. */
const TLS_PARAMS = ['sslmode', 'ssl', 'sslrootcert', 'sslcert', 'sslkey', 'uselibpqcompat'];

const FIX = 'set DATABASE_CA_CERT to your provider\'s CA certificate (Supabase: Database settings → SSL Configuration → Download certificate) and use ?sslmode=verify-full; see docs/deploy.md';

export interface DatabaseConnection {
  /** The URL without its TLS parameters (they are stated in `ssl`). */
  connectionString: string;
  ssl?: pg.ClientConfig['ssl'];
  /** Where the settings came from, for messages: host and the TLS in force. */
  describe: string;
}

function isLocal(url: URL): boolean {
  return LOOPBACK.has(url.hostname.toLowerCase()) || (url.searchParams.get('host')?.startsWith('/') ?? false);
}

/** The PEM in DATABASE_CA_CERT (literal `\n` allowed, as one-line dashboards store it), checked to be a certificate. */
function caCertificate(raw: string): string {
  const pem = raw.trim().replace(/\\n/g, '\n');
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (!blocks.length) {
    throw new DatabaseTlsError(`DATABASE_CA_CERT is not a PEM certificate (it must start with -----BEGIN CERTIFICATE-----): paste the whole file Supabase gives you; see docs/deploy.md`);
  }
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (error) {
      throw new DatabaseTlsError(`DATABASE_CA_CERT holds a certificate that cannot be read (${(error as Error).message}): paste the whole file again; see docs/deploy.md`, { cause: error });
    }
  }
  return blocks.join('\n');
}

/**
 * The settings for DATABASE_URL and DATABASE_CA_CERT, or a DatabaseNotConfiguredError (DatabaseTlsError for a TLS
 * setting that cannot work) whose message names the fix. Nothing is connected here.
 */
export function databaseConnection(env: Env = process.env): DatabaseConnection {
  const raw = env.DATABASE_URL?.trim();
  if (!raw) throw new DatabaseNotConfiguredError();
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // A Unix socket with no host part (postgres://user@/db?host=/run/postgresql) is not a WHATWG URL.
    if (/[?&]host=\//.test(raw) && !/sslmode=/i.test(raw)) return { connectionString: raw, describe: 'a Unix socket, no TLS' };
    throw new DatabaseNotConfiguredError('DATABASE_URL is not a URL: it must look like postgres://user:password@host:5432/postgres?sslmode=verify-full');
  }
  const host = url.hostname || 'a Unix socket';
  const mode = url.searchParams.get('sslmode')?.toLowerCase() ?? '';
  const caRaw = env.DATABASE_CA_CERT?.trim() ?? '';
  const local = isLocal(url);

  if (mode === 'no-verify') {
    if (local) return { connectionString: raw, describe: `${host}, TLS not verified` };
    throw new DatabaseTlsError(`DATABASE_URL asks for sslmode=no-verify on ${host}, which sends the password to any server that answers: ${FIX}.`);
  }
  if (PLAIN.has(mode) && !caRaw) {
    if (local) return { connectionString: raw, describe: `${host} (this machine), no TLS` };
    throw new DatabaseTlsError(`DATABASE_URL points at ${host} without TLS (sslmode=${mode || 'unset'}): ${FIX}.`);
  }
  if (!VERIFYING.has(mode) && !PLAIN.has(mode)) {
    throw new DatabaseTlsError(`DATABASE_URL has an unknown sslmode=${mode}: use sslmode=verify-full with DATABASE_CA_CERT; see docs/deploy.md.`);
  }
  if (!caRaw) {
    throw new DatabaseTlsError(`DATABASE_URL asks for sslmode=${mode} but DATABASE_CA_CERT is not set, so the server's certificate cannot be verified and every query would fail: ${FIX}.`);
  }

  const stripped = new URL(raw);
  for (const p of TLS_PARAMS) stripped.searchParams.delete(p);
  // verify-ca checks the chain only; every other mode (and a CA with no mode) checks the host name too.
  const checkHost = mode !== 'verify-ca';
  const base = { rejectUnauthorized: true, ...(checkHost ? {} : { checkServerIdentity: () => undefined }) };
  if (caRaw.toLowerCase() === 'system') {
    return { connectionString: stripped.href, ssl: base, describe: `${host}, TLS verified against the system's CAs` };
  }
  return { connectionString: stripped.href, ssl: { ...base, ca: caCertificate(caRaw) }, describe: `${host}, TLS verified against DATABASE_CA_CERT` };
}

/** TLS verification failures Node reports (the chain, the host name, the dates). */
const CERT_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_SIGNATURE_FAILURE',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
]);

/**
 * A connection error in the operator's words: a certificate that does not verify against DATABASE_CA_CERT, a
 * server that does not speak TLS, a host that cannot be reached. Other errors come back unchanged.
 */
export function explainDatabaseError(error: unknown, env: Env = process.env): unknown {
  if (error instanceof DatabaseNotConfiguredError) return error;
  const e = error as { code?: string; message?: string } | null;
  const code = e?.code ?? '';
  const message = e?.message ?? '';
  let host = 'the database';
  try {
    host = new URL(env.DATABASE_URL ?? '').hostname || host;
  } catch {
    /* keep the generic name */
  }
  if (CERT_CODES.has(code) || /certificate|self[- ]signed/i.test(message)) {
    const what = code === 'ERR_TLS_CERT_ALTNAME_INVALID'
      ? `its certificate is not issued for the host name in DATABASE_URL (${message})`
      : `its certificate is not signed by the CA in DATABASE_CA_CERT (${code || message})`;
    return new DatabaseTlsError(`The database at ${host} refused TLS verification: ${what}. Download the CA certificate of this very project again (Supabase: Database settings → SSL Configuration) and put it in DATABASE_CA_CERT; see docs/deploy.md.`, { cause: error });
  }
  if (/does not support SSL|server does not support ssl/i.test(message)) {
    return new DatabaseTlsError(`The database at ${host} does not speak TLS: check the host and port in DATABASE_URL (Supabase's pooler: port 6543 for the site, 5432 for migrations); see docs/deploy.md.`, { cause: error });
  }
  if (['ENOTFOUND', 'EAI_AGAIN'].includes(code)) {
    return new DatabaseNotConfiguredError(`The database host ${host} was not found: copy the connection string from Supabase's Connect dialog again (the pooler host, *.pooler.supabase.com); see docs/deploy.md.`);
  }
  if (['ENETUNREACH', 'EHOSTUNREACH'].includes(code)) {
    return new DatabaseNotConfiguredError(`The database host ${host} cannot be reached from here (${code}; Supabase's direct host db.<ref>.supabase.co speaks IPv6 only): use the session pooler's connection string (port 5432) instead; see docs/deploy.md.`);
  }
  return error;
}
