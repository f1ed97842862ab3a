import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { checkDatabaseTls, closePool, databaseConnection, DatabaseNotConfiguredError, DatabaseTlsError, query } from '../../../netlify/lib/db';
import { postgresAvailability, startDebianPostgres, type RunningPostgres } from '../../support/debian-postgres';
import { makeTestCertificates, type TestCertificates } from '../../support/tls-certificates';
import { runCommand } from '../../support/command';

const CA = '-----BEGIN CERTIFICATE-----\nnot checked here\n-----END CERTIFICATE-----';

// The abuse corpus, the database connection: a database across the network is never reached in the clear, and a
// TLS setting that cannot work is refused at start with the fix, never found out query by query.
describe('Postgres TLS settings', () => {
  it.each([
    'postgres://postgres.ref:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres',
    'postgres://u:pw@db.example.com/app?sslmode=disable',
    'postgres://u:pw@db.example.com/app?sslmode=prefer',
    'postgres://u:pw@10.0.0.5/app?sslmode=allow',
    'postgres://u:pw@db.example.com/app?sslmode=no-verify',
  ])('refuses %s without verified TLS, saying what to add', (url) => {
    expect(() => checkDatabaseTls(url)).toThrow(DatabaseNotConfiguredError);
    expect(() => checkDatabaseTls(url)).toThrow(/sslmode=verify-full/);
  });

  it.each(['require', 'verify-ca', 'verify-full'])('refuses sslmode=%s without DATABASE_CA_CERT, naming the fix', (mode) => {
    const url = `postgres://postgres.ref:pw@aws-0-eu-central-1.pooler.supabase.com:5432/postgres?sslmode=${mode}`;
    expect(() => checkDatabaseTls(url)).toThrow(DatabaseTlsError);
    expect(() => checkDatabaseTls(url)).toThrow(/DATABASE_CA_CERT is not set.*Download certificate.*sslmode=verify-full/);
  });

  it('refuses a DATABASE_CA_CERT that is not a certificate', () => {
    expect(() => checkDatabaseTls('postgres://u@db.example.com/app?sslmode=verify-full', 'prod-ca-2021.crt')).toThrow(/not a PEM certificate/);
  });

  it.each([
    'postgres://postgres@127.0.0.1:5432/postgres',
    'postgres://postgres@localhost/postgres',
    'postgres://postgres@[::1]:5432/postgres',
    'postgres://u@/app?host=/var/run/postgresql',
  ])('accepts %s on this machine in the clear', (url) => {
    expect(() => checkDatabaseTls(url)).not.toThrow();
    expect(databaseConnection({ DATABASE_URL: url }).ssl).toBeUndefined();
  });

  it('states verify-full with the CA and takes every TLS parameter out of the URL (node-postgres would let it override)', () => {
    const pem = makeTestCertificates();
    try {
      const c = databaseConnection({ DATABASE_URL: 'postgres://u:pw@db.example.com:5432/app?sslmode=verify-full&sslrootcert=x.crt', DATABASE_CA_CERT: pem.caPem.replace(/\n/g, '\\n') });
      expect(c.connectionString).toBe('postgres://u:pw@db.example.com:5432/app');
      expect(c.ssl).toMatchObject({ rejectUnauthorized: true, ca: pem.caPem.trim() });
      // DATABASE_CA_CERT=system: a provider whose certificate chains to a public CA; still verified.
      expect(databaseConnection({ DATABASE_URL: 'postgres://u@db.example.com/app?sslmode=verify-full', DATABASE_CA_CERT: 'system' }).ssl).toEqual({ rejectUnauthorized: true });
    } finally {
      pem.remove();
    }
    expect(() => checkDatabaseTls('postgres://u@db.example.com/app?sslmode=verify-full', CA)).toThrow(/cannot be read/);
  });
});

// Against a real PostgreSQL that speaks only TLS with a certificate from a private CA, as Supabase's pooler does.
const pgAvailable = postgresAvailability();
describe.skipIf(!pgAvailable.available)(`Postgres TLS against Debian PostgreSQL with its own CA${pgAvailable.note ? ` (${pgAvailable.note})` : ''}`, () => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  let certs: TestCertificates;
  let server: RunningPostgres;
  let tlsUrl: (mode: string) => string;
  const migrate = (env: Record<string, string>) =>
    runCommand('npm', ['run', '--silent', 'db:migrate'], { cwd: root, env: { ...process.env, DATABASE_CA_CERT: '', ...env } });
  const saved = { url: process.env.DATABASE_URL, ca: process.env.DATABASE_CA_CERT };

  beforeAll(async () => {
    certs = makeTestCertificates();
    server = await startDebianPostgres({ tls: { certFile: certs.serverCertFile, keyFile: certs.serverKeyFile } });
    tlsUrl = (mode) => `${server.url}?sslmode=${mode}`;
  }, 120_000);
  afterAll(async () => {
    process.env.DATABASE_URL = saved.url;
    process.env.DATABASE_CA_CERT = saved.ca;
    if (saved.url === undefined) delete process.env.DATABASE_URL;
    if (saved.ca === undefined) delete process.env.DATABASE_CA_CERT;
    await closePool();
    await server?.stop();
    certs?.remove();
  });

  it('the server speaks only TLS: a plain connection is turned away', async () => {
    const client = new pg.Client({ connectionString: server.url });
    await expect(client.connect()).rejects.toThrow(/no encryption|pg_hba/);
    await client.end().catch(() => {});
  });

  it('verify-full with DATABASE_CA_CERT: `npm run db:migrate` migrates, and the site pool reads what it wrote', async () => {
    const out = await migrate({ DATABASE_URL: tlsUrl('verify-full'), DATABASE_CA_CERT: certs.caPem });
    expect(out).toMatch(/Applied migrations: \d{14}/);
    process.env.DATABASE_URL = tlsUrl('verify-full');
    process.env.DATABASE_CA_CERT = certs.caPem;
    const [row] = await query<{ ssl: boolean; n: number }>(
      `select (select ssl from pg_stat_ssl where pid = pg_backend_pid()) as ssl,
              (select count(*)::int from supabase_migrations.schema_migrations) as n`,
    );
    expect(row).toMatchObject({ ssl: true });
    expect(row!.n).toBeGreaterThan(10);
    expect(await migrate({ DATABASE_URL: tlsUrl('verify-full'), DATABASE_CA_CERT: certs.caPem })).toMatch(/Database is up to date/);
  }, 120_000);

  it('sslmode=require without a CA: `npm run db:migrate` and the site pool refuse at start with the fix', async () => {
    const failed = await migrate({ DATABASE_URL: tlsUrl('require') }).then(() => '', (error: Error) => error.message);
    expect(failed).toMatch(/exit 1/);
    expect(failed).toMatch(/sslmode=require but DATABASE_CA_CERT is not set/);
    expect(failed).toMatch(/Download certificate/);
    expect(failed).not.toMatch(/SELF_SIGNED|unable to verify/i);
    process.env.DATABASE_URL = tlsUrl('require');
    process.env.DATABASE_CA_CERT = '';
    await expect(query('select 1')).rejects.toThrow(/DATABASE_CA_CERT is not set/);
  }, 60_000);

  it('the wrong CA: refused with a message that says the certificate is not signed by DATABASE_CA_CERT', async () => {
    const failed = await migrate({ DATABASE_URL: tlsUrl('verify-full'), DATABASE_CA_CERT: certs.otherCaPem }).then(() => '', (error: Error) => error.message);
    expect(failed).toMatch(/refused TLS verification: its certificate is not signed by the CA in DATABASE_CA_CERT/);
    process.env.DATABASE_URL = tlsUrl('verify-full');
    process.env.DATABASE_CA_CERT = certs.otherCaPem;
    await expect(query('select 1')).rejects.toThrow(DatabaseTlsError);
  }, 60_000);
});
