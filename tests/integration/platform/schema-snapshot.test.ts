import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, inject, it } from 'vitest';
import { SCHEMA_FILE, dumpSchema } from '../../../scripts/tools/schema-snapshot';

// The run's migrated template (every migration applied by npm start's code) read back as npm run db:schema
// reads its fresh database: the committed file must be that text.
describe('supabase/schema.sql', () => {
  it('is the schema the migrations make now (regenerate with npm run db:schema)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'schema-snapshot-'));
    cpSync(inject('embeddedDatabaseTemplate'), path.join(dir, 'pgdata'), { recursive: true });
    const db = await PGlite.create(path.join(dir, 'pgdata'));
    try {
      const committed = readFileSync(fileURLToPath(SCHEMA_FILE), 'utf8');
      const current = await dumpSchema(db);
      expect(current === committed, 'supabase/schema.sql is stale: run `npm run db:schema` and commit it').toBe(true);
      // One file shows each function's current body: place_order as its last migration left it.
      expect(committed.match(/CREATE OR REPLACE FUNCTION public\.place_order\(/g)).toHaveLength(1);
      // A schema change shows in the snapshot (the comparison above can fail).
      await db.exec('alter table public.leads add column probe text');
      expect(await dumpSchema(db)).toContain('  probe text');
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
