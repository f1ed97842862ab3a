/**
 * `npm run db:migrate`: applies supabase/migrations to the database at DATABASE_URL (Debian PostgreSQL, a running
 * embedded server, or Supabase through its session pooler: port 5432, sslmode=verify-full with DATABASE_CA_CERT —
 * docs/deploy.md). The connection settings are the site's own (netlify/lib/db/connection.ts): a TLS setting that
 * cannot work is refused before connecting, and a certificate that does not verify is named as such.
 */
import pg from 'pg';
import { databaseConnection, explainDatabaseError } from '../../../netlify/lib/db/connection';
import { applyMigrations, pgTarget } from '../../../netlify/lib/db/migrations';

let client: pg.Client;
try {
  const { connectionString, ssl } = databaseConnection();
  client = new pg.Client({ connectionString, ssl, connectionTimeoutMillis: 20_000 });
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

try {
  await client.connect().catch((error: unknown) => {
    throw explainDatabaseError(error);
  });
  // --non-production: this database is a staging/preview one, so deploys outside production may sell against it.
  const nonProduction = process.argv.includes('--non-production');
  const applied = await applyMigrations(pgTarget(client), undefined, { nonProduction });
  if (nonProduction) console.log('Database declared non-production: previews and branch deploys may sell against it.');
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.');
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => {});
}
