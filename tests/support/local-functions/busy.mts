import type { Config } from '@netlify/functions';

// ?spin computes for ever (a render that never ends); otherwise answers with its pid.
export default (req: Request) => {
  if (new URL(req.url).searchParams.has('spin')) for (;;);
  return Response.json({ pid: process.pid });
};

export const config: Config = { path: '/fixture/busy' };
