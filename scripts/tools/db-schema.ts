/**
 * `npm run db:schema`: writes supabase/schema.sql, the schema as the migrations leave it (scripts/tools/schema-snapshot.ts),
 * so the current body of every function and table is in one file. Run it after adding a migration and commit the
 * result; tests/integration/platform/schema-snapshot.test.ts fails while the file is stale.
 */
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA_FILE, schemaSnapshot } from './schema-snapshot';

const file = fileURLToPath(SCHEMA_FILE);
const text = await schemaSnapshot();
if (existsSync(file) && readFileSync(file, 'utf8') === text) console.log('supabase/schema.sql is up to date.');
else {
  writeFileSync(file, text);
  console.log('Wrote supabase/schema.sql.');
}
