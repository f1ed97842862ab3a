import { readCapped } from '../read-capped';

/** Small response and request helpers for the chat functions. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
  });
}

export function errorResponse(status: number, message: string, headers: Record<string, string> = {}): Response {
  return jsonResponse(status, { error: message }, headers);
}

/**
 * Reads the body as text, refusing more than `maxBytes`: first by the declared Content-Length, then
 * while streaming, so an undeclared or lying body is never buffered whole.
 */
export async function readBodyCapped(req: Request, maxBytes: number): Promise<{ ok: true; text: string } | { ok: false }> {
  try {
    const bytes = await readCapped(req.body, req.headers.get('content-length'), maxBytes, () => new Error('too large'));
    return { ok: true, text: new TextDecoder().decode(bytes) };
  } catch {
    return { ok: false };
  }
}
