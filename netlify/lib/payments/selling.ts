import { databaseRole, type DatabaseRole } from '../db/role';
import { currentDeployContext } from '../running-deploy';
import type { DeployContext } from '../../../src/lib/deploy-context';
import { paymentsHealth, readPaymentsConfig, type PaymentsConfig } from './config';

/**
 * Previews never sell from production data. Netlify shares DATABASE_URL, SUPABASE_* and APP_SECRET across deploy
 * contexts unless the operator scopes them, so a Deploy Preview may run against the production database; its
 * checkout (demo or Stripe test mode) would then write completed payments there and release clean downloads
 * of production items. Outside production a checkout therefore needs a database that declares itself
 * non-production (`db/role.ts`): the embedded and test databases do, a staging database does once marked.
 * Otherwise it is refused (503) before anything is written, and /api/health tells the operator why.
 */
export type SellingCheck = { allowed: true } | { allowed: false; problem: string };

export async function sellingCheck(context: DeployContext = currentDeployContext(), role?: DatabaseRole): Promise<SellingCheck> {
  if (context === 'production') return { allowed: true };
  const declared = role ?? (await databaseRole());
  if (declared === 'non-production') return { allowed: true };
  return {
    allowed: false,
    problem:
      `Checkout is refused on this ${context} deploy: its database does not declare itself non-production, and a deploy outside production must not sell from production data. ` +
      'Give this deploy context its own DATABASE_URL (and SUPABASE_*) in Netlify’s environment variables, pointing at a staging database marked with `npm run db:migrate -- --non-production`',
  };
}

/**
 * What /api/health shows about payments: the mode — `misconfigured` also when this deploy may not sell, so a
 * preview reports `demo` only when it sells on a database declared non-production (the smoke test buys only
 * then) — and, for the operator, the problem (with the deploy context and the database's declaration when
 * this deploy may not sell).
 */
export async function paymentsStatus(config: PaymentsConfig = readPaymentsConfig(), context: DeployContext = currentDeployContext()) {
  const base = paymentsHealth(config);
  let role: DatabaseRole | 'unknown' = 'unknown';
  try {
    role = await databaseRole();
  } catch {
    // The platform check reports an unreachable database; payments say only that they cannot tell.
  }
  const selling: SellingCheck =
    role !== 'unknown' ? await sellingCheck(context, role) : context === 'production' ? { allowed: true } : { allowed: false, problem: 'the database cannot be asked whether it is a non-production one' };
  if (base.mode === 'misconfigured' || selling.allowed) return base;
  return { mode: 'misconfigured' as const, problem: selling.problem, context, database: role };
}
