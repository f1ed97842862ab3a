import type { Config } from '@netlify/functions';

// ?exit ends the process mid-request; otherwise answers with its pid.
export default (req: Request) => {
  if (new URL(req.url).searchParams.has('exit')) process.exit(3);
  return Response.json({ pid: process.pid });
};

export const config: Config = { path: '/fixture/crash' };
