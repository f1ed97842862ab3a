import { describe, expect, it } from 'vitest';
import { checkDatabaseTls, DatabaseNotConfiguredError } from '../../../netlify/lib/db';

// The abuse corpus, the database connection: a database across the network is never reached in the clear.
describe('Postgres TLS', () => {
  it.each([
    'postgres://postgres.ref:pw@aws-0-eu-central-1.pooler.supabase.com:6543/postgres',
    'postgres://u:pw@db.example.com/app?sslmode=disable',
    'postgres://u:pw@db.example.com/app?sslmode=prefer',
    'postgres://u:pw@10.0.0.5/app?sslmode=allow',
  ])('refuses %s without an encrypting sslmode, saying what to add', (url) => {
    expect(() => checkDatabaseTls(url)).toThrow(DatabaseNotConfiguredError);
    expect(() => checkDatabaseTls(url)).toThrow(/sslmode=verify-full/);
  });

  it.each([
    'postgres://u:pw@db.example.com/app?sslmode=require',
    'postgres://u:pw@db.example.com/app?sslmode=verify-full',
    'postgres://postgres@127.0.0.1:5432/postgres',
    'postgres://postgres@localhost/postgres',
    'postgres://postgres@[::1]:5432/postgres',
    'postgres://u@/app?host=/var/run/postgresql',
  ])('accepts %s', (url) => {
    expect(() => checkDatabaseTls(url)).not.toThrow();
  });
});
