import { createHash, timingSafeEqual } from 'node:crypto';
import { query } from './db';
import { storageKind } from './storage';
import { pagePolicies, policyInputs, storageDirectivesMissing } from './security-headers';
import { deployOrigin } from './running-deploy';

export interface PlatformHealth {
  database: 'embedded-pglite' | 'postgres' | 'unconfigured';
  storage: 'local' | 'supabase';
  ok: boolean;
}

/** Which database and storage this deploy runs on, and whether the database answers. */
export async function platformHealth(): Promise<PlatformHealth> {
  const storage = storageKind();
  if (!process.env.DATABASE_URL?.trim()) return { database: 'unconfigured', storage, ok: false };
  const database = process.env.EMBEDDED_DATABASE === 'pglite' ? 'embedded-pglite' : 'postgres';
  try {
    await query('select 1');
    return { database, storage, ok: true };
  } catch (error) {
    console.error('[health] database check failed:', (error as Error).message);
    return { database, storage, ok: false };
  }
}

export interface CspHealth {
  /** Where the browser fetches stored files from: Supabase's origin, or this site's (local storage). */
  storageOrigin: string | null;
  /** Whether the policy the deployed pages carry lets the browser reach it; null when it could not be read. */
  storageOriginAllowed: boolean | null;
  /** Storage's directives the policy does not grant it (redeploy after setting SUPABASE_URL for the build). */
  missing: string[];
  /** The page whose policy was read, or why none was. */
  checked: string;
}

const cspChecks = new Map<string, CspHealth>();

/**
 * Reads the policy a browser gets on this deploy's home page (its <meta> and its header) and checks it
 * against the running configuration's storage. The page's policy was fixed at build time, so a
 * SUPABASE_URL set for functions but not for the build shows up here as `storageOriginAllowed: false`.
 * A deploy's pages never change, so a reading is kept per deploy address and storage origin.
 */
export async function cspHealth(env: Record<string, string | undefined> = process.env): Promise<CspHealth> {
  const self = deployOrigin(env);
  let storage: string | null;
  try {
    storage = policyInputs({ SUPABASE_URL: env.SUPABASE_URL }).storageOrigin ?? self;
  } catch (error) {
    return { storageOrigin: null, storageOriginAllowed: false, missing: [], checked: (error as Error).message };
  }
  if (!self || !storage) return { storageOrigin: storage, storageOriginAllowed: null, missing: [], checked: 'no deploy address (DEPLOY_URL or URL) to read a page from' };
  const key = `${self} ${storage}`;
  const known = cspChecks.get(key);
  if (known) return known;
  const page = `${self}/`;
  try {
    const res = await fetch(page, { signal: AbortSignal.timeout(5000), headers: { accept: 'text/html' } });
    if (!res.ok) return { storageOrigin: storage, storageOriginAllowed: null, missing: [], checked: `${page} answered ${res.status}` };
    const policies = pagePolicies(await res.text(), res.headers.get('content-security-policy'));
    if (!policies.length) return { storageOrigin: storage, storageOriginAllowed: false, missing: ['content-security-policy'], checked: page };
    const missing = storageDirectivesMissing(policies, storage, self);
    const result = { storageOrigin: storage, storageOriginAllowed: missing.length === 0, missing, checked: page };
    cspChecks.set(key, result);
    return result;
  } catch (error) {
    return { storageOrigin: storage, storageOriginAllowed: null, missing: [], checked: `${page} could not be read: ${(error as Error).message}` };
  }
}

/** The operator's secret for health details, when set well enough to be one (16 characters or more). */
function healthSecret(env: Record<string, string | undefined>): string | null {
  const secret = env.HEALTH_SECRET?.trim() ?? '';
  return secret.length >= 16 ? secret : null;
}

/** Whether the request carries the operator's HEALTH_SECRET as a bearer token (compared in constant time). */
export function isOperatorRequest(req: Request, env: Record<string, string | undefined> = process.env): boolean {
  const secret = healthSecret(env);
  const given = /^Bearer\s+(.+)$/i.exec(req.headers.get('authorization') ?? '')?.[1]?.trim();
  if (!secret || !given) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(secret));
}
