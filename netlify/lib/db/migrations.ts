import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Applies supabase/migrations/*.sql in name order, each in its own transaction, and records them in
 * supabase_migrations.schema_migrations — the table the Supabase CLI uses, so `supabase db push` and
 * `npm run db:migrate` agree on what is applied. Used by the embedded services, the tests and db:migrate.
 */
export interface MigrationTarget {
  /** Runs a script of one or more statements (no parameters). */
  exec(sql: string): Promise<void>;
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

export const MIGRATIONS_DIR = fileURLToPath(new URL('../../../supabase/migrations/', import.meta.url));

export interface Migration {
  version: string;
  name: string;
  file: string;
}

export async function listMigrations(dir = MIGRATIONS_DIR): Promise<Migration[]> {
  const files = (await readdir(dir)).filter((f) => /^\d{14}_[\w-]+\.sql$/.test(f)).sort();
  return files.map((file) => {
    const [, version, name] = /^(\d{14})_(.+)\.sql$/.exec(file)!;
    return { version: version!, name: name!, file: path.join(dir, file) };
  });
}

export interface MigrateOptions {
  /**
   * Declares the database non-production (the embedded database, the tests' databases, a staging database the
   * operator names): deploys outside production sell only against such a database (`db/role.ts`). A database
   * already declared production keeps its declaration.
   */
  nonProduction?: boolean;
}

/** Returns the versions applied by this call (empty when the database was up to date). */
export async function applyMigrations(target: MigrationTarget, dir = MIGRATIONS_DIR, options: MigrateOptions = {}): Promise<string[]> {
  await target.exec(`
    create schema if not exists supabase_migrations;
    create table if not exists supabase_migrations.schema_migrations (version text primary key);
    alter table supabase_migrations.schema_migrations add column if not exists statements text[];
    alter table supabase_migrations.schema_migrations add column if not exists name text;
  `);
  const applied: string[] = [];
  for (const migration of await listMigrations(dir)) {
    const sql = await readFile(migration.file, 'utf8');
    await target.exec('begin');
    try {
      // Two migrators at once (two deploys, a test and a script) wait for each other per migration.
      await target.query(`select pg_advisory_xact_lock(hashtextextended('schema_migrations', 0))`);
      const done = await target.query('select 1 from supabase_migrations.schema_migrations where version = $1', [
        migration.version,
      ]);
      if (done.rows.length === 0) {
        await target.exec(sql);
        await target.query(
          'insert into supabase_migrations.schema_migrations (version, name, statements) values ($1, $2, $3)',
          [migration.version, migration.name, [sql]],
        );
        applied.push(migration.version);
      }
      await target.exec('commit');
    } catch (error) {
      await target.exec('rollback').catch(() => {});
      throw new Error(`Migration ${path.basename(migration.file)} failed: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  if (options.nonProduction) {
    await target.query(`insert into public.database_role (role) values ('non-production') on conflict (only_row) do nothing`);
  }
  return applied;
}

/** Adapts a node-postgres client (pg.Client or a pooled client) to the runner. */
export function pgTarget(client: {
  query(text: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}): MigrationTarget {
  return {
    exec: async (sql) => {
      await client.query(sql);
    },
    query: (text, params) => client.query(text, params),
  };
}
