import type { Config } from '@netlify/functions';
import { platformHealth } from '../lib/health';
import { videoHealth } from '../lib/tool';
import { chatHealth } from '../lib/chat/config';
import { paymentsHealth } from '../lib/payments/config';

// Liveness plus which adapters are active, so an operator (and the tool page) can see what the deploy runs on.
export default async (): Promise<Response> => {
  const [platform, video] = await Promise.all([platformHealth(), videoHealth()]);
  return Response.json({
    ok: true,
    service: 'lumora-ai',
    time: new Date().toISOString(),
    platform,
    payments: paymentsHealth(),
    chat: chatHealth(),
    ...video,
  });
};

export const config: Config = { path: '/api/health' };
