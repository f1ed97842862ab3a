/**
 * `npm run db:prices`: after a price or name changed in src/lib/catalog.ts, writes the migration that updates
 * catalog_prices (what the checkout charges) to match; says so and writes nothing when they already agree.
 * Then apply it as every migration: `npm run db:migrate` (or `supabase db push`).
 */
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { catalogRows } from '../../src/lib/catalog';
import { catalogMigration, migrationFileName, pricesInMigrations } from './catalog-migration';

const dir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../supabase/migrations');
const sql = catalogMigration(pricesInMigrations(dir), catalogRows());
if (!sql) {
  console.log('catalog_prices already matches src/lib/catalog.ts: no migration needed.');
} else {
  const file = path.join(dir, migrationFileName(readdirSync(dir)));
  writeFileSync(file, sql);
  console.log(`Wrote ${path.relative(process.cwd(), file)}:\n\n${sql}`);
}
