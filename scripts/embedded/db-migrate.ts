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
  const applied = await applyMigrations(pgTarget(client));
  console.log(applied.length ? `Applied migrations: ${applied.join(', ')}` : 'Database is up to date.');
} catch (error) {
  console.error((error as Error).message);
  process.exitCode = 1;
} finally {
  await client.end().catch(() => {});
}
