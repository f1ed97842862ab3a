import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { catalogRows, formatPrice, IMAGE_PACKAGES, packagePriceLabel, sumPrices } from '../../../src/lib/catalog';
import { toCents } from '../../../src/lib/money';
import { catalogMigration, migrationFileName, pricesInMigrations } from '../../../scripts/tools/catalog-migration';

// The checkout charges from catalog_prices (filled by the migrations); the cart displays catalog.ts. They must
// agree, and a price change is one edit in catalog.ts plus the migration `npm run db:prices` writes.
// (The integration tests also read the table back from a migrated database.)
const migrations = fileURLToPath(new URL('../../../supabase/migrations/', import.meta.url));

describe('catalogue prices', () => {
  it('are positive amounts in whole cents, as the database (numeric(10, 2)) and Stripe (cents) hold them', () => {
    for (const row of catalogRows()) {
      expect(row.price, row.itemKey).toBeGreaterThan(0);
      expect(toCents(row.price) / 100, row.itemKey).toBe(row.price);
    }
  });

  it('add up in cents, without floating-point drift, and show with two decimals', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumPrices([0.1, 0.2])).toBe(0.3);
    expect(sumPrices([2.05, 3.15, 0.01])).toBe(5.21);
    expect(sumPrices([])).toBe(0);
    expect(formatPrice(5.2)).toBe('$5.20');
    expect(formatPrice(40)).toBe('$40.00');
  });
});

describe('SQL price list', () => {
  it('is what src/lib/catalog.ts says, names and prices (else: npm run db:prices)', () => {
    expect(catalogMigration(pricesInMigrations(migrations), catalogRows()), 'run `npm run db:prices` and commit the migration').toBeNull();
    expect([...pricesInMigrations(migrations).values()].sort((a, b) => a.itemKey.localeCompare(b.itemKey))).toEqual(
      catalogRows().sort((a, b) => a.itemKey.localeCompare(b.itemKey)),
    );
  });

  it('the generated migration brings any change to the table: a new price, a renamed item, a removed one', () => {
    const current = pricesInMigrations(migrations);
    const [first, second, ...rest] = catalogRows();
    const wanted = [{ ...first!, price: first!.price + 1 }, { ...second!, name: "Grandma's Video" }, ...rest.slice(1)];
    const sql = catalogMigration(current, wanted)!;
    expect(sql).toContain('on conflict (item_type, item_key) do update');
    expect(sql).toContain("'Grandma''s Video'");
    // Read back the way the migrations are read, after the existing ones.
    const applied = pricesInMigrationsWith(current, sql);
    expect([...applied.values()]).toEqual(expect.arrayContaining(wanted));
    expect(applied.size).toBe(wanted.length);
  });

  it('names the migration after the time, so it runs after every existing one', () => {
    const now = new Date('2030-01-02T03:04:05Z');
    expect(migrationFileName(['20261125100300_upload_grants_used.sql'], now)).toBe('20300102030405_catalog_prices.sql');
    expect(migrationFileName(['20301231235959_later.sql', 'README.md'], now)).toBe('20310101000000_catalog_prices.sql');
  });
});

describe('package cards', () => {
  it('show whole-dollar prices without cents', () => {
    for (const pkg of IMAGE_PACKAGES) expect(packagePriceLabel(pkg)).toMatch(/^\$\d+(\.\d\d)?$/);
    expect(packagePriceLabel({ priceValue: 99 })).toBe('$99');
    expect(packagePriceLabel({ priceValue: 14.5 })).toBe('$14.50');
  });
});

/** The table after `sql` runs on top of `current` (through a throwaway migrations folder). */
function pricesInMigrationsWith(current: ReturnType<typeof pricesInMigrations>, sql: string) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lumora-prices-'));
  try {
    const seed = catalogMigration(new Map(), [...current.values()])!;
    writeFileSync(path.join(dir, '1_seed.sql'), seed);
    writeFileSync(path.join(dir, '2_change.sql'), sql);
    return pricesInMigrations(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
