import { query } from './index';

/**
 * What the database says it is for (`public.database_role`, one row at most): `non-production` for the embedded
 * database, the tests' databases and a staging database the operator marked; no row is `undeclared`, which
 * counts as production. Read at most once a minute per database URL: the row is written once and never flipped.
 */
export type DatabaseRole = 'production' | 'non-production' | 'undeclared';

const TTL_MS = 60_000;
const cache = new Map<string, { role: DatabaseRole; at: number }>();

export async function databaseRole(): Promise<DatabaseRole> {
  const url = process.env.DATABASE_URL?.trim() ?? '';
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.role;
  let role: DatabaseRole;
  try {
    const [row] = await query<{ role: string }>(`select role from public.database_role limit 1`);
    role = row?.role === 'non-production' ? 'non-production' : row?.role === 'production' ? 'production' : 'undeclared';
  } catch (error) {
    // A database migrated before the table existed has declared nothing.
    if ((error as { code?: string }).code !== '42P01') throw error;
    role = 'undeclared';
  }
  cache.set(url, { role, at: Date.now() });
  return role;
}

/** For tests that write or delete the declaration. */
export const forgetDatabaseRole = () => cache.clear();
