/**
 * `npm run db:migrate`: applies supabase/migrations to the database at DATABASE_URL (Debian PostgreSQL,
 * Supabase — use its direct or session connection string — or a running embedded server).
 */
import pg from 'pg';
import { applyMigrations, pgTarget } from '../../netlify/lib/db/migrations';

const url = process.env.DATABASE_URL?.trim();
if (!url) {
  console.error('Database not configured: set DATABASE_URL (see .env.example)');
  process.exit(1);
}

const client = new pg.Client({ connectionString: url });
try {
  await client.connect();
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
