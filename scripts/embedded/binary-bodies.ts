import type { IncomingMessage } from 'node:http';

/**
 * Works around @netlify/functions-dev (2.0.8): it reads every request body with `request.text()` and then
 * flags it `isBase64Encoded` for any non-text content type, so the function receives the body base64-
 * DECODED — binary uploads (images, multipart forms) arrive corrupted under `npm start`. Real Netlify
 * encodes such bodies itself. The fix: hand NetlifyDev those bodies already base64-encoded.
 *
 * Returns a web Request for `netlify.handleAndIntrospect()` when the request carries a binary body, a 413
 * Response when that body exceeds maxBytes, or null when the request can go through
 * `handleAndIntrospectNodeRequest()` untouched (GET, HEAD and text bodies: their stream is not read here).
 */
const TEXT_TYPES = new Set([
  'application/csp-report',
  'application/graphql',
  'application/json',
  'application/javascript',
  'application/x-www-form-urlencoded',
  'application/x-ndjson',
  'application/xml',
]);

export function isBinaryContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!type) return true;
  return !(type.startsWith('text/') || type.endsWith('+json') || type.endsWith('+xml') || TEXT_TYPES.has(type));
}

export async function binaryBodyRequest(
  req: IncomingMessage,
  origin: string,
  maxBytes = 32 * 1024 * 1024,
): Promise<Request | Response | null> {
  if (req.method === 'GET' || req.method === 'HEAD' || !isBinaryContentType(req.headers['content-type'])) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      return Response.json({ success: false, error: `Request body too large: the limit is ${maxBytes} bytes` }, { status: 413 });
    }
    chunks.push(chunk as Buffer);
  }
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  // The stream is consumed now, so even an empty body (a DELETE without content type) goes on as a new Request.
  const body = size === 0 ? undefined : Buffer.concat(chunks, size).toString('base64');
  return new Request(new URL(req.url ?? '/', origin), { method: req.method, headers, body });
}
