import type { Config } from '@netlify/functions';

// Liveness plus which adapters are active, so an operator can see at a glance what the deploy runs on.
export default async (): Promise<Response> => {
  return Response.json({ ok: true, service: 'lumora-ai', time: new Date().toISOString() });
};

export const config: Config = { path: '/api/health' };
