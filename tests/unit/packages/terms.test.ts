import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IMAGE_PACKAGES, PACKAGE_VALID_MONTHS, packageTermsLine } from '../../../src/lib/catalog';

// What a package gives is decided in src/lib/catalog.ts; the database's copy (package_terms), read when a package is
// paid for, comes from the migrations. A change in the catalogue needs a migration that updates package_terms.
const DIR = path.resolve('supabase/migrations');
const TUPLE = /\(\s*'([a-z0-9-]+)'\s*,\s*(\d+)\s*,\s*(\d+)\s*\)/g;

function termsInMigrations(): Map<string, { images: number; months: number }> {
  const terms = new Map<string, { images: number; months: number }>();
  for (const file of readdirSync(DIR).filter((f) => f.endsWith('.sql')).sort()) {
    const sql = readFileSync(path.join(DIR, file), 'utf8');
    for (const statement of sql.split(';').filter((s) => /insert into public\.package_terms/.test(s))) {
      for (const m of statement.matchAll(TUPLE)) terms.set(m[1]!, { images: Number(m[2]), months: Number(m[3]) });
    }
  }
  return terms;
}

describe('package terms', () => {
  it('the database gives each package the images and months the catalogue sells', () => {
    const terms = termsInMigrations();
    expect(Object.fromEntries(terms)).toEqual(Object.fromEntries(IMAGE_PACKAGES.map((p) => [p.id, { images: p.images, months: PACKAGE_VALID_MONTHS }])));
  });

  it('every card states the images and the months', () => {
    for (const p of IMAGE_PACKAGES) expect(packageTermsLine(p)).toBe(`${p.images} images, to use within ${PACKAGE_VALID_MONTHS} months`);
  });
});
