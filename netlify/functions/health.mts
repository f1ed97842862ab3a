import type { Config } from '@netlify/functions';
import { cspHealth, isOperatorRequest, platformHealth } from '../lib/health';
import { doctorForHealth } from '../lib/doctor';
import { json, requireMethod, withErrors } from '../lib/http';
import { videoHealth } from '../lib/tool';
import { chatHealth } from '../lib/chat/health';
import { paymentsStatus } from '../lib/payments/selling';
import type { PublicHealth } from '../../src/lib/health';

// GET /api/health — public: whether the site works (200, or 503 when its database does not answer) and what
// the pages need (video available, payment mode), nothing about the configuration (src/lib/health.ts). With
// `Authorization: Bearer <HEALTH_SECRET>` the operator also gets the details: which adapters are active, what
// is wrong with payments or chat, whether the pages' policy lets the browser reach the storage, and the deploy
// check (`npm run doctor`: the database's TLS, the Supabase key's kind, each hosted model against its schema).
export default withErrors(async (req: Request) => {
  requireMethod(req, 'GET', 'HEAD');
  const [platform, video] = await Promise.all([platformHealth(), videoHealth()]);
  const payments = await paymentsStatus();
  const status = platform.ok ? 200 : 503;
  if (!isOperatorRequest(req)) {
    const answer: PublicHealth = { ok: platform.ok, video: { available: video.video.available }, payments: { mode: payments.mode } };
    return json(answer, status);
  }
  return json(
    { ok: platform.ok, service: 'lumora-ai', time: new Date().toISOString(), platform, payments, chat: await chatHealth(), csp: await cspHealth(), deploy: await doctorForHealth(), ...video },
    status,
  );
});

export const config: Config = { path: '/api/health' };
