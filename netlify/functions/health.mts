import type { Config } from '@netlify/functions';
import { cspHealth, platformHealth } from '../lib/health';
import { withErrors } from '../lib/http';
import { videoHealth } from '../lib/tool';
import { chatHealth } from '../lib/chat/config';
import { paymentsHealth } from '../lib/payments/config';

// Liveness plus which adapters are active, so an operator (and the tool page) can see what the deploy runs on,
// and whether the pages' Content-Security-Policy lets the browser reach the configured storage.
export default withErrors(async () => {
  const [platform, video, csp] = await Promise.all([platformHealth(), videoHealth(), cspHealth()]);
  return Response.json({
    ok: true,
    service: 'lumora-ai',
    time: new Date().toISOString(),
    platform,
    payments: paymentsHealth(),
    chat: chatHealth(),
    csp,
    ...video,
  });
});

export const config: Config = { path: '/api/health' };
