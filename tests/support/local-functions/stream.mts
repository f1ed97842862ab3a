import { existsSync } from 'node:fs';
import type { Config } from '@netlify/functions';

// Sends "first", then waits until the file named by ?release exists before sending "second": a runtime
// that buffered the answer would never deliver "first" to a caller that waits for it.
export default (req: Request) => {
  const release = new URL(req.url).searchParams.get('release') ?? '';
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode('first\n'));
      while (!existsSync(release)) await new Promise((r) => setTimeout(r, 20));
      controller.enqueue(encoder.encode('second\n'));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/plain; charset=utf-8' } });
};

export const config: Config = { path: '/fixture/stream' };
