import type { IncomingMessage } from 'node:http';
import { MSG } from '../../src/lib/messages';

/**
 * Largest request body the local server takes. Netlify caps a function's body at 6 MB, but locally the
 * `uploads` function also stands in for Supabase Storage's direct uploads (photos up to 15 MB).
 */
export const LOCAL_BODY_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The Node request as a web `Request` for a function, its body read whole (as Netlify hands a function its
 * body) and byte for byte — binary uploads included. A body over the cap answers 413 instead.
 */
export async function readRequest(req: IncomingMessage, origin: string, maxBytes = LOCAL_BODY_MAX_BYTES): Promise<Request | Response> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const url = new URL(req.url ?? '/', origin);
  if (req.method === 'GET' || req.method === 'HEAD') return new Request(url, { method: req.method, headers });
  const tooLarge = () => Response.json({ success: false, error: MSG.payloadTooLarge(maxBytes) }, { status: 413 });
  if (Number(req.headers['content-length']) > maxBytes) return tooLarge();
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return tooLarge();
    chunks.push(chunk as Buffer);
  }
  return new Request(url, { method: req.method, headers, body: size === 0 ? undefined : Buffer.concat(chunks, size) });
}
