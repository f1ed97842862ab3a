import type { Config } from '@netlify/functions';
import { cspHealth, isOperatorRequest, platformHealth } from '../lib/health';
import { doctorForHealth } from '../lib/doctor';
import { json, requireMethod, withErrors } from '../lib/http';
import { videoHealth } from '../lib/tool';
import { chatHealth } from '../lib/chat/health';
import { paymentsStatus } from '../lib/payments/selling';
import { outboxHealth, type OutboxHealth } from '../lib/delivery/health';
import type { PublicHealth } from '../../src/lib/health';

/** The outbox's state when the database answers (else the site is down anyway); a failed reading is reported. */
async function readOutbox(databaseOk: boolean): Promise<OutboxHealth | { ok: false; problems: string[] } | null> {
  if (!databaseOk) return null;
  try {
    return await outboxHealth();
  } catch (error) {
    console.error('[health] outbox check failed:', (error as Error).message);
    return { ok: false, problems: [`the outbox could not be read: ${(error as Error).message}`] };
  }
}

// GET /api/health — public: whether the site works (200, or 503 when its database does not answer) and what
// the pages need (video available, payment mode), nothing about the configuration (src/lib/health.ts). With
// `Authorization: Bearer <HEALTH_SECRET>` the operator also gets the details: which adapters are active, what
// is wrong with payments or chat, whether the pages' policy lets the browser reach the storage, the outbox's
// notices, and the deploy check (`npm run doctor`: the database's TLS, the Supabase key's kind, each hosted model
// against its schema). `status` is "degraded" while the site works but a notice keeps failing
// (netlify/lib/delivery/health.ts).
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET', 'HEAD');
  const [platform, video] = await Promise.all([platformHealth(), videoHealth()]);
  const [payments, outbox] = await Promise.all([paymentsStatus(), readOutbox(platform.ok)]);
  const status = platform.ok ? 200 : 503;
  const state: PublicHealth['status'] = !platform.ok ? 'down' : outbox && !outbox.ok ? 'degraded' : 'ok';
  if (!isOperatorRequest(req)) {
    const answer: PublicHealth = { ok: platform.ok, status: state, video: { available: video.video.available }, payments: { mode: payments.mode } };
    return json(answer, status);
  }
  return json(
    { ok: platform.ok, status: state, service: 'lumora-ai', time: new Date().toISOString(), platform, payments, chat: await chatHealth(), csp: await cspHealth(), outbox, deploy: await doctorForHealth(), ...video },
    status,
  );
});

export const config: Config = { path: '/api/health' };
