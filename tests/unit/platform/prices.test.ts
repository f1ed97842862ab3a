import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMAGE_PACKAGES, TRANSFORMATION_PRICES } from '../../../src/lib/catalog';

// The checkout charges from catalog_prices (seeded by the migrations); the cart displays catalog.ts.
// They must agree. (The integration tests also read the table back from a migrated database.)
describe('SQL price list', () => {
  it('matches src/lib/catalog.ts', () => {
    const dir = new URL('../../../supabase/migrations/', import.meta.url);
    const sql = readdirSync(dir)
      .filter((f) => f.endsWith('.sql'))
      .map((f) => readFileSync(new URL(f, dir), 'utf8'))
      .join('\n');
    const rows = [...sql.matchAll(/\('(transformation|package)', '([a-z0-9-]+)', '[^']*', ([\d.]+)\)/g)];
    const prices = Object.fromEntries(rows.map(([, type, key, price]) => [`${type}:${key}`, Number(price)]));
    expect(prices).toEqual({
      ...Object.fromEntries(Object.entries(TRANSFORMATION_PRICES).map(([key, price]) => [`transformation:${key}`, price])),
      ...Object.fromEntries(IMAGE_PACKAGES.map((p) => [`package:${p.id}`, p.priceValue])),
    });
  });
});
