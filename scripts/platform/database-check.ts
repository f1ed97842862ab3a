import { databaseConnection } from '../../netlify/lib/db/connection';

/**
 * `npm start` / `npm run dev` with DATABASE_URL set: a TLS setting that cannot work (netlify/lib/db/connection.ts)
 * stops the start with the sentence that names the fix, instead of failing every query with a certificate error.
 */
export function refuseUnworkableDatabase(): undefined {
  try {
    databaseConnection();
  } catch (error) {
    console.error(`\n  ${(error as Error).message}\n`);
    process.exit(1);
  }
  return undefined;
}
