import { query } from './db';
import { storageKind } from './storage';

export interface PlatformHealth {
  database: 'embedded-pglite' | 'postgres' | 'unconfigured';
  storage: 'local' | 'supabase';
  ok: boolean;
}

/** Which database and storage this deploy runs on, and whether the database answers. */
export async function platformHealth(): Promise<PlatformHealth> {
  const storage = storageKind();
  if (!process.env.DATABASE_URL?.trim()) return { database: 'unconfigured', storage, ok: false };
  const database = process.env.EMBEDDED_DATABASE === 'pglite' ? 'embedded-pglite' : 'postgres';
  try {
    await query('select 1');
    return { database, storage, ok: true };
  } catch (error) {
    console.error('[health] database check failed:', (error as Error).message);
    return { database, storage, ok: false };
  }
}
