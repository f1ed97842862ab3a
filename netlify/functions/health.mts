import type { Config } from '@netlify/functions';
import { platformHealth } from '../lib/health';

// Liveness plus which adapters are active, so an operator (and the tool page) can see what the deploy runs on.
export default async (): Promise<Response> => {
  const platform = await platformHealth();
  return Response.json({ ok: true, service: 'lumora-ai', time: new Date().toISOString(), platform });
};

export const config: Config = { path: '/api/health' };
