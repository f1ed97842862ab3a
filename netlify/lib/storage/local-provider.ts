import type { Storage } from './types';

/**
 * The local disk adapter is no part of a deploy (a function's disk is read-only there): the embedded setup
 * provides it — `scripts/platform/embedded/local-storage.ts`, injected into the functions `npm start` bundles and
 * loaded by the tests — so Netlify's bundle of a function ships Supabase Storage only. Kept free of imports,
 * so what the local server injects into every function stays small.
 */
type CreateLocalStorage = (rootDir: string) => Storage;

let createLocal: CreateLocalStorage | null = null;

export function provideLocalStorage(create: CreateLocalStorage): void {
  createLocal = create;
}

export function providedLocalStorage(): CreateLocalStorage | null {
  return createLocal;
}
