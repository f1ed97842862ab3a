import { afterAll, beforeAll } from 'vitest';
import { query } from '../../../netlify/lib/db';
import { startEmbedded } from '../platform/helpers/backends';

// The abuse corpus, one file per module it guards: each case drives the real functions (real Requests, the
// embedded database and storage) the way an attacker or a failing network would, and checks the answer and
// that nothing was written or lost.

export const BASE = 'http://localhost:8888';

/** The file's own embedded platform (a copy of the run's migrated database), the environment put back after. */
export function useEmbeddedPlatform(): void {
  let platform: Awaited<ReturnType<typeof startEmbedded>> | undefined;
  const savedEnv = { ...process.env };
  beforeAll(async () => {
    platform = await startEmbedded();
  });
  afterAll(async () => {
    await platform?.stop();
    process.env = { ...savedEnv };
  });
}

/** A fresh, valid client address per call: each is its own rate-limit identity. */
let nextClient = 1 + Math.floor(Math.random() * 2 ** 20);
export const client = () => {
  const n = nextClient++;
  return { ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
};

export const count = async (table: string) => Number((await query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n);
