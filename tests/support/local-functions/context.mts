import { createHash } from 'node:crypto';
import type { Config, Context } from '@netlify/functions';

// Echoes what the runtime handed over: the context and the body's exact bytes.
export default async (req: Request, context: Context) => {
  const body = Buffer.from(await req.arrayBuffer());
  return Response.json({
    ip: context.ip,
    params: context.params,
    requestId: context.requestId,
    geo: context.geo,
    url: req.url,
    method: req.method,
    taskRoot: process.env.LAMBDA_TASK_ROOT,
    pid: process.pid,
    bodyBytes: body.length,
    bodySha256: createHash('sha256').update(body).digest('hex'),
  });
};

export const config: Config = { path: '/fixture/context/:name' };
